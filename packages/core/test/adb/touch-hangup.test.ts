/**
 * A touch over ADB when arc's stream closes mid-touch (Ctrl-C of a one-shot `arc swipe` or `arc long-press`, a time
 * limit): arc sends it as a v1 `shell:` command, which adbd runs on a PTY (raw mode from Android 7.0), so the close
 * hangs the terminal up (pty-hangup.ts plays adbd). The command (whileAwakeScript, the display check around the touch)
 * must let `input` play the touch to its end: where `input` injects from its own VM (Android 11 and before) or a
 * script writes `sendevent` frames, a program killed mid-touch leaves the finger down.
 *
 * Stand-ins: `dumpsys` says the device is awake; `input` logs whether SIGHUP is ignored, stays busy through the hangup
 * as a swipe is, then logs that it lifted the finger.
 */
import {expect} from 'chai'

import {whileAwakeScript} from '../../src/driver/adb/input.js'
import {shellCommand} from '../../src/driver/adb/shell-quote.js'
import {BUSY_THROUGH_HANGUP, deviceShells, usePtyHangup} from '../helper/pty-hangup.js'

const INPUT = String.raw`
log.write('input %s, sighup-ignored=%d\n' % (' '.join(sys.argv[1:]), sighup_ignored()))
${BUSY_THROUGH_HANGUP}
log.write('finger lifted\n')
`

const DUMPSYS = String.raw`
print('POWER MANAGER (dumpsys power)\n  mWakefulness=Awake')
`

describe('a touch over ADB plays to its end when adbd hangs up its PTY (real PTY, the device shells)', function () {
  this.timeout(60_000)
  const pty = usePtyHangup({input: INPUT, dumpsys: DUMPSYS})

  const swipe = shellCommand(['input', 'swipe', 100, 1500, 100, 500, 8000])

  it('the gated touch ignores SIGHUP, so a swipe cut off by the host still lifts its finger', function () {
    const {shells, missing} = deviceShells()
    if (missing.length > 0) console.log(`    (not installed, not tried: ${missing.join(', ')})`)
    if (shells.length === 0) this.skip()
    for (const {name, file} of shells) {
      const {shell: ended, log} = pty().hangUp(file, whileAwakeScript(swipe))
      expect(log, name).to.equal('input swipe 100 1500 100 500 8000, sighup-ignored=1\nfinger lifted\n')
      expect(ended, name).to.equal('exit 0')
    }
  })

  it('without the trap the hangup kills `input` mid-swipe: the finger it had down stays down', function () {
    const {shells} = deviceShells()
    if (shells.length === 0) this.skip()
    const bare = whileAwakeScript(swipe).replace("trap '' HUP; ", '')
    expect(bare).to.not.contain('trap')
    for (const {name, file} of shells) {
      const {log} = pty().hangUp(file, bare)
      expect(log, name).to.equal('input swipe 100 1500 100 500 8000, sighup-ignored=0\n')
    }
  })
})
