import {writeFile} from 'node:fs/promises'
import path from 'node:path'

import {dumpXml, type NodeSpec} from '@arc-cli/test-support/dump'
import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {expect} from 'chai'

/** A dump over arc's 32 MiB limit for one screen: the read stops there and the capture fails with INVALID_DUMP. */
describe('the ADB path reads at most DUMP_MAX_BYTES of a dump', function () {
  this.timeout(120_000)
  const h = useEmulator(async (dir) => {
    const pad = 'x'.repeat(300)
    const rows: NodeSpec[] = Array.from({length: 90_000}, (_, i) => ({
      cls: 'android.widget.TextView',
      text: `${i} ${pad}`,
      bounds: [0, 0, 1080, 80],
    }))
    const file = path.join(dir, 'huge.xml')
    await writeFile(file, dumpXml([{cls: 'android.widget.FrameLayout', bounds: [0, 0, 1080, 2400], children: rows}]))
    return {devices: [{serial: 'emu-1', snapshot: file}]}
  })

  it('a capture of a 40 MB dump fails with INVALID_DUMP naming the limit, and the device command is ended', async () => {
    const driver = await h.driver()
    try {
      const error = await driver.captureScreen().then(
        () => undefined,
        (e: Error & {code?: string}) => e
      )
      expect(error?.code).to.equal('INVALID_DUMP')
      expect(error?.message).to.equal(
        `the uiautomator dump on emu-1 is over ${32 * 1024 * 1024} bytes, arc's limit for one screen: arc stopped reading it`
      )
    } finally {
      await driver.close()
    }
    // Closed, not read to its end: the device's dump command ends (no deadline of its own would end it).
    const deadline = Date.now() + 10_000
    while (h.emu.runningShells().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
    expect(h.emu.runningShells()).to.deep.equal([])
  })
})
