/**
 * flock(2) locks on the device's files, as the kernel keeps them: per open file, exclusive or shared, held until the
 * holder unlocks it or every descriptor of that open file is closed, which for a shell's `exec 9>>FILE` is the shell
 * exiting (or being killed when adbd drops its connection). Owners are shell sessions; the emulator releases a
 * session's locks when its shell has ended (emulator.ts).
 */
export class FileLocks {
  private readonly held = new Map<string, {exclusive?: string; shared: Set<string>}>()
  private readonly waiters = new Set<() => void>()

  private free(key: string, owner: string, exclusive: boolean): boolean {
    const lock = this.held.get(key)
    if (!lock) return true
    if (lock.exclusive !== undefined) return lock.exclusive === owner
    if (!exclusive) return true
    return [...lock.shared].every((s) => s === owner)
  }

  /**
   * Takes the lock on `key` for `owner`; with `wait`, waits until it is free or `signal` aborts (false), else
   * false at once when another owner holds it. Locking again converts (flock(2) on the same open file).
   */
  async acquire(key: string, owner: string, exclusive: boolean, wait: boolean, signal: AbortSignal): Promise<boolean> {
    while (!this.free(key, owner, exclusive)) {
      if (!wait || signal.aborted) return false
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.waiters.delete(wake)
          signal.removeEventListener('abort', wake)
          resolve()
        }
        this.waiters.add(wake)
        signal.addEventListener('abort', wake, {once: true})
      })
    }
    const lock = this.held.get(key) ?? {shared: new Set<string>()}
    lock.shared.delete(owner)
    if (exclusive) lock.exclusive = owner
    else {
      if (lock.exclusive === owner) lock.exclusive = undefined
      lock.shared.add(owner)
    }
    this.held.set(key, lock)
    return true
  }

  release(key: string, owner: string): void {
    const lock = this.held.get(key)
    if (!lock) return
    if (lock.exclusive === owner) lock.exclusive = undefined
    lock.shared.delete(owner)
    if (lock.exclusive === undefined && lock.shared.size === 0) this.held.delete(key)
    for (const wake of [...this.waiters]) wake()
  }

  /** Every lock `owner` holds: its shell ended, so the kernel closed its descriptors. */
  releaseAll(owner: string): void {
    for (const key of [...this.held.keys()]) this.release(key, owner)
  }
}
