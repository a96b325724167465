/**
 * Whether a process with this pid is running on this machine (a signal-0 probe; EPERM means it runs as someone
 * else). Writers use it to tell a killed run's leftover temporary files from a live run's.
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
