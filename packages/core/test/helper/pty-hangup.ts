/**
 * adbd's PTY hangup, played on this machine for the tests that check what a device command survives when arc's stream
 * closes (helper-start.test.ts, adb/touch-hangup.test.ts). From Android 7.0 adbd runs `exec:` and a v1 `shell:`
 * command on a PTY in raw mode (AOSP adb daemon/shell_service.cpp, StartSubprocess), before it `shell:` on a PTY:
 * the child calls setsid() and opens the PTY's slave, its controlling terminal, then runs `/system/bin/sh -c
 * COMMAND`; when the host's stream closes adbd closes the master, and the kernel hangs the terminal up (SIGHUP to the
 * session's leader, then to its foreground group once the leader exits; reads end, writes fail with EIO).
 *
 * python3's pty module plays adbd; the device's programs are stand-ins on PATH, written in Python so that their
 * SIGHUP disposition is the one they inherited (as ART's and toybox's: neither installs a SIGHUP handler; a shell
 * script would not do, as dash and mksh catch SIGHUP while they wait for a command). mksh is Android's /system/bin/sh
 * (AOSP external/mksh builds the `sh` module); dash and bash check the syntax is plain POSIX.
 */
import {spawnSync} from 'node:child_process'
import {chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import path from 'node:path'

/** adbd's part: fork, setsid, the slave as controlling terminal in raw mode, `sh -c`; read to `ready`, close the master. */
const ADBD = String.raw`
import os, pty, sys, tty
shell, command = sys.argv[1], sys.argv[2]
master, slave = pty.openpty()
tty.setraw(slave)
pid = os.fork()
if pid == 0:
    os.setsid()
    os.close(master)
    fd = os.open(os.ttyname(slave), os.O_RDWR)
    for i in (0, 1, 2):
        os.dup2(fd, i)
    os.close(fd)
    os.close(slave)
    os.execv(shell, [shell, '-c', command])
os.close(slave)
seen = b''
while b'ready' not in seen:
    try:
        chunk = os.read(master, 100)
    except OSError:
        chunk = b''
    if not chunk:
        break
    seen += chunk
os.close(master)
_, status = os.waitpid(pid, 0)
print('signal %d' % os.WTERMSIG(status) if os.WIFSIGNALED(status) else 'exit %d' % os.WEXITSTATUS(status))
`

/**
 * Python lines for a stand-in: says `ready` (adbd then hangs up), then stays busy, reading nothing, until the terminal
 * was hung up (the kernel clears the session's controlling tty: tty_nr 0) and 2 s more, as a program injecting a touch
 * is; `log` is the open log file.
 */
export const BUSY_THROUGH_HANGUP = String.raw`
os.write(1, b'ready\n')
for _ in range(200):
    if open('/proc/self/stat').read().rsplit(')', 1)[1].split()[4] == '0':
        break
    time.sleep(0.05)
time.sleep(2)
`

/** The Python lines a stand-in starts with: `os`, `sys`, `time`, and `log`, the test's log file (line-buffered). */
export const STAND_IN_HEAD = String.raw`
import os, sys, time
log = open(os.environ['ARC_TEST_LOG'], 'a', buffering=1)
def sighup_ignored():
    mask = [l for l in open('/proc/self/status') if l.startswith('SigIgn:')][0].split()[1]
    return int(mask, 16) & 1
`

const SHELLS = ['/usr/bin/mksh', '/bin/mksh', '/usr/bin/dash', '/bin/dash', '/bin/bash', '/usr/bin/bash']

function runs(file: string): boolean {
  return spawnSync(file, ['-c', 'exit 0'], {stdio: 'ignore'}).status === 0
}

/** Why the hangup cannot be played here (not Linux, no python3 with pty), or undefined. */
export function ptyHangupMissing(): string | undefined {
  if (process.platform !== 'linux') return 'the PTY hangup is played on Linux only'
  if (spawnSync('python3', ['-c', 'import pty'], {stdio: 'ignore'}).status !== 0)
    return 'python3 with its pty module is needed to play adbd'
  return undefined
}

/** The shells to run a command in (mksh, dash, bash: those installed), and the names of those not installed. */
export function deviceShells(): {shells: Array<{name: string; file: string}>; missing: string[]} {
  const shells: Array<{name: string; file: string}> = []
  for (const name of ['mksh', 'dash', 'bash']) {
    const file = SHELLS.find((s) => path.basename(s) === name && runs(s))
    if (file) shells.push({name, file})
  }
  return {shells, missing: ['mksh', 'dash', 'bash'].filter((n) => !shells.some((s) => s.name === n))}
}

/** A folder of stand-in programs and the harness that runs a command among them under a hangup. */
export class PtyHangup {
  readonly dir = mkdtempSync(path.join(tmpdir(), 'arc-pty-hangup-'))
  private readonly bin = path.join(this.dir, 'bin')
  private readonly python = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], {
    encoding: 'utf8',
  }).stdout.trim()

  constructor() {
    mkdirSync(this.bin)
  }

  /** Puts `name` on the stand-ins' PATH: STAND_IN_HEAD, then `body` (Python). */
  program(name: string, body: string): void {
    const file = path.join(this.bin, name)
    writeFileSync(file, `#!${this.python}\n${STAND_IN_HEAD}\n${body}`)
    chmodSync(file, 0o755)
  }

  /** Runs `command` with `shell -c` as adbd runs it, hangs up at `ready`: how the shell ended and what was logged. */
  hangUp(shell: string, command: string): {shell: string; log: string} {
    const log = path.join(this.dir, `log-${Math.random().toString(36).slice(2)}`)
    writeFileSync(log, '')
    const run = spawnSync('python3', ['-c', ADBD, shell, command], {
      encoding: 'utf8',
      timeout: 30_000,
      env: {PATH: `${this.bin}:/usr/bin:/bin`, ARC_TEST_LOG: log},
    })
    if (run.status !== 0) throw new Error(`the PTY harness failed: ${run.stderr || String(run.error)}`)
    return {shell: run.stdout.trim(), log: readFileSync(log, 'utf8')}
  }

  remove(): void {
    rmSync(this.dir, {recursive: true, force: true})
  }
}

/**
 * A PtyHangup for the suite this is called in, with `programs` (name: python body) installed: made before the
 * suite's tests and removed after them; the suite skips, saying why, where the hangup cannot be played.
 */
export function usePtyHangup(programs: Record<string, string>): () => PtyHangup {
  let pty: PtyHangup | undefined
  before(function () {
    const missing = ptyHangupMissing()
    if (missing) {
      console.log(`    (${missing}: skipped)`)
      this.skip()
    }
    pty = new PtyHangup()
    for (const [name, body] of Object.entries(programs)) pty.program(name, body)
  })
  after(() => pty?.remove())
  return () => pty as PtyHangup
}
