/**
 * The helper's start command under a real PTY hangup (pty-hangup.ts plays adbd), in the shells that run it: the host's
 * stream closing hangs up the PTY adbd runs `exec:` on (Android 7.0+), and the command must leave app_process alive to
 * see the end of its input, so that the helper lifts the fingers it has down (Server.java) instead of dying with them
 * down. A stand-in `app_process` records its class path and arguments and whether SIGHUP is ignored, stays busy
 * through the hangup as the helper is while it plays a touch, then reads its input to the end. A shell that is not
 * installed is skipped, saying so; the same harness without the trap shows the hangup kills.
 */
import {expect} from 'chai'

import {helperBuild, helperDevicePath} from '../../src/driver/device-helper.js'
import {helperStartCommand} from '../../src/driver/adb/helper-session.js'
import {BUSY_THROUGH_HANGUP, deviceShells, usePtyHangup} from './pty-hangup.js'

const APP_PROCESS = String.raw`
log.write('classpath=%s\nargs=%s\n' % (os.environ.get('CLASSPATH', ''), ' '.join(sys.argv[1:])))
log.write('sighup-ignored=%d\n' % sighup_ignored())
${BUSY_THROUGH_HANGUP}
log.write('touch played to its end\n')
while True:
    try:
        if not os.read(0, 4096):
            break
    except OSError:
        break
log.write('input ended\n')
`

describe("the helper's start command survives adbd's PTY hangup (real PTY, the device's shells)", function () {
  this.timeout(60_000)
  const pty = usePtyHangup({app_process: APP_PROCESS})

  it('starts with SIGHUP ignored, so the hangup ends its input instead of the process; each argument arrives as sent', function () {
    const {shells, missing} = deviceShells()
    if (missing.length > 0) console.log(`    (not installed, not tried: ${missing.join(', ')})`)
    if (shells.length === 0) this.skip()
    const command = helperStartCommand(0)
    expect(command.startsWith("trap '' HUP; ")).to.equal(true)
    for (const {name, file} of shells) {
      const {shell: ended, log} = pty().hangUp(file, command)
      expect(log, name).to.equal(
        `classpath=${helperDevicePath()}\nargs=/ ${helperBuild().mainClass} --idle-ms 0\nsighup-ignored=1\ntouch played to its end\ninput ended\n`
      )
      expect(ended, name).to.equal('exit 0')
    }
  })

  it('without the trap the same hangup kills app_process mid-touch (the fingers it had down stayed down)', function () {
    const {shells} = deviceShells()
    if (shells.length === 0) this.skip()
    const bare = helperStartCommand(0).replace("trap '' HUP; ", '')
    for (const {name, file} of shells) {
      // The shell ends by the signal or by its own handler (mksh and dash exit 129); app_process never gets past it.
      const {log} = pty().hangUp(file, bare)
      expect(log, name).to.match(/\nsighup-ignored=0\n$/)
    }
  })
})
