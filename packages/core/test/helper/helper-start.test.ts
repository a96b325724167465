/**
 * The helper's start command under a real PTY hangup, in the shells that run it: from Android 7.0 adbd runs `exec:` on
 * a PTY in raw mode (AOSP adb daemon/shell_service.cpp, StartSubprocess) and closes the PTY's master when the host's
 * stream closes, which hangs the terminal up: the kernel sends SIGHUP to the session (the shell adbd started after
 * setsid(), then its foreground group). The command must leave app_process alive to see the end of its input, so that
 * the helper lifts the fingers it has down (Server.java) instead of dying with them down.
 *
 * Here a stand-in `app_process` on PATH records its class path and arguments and whether SIGHUP is ignored
 * (/proc/self/status SigIgn), then reads its input to the end. python3's pty module plays adbd: a new session, the
 * PTY's slave as controlling terminal in raw mode (cfmakeraw), `SHELL -c COMMAND`, then the master closed. mksh is
 * Android's /system/bin/sh (AOSP external/mksh builds the `sh` module); dash and bash check the syntax is plain POSIX.
 * A shell that is not installed is skipped, saying so; the same harness without the trap shows the hangup kills.
 */
import {spawnSync} from 'node:child_process'
import {chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import path from 'node:path'

import {expect} from 'chai'

import {helperBuild, helperDevicePath} from '../../src/driver/device-helper.js'
import {helperStartCommand} from '../../src/driver/adb/helper-session.js'

/** adbd's part: fork, setsid, the slave as controlling terminal in raw mode, `sh -c`; read the hello, close the master. */
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
 * The stand-in, in Python so that its SIGHUP disposition is the one it inherited (as ART's: neither ART nor app_process
 * installs a SIGHUP handler; a shell script would not do, as dash catches SIGHUP while it waits for a command): what it
 * was given and whether SIGHUP is ignored; then busy until the hangup and 2 s after it, as the helper is while it plays
 * a touch and reads nothing; then its input read to the end (EOF, or EIO from the hung-up terminal).
 */
const APP_PROCESS = String.raw`
import os, sys, time
log = open(os.environ['ARC_TEST_LOG'], 'a', buffering=1)
log.write('classpath=%s\nargs=%s\n' % (os.environ.get('CLASSPATH', ''), ' '.join(sys.argv[1:])))
mask = [l for l in open('/proc/self/status') if l.startswith('SigIgn:')][0].split()[1]
log.write('sighup-ignored=%d\n' % (int(mask, 16) & 1))
os.write(1, b'ready\n')
# Busy until the terminal was hung up (the kernel then clears the session's controlling tty: tty_nr 0), and 2 s more.
for _ in range(200):
    if open('/proc/self/stat').read().rsplit(')', 1)[1].split()[4] == '0':
        break
    time.sleep(0.05)
time.sleep(2)
log.write('touch played to its end\n')
while True:
    try:
        if not os.read(0, 4096):
            break
    except OSError:
        break
log.write('input ended\n')
`

const SHELLS = ['/usr/bin/mksh', '/bin/mksh', '/usr/bin/dash', '/bin/bash']

function available(file: string): boolean {
  return spawnSync(file, ['-c', 'exit 0'], {stdio: 'ignore'}).status === 0
}

describe("the helper's start command survives adbd's PTY hangup (real PTY, the device's shells)", function () {
  this.timeout(60_000)
  let dir: string
  let standIns: string

  before(function () {
    if (process.platform !== 'linux' || spawnSync('python3', ['-c', 'import pty'], {stdio: 'ignore'}).status !== 0) {
      console.log('    (python3 with its pty module, on Linux, is needed to play adbd here: skipped)')
      this.skip()
    }
    dir = mkdtempSync(path.join(tmpdir(), 'arc-helper-start-'))
    standIns = path.join(dir, 'bin')
    mkdirSync(standIns)
    const python = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], {encoding: 'utf8'}).stdout.trim()
    writeFileSync(path.join(standIns, 'app_process'), `#!${python}\n${APP_PROCESS}`)
    chmodSync(path.join(standIns, 'app_process'), 0o755)
  })

  after(() => {
    if (dir) rmSync(dir, {recursive: true, force: true})
  })

  /** Runs `command` as adbd runs an `exec:` service, hangs up, and returns how the shell ended and what was logged. */
  function hangUp(shell: string, command: string): {shell: string; log: string} {
    const log = path.join(dir, `log-${path.basename(shell)}-${Math.random().toString(36).slice(2)}`)
    writeFileSync(log, '')
    const run = spawnSync('python3', ['-c', ADBD, shell, command], {
      encoding: 'utf8',
      timeout: 30_000,
      env: {PATH: `${standIns}:/usr/bin:/bin`, ARC_TEST_LOG: log},
    })
    expect(run.status, run.stderr).to.equal(0)
    return {shell: run.stdout.trim(), log: readFileSync(log, 'utf8')}
  }

  it('starts with SIGHUP ignored, so the hangup ends its input instead of the process; each argument arrives as sent', function () {
    const shells = [...new Set(SHELLS.filter(available).map((s) => path.basename(s)))]
    const missing = ['mksh', 'dash', 'bash'].filter((s) => !shells.includes(s))
    if (missing.length > 0) console.log(`    (not installed, not tried: ${missing.join(', ')})`)
    if (shells.length === 0) this.skip()
    const command = helperStartCommand(0)
    expect(command.startsWith("trap '' HUP; ")).to.equal(true)
    for (const name of shells) {
      const shell = SHELLS.find((s) => path.basename(s) === name && available(s)) as string
      const {shell: ended, log} = hangUp(shell, command)
      expect(log, name).to.equal(
        `classpath=${helperDevicePath()}\nargs=/ ${helperBuild().mainClass} --idle-ms 0\nsighup-ignored=1\ntouch played to its end\ninput ended\n`
      )
      expect(ended, name).to.equal('exit 0')
    }
  })

  it('without the trap the same hangup kills app_process mid-touch (the fingers it had down stayed down)', function () {
    const shells = [...new Set(SHELLS.filter(available).map((s) => path.basename(s)))]
    if (shells.length === 0) this.skip()
    const bare = helperStartCommand(0).replace("trap '' HUP; ", '')
    for (const name of shells) {
      const shell = SHELLS.find((s) => path.basename(s) === name && available(s)) as string
      // The shell ends by the signal or by its own handler (mksh and dash exit 129); app_process never gets past it.
      const {log} = hangUp(shell, bare)
      expect(log, name).to.match(/\nsighup-ignored=0\n$/)
    }
  })
})
