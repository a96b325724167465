import {expect} from 'chai'

import {useEmulator} from '@arc-cli/test-support/emulator-support'

/**
 * adbd before Android 7 (`ro.build.version.sdk` below 24) has no shell protocol and runs every `shell:` command in a
 * PTY that writes each LF as CR LF (the virtual device does as that adbd: docs/emulate.md). arc's reads must come
 * through whole: the PNG repaired byte for byte, the exit status from arc's own trailer, text without stray CRs.
 */
describe('arc on a device whose adbd predates Android 7 (no shell_v2, a PTY per shell: command)', () => {
  const h = useEmulator({devices: [{serial: 'old', app: 'demo'}]})
  before(() => h.emu.device('old').properties.set('ro.build.version.sdk', '23'))

  it('reads the screen, its screenshot (CR LF undone, the PNG exact) and passes a command’s status through', async () => {
    const driver = await h.driver('old')
    try {
      const device = h.emu.device('old')
      const png = await driver.screenshot()
      expect(png.equals(await device.screen.png())).to.equal(true)
      const screen = await driver.captureScreen()
      expect(screen.xml).to.include('Oat milk')
      const out = await driver.runCommand(['sh', '-c', 'echo out; echo err >&2; exit 3'])
      expect(out.exitCode).to.equal(3)
      // No v2: arc runs it over exec: (raw there too), stdout and stderr merged, the bytes as the command wrote them.
      expect(out.stdout.toString()).to.equal('out\nerr\n')
      const info = await driver.deviceInfo()
      expect(info.sdk).to.equal(23)
      expect(info.model).to.not.match(/\r/)
    } finally {
      await driver.close()
    }
  })

  it('writes and reads back a file with line breaks unchanged', async () => {
    const driver = await h.driver('old')
    try {
      await driver.writeFile('/sdcard/Download/pty.txt', Buffer.from('one\ntwo\r\nthree\n'))
      expect((await driver.readFile('/sdcard/Download/pty.txt')).toString('latin1')).to.equal('one\ntwo\r\nthree\n')
      expect((await driver.statFile('/sdcard/Download/pty.txt'))?.size).to.equal(15)
    } finally {
      await driver.close()
    }
  })
})
