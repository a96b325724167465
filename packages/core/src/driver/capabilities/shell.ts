/** The shell capability: one device command run as typed, for `arc shell` (the one tool that passes a command through). */

export interface ShellOutput {
  stdout: Buffer
  stderr: Buffer
  exitCode: number
}

export interface ShellCapability {
  /** Runs one command, each argv word quoted, with stdout, stderr and exit status apart. */
  runCommand(argv: string[], timeoutMs?: number): Promise<ShellOutput>
}
