import {readFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {randomBytes} from 'node:crypto'

import {ELEMENT_ID_PATTERN, exitCodeFor, isPng} from '@arc-cli/core'
import {useRealDevice} from '@arc-cli/test-support/real-device'
import {runArc} from '@arc-cli/test-support/run-arc'
import {expect} from 'chai'

/**
 * arc's commands against a real phone (`npm run test:device`, ARC_TEST_DEVICE=<serial>), run as a user runs them
 * with the device chosen by ANDROID_SERIAL. Reads the screen and writes only a folder of its own in Download.
 */
describe('device tier: arc commands on a real phone', function () {
  this.timeout(120_000)
  const device = useRealDevice()
  const arc = (...args: string[]) => runArc(args, {env: device.env})
  const folder = `arc-device-test-${randomBytes(4).toString('hex')}`

  after(async function () {
    if (!device.serial) return
    await arc('shell', '--', 'rm', '-rf', `/sdcard/Download/${folder}`)
  })

  it('screen-state --json: windows, and every element with an element id', async () => {
    const r = await arc('screen-state', '--json')
    expect(r.code, r.stderr).to.equal(0)
    const state = JSON.parse(r.stdout) as {windows: Array<{elements: Array<{id: string}>}>}
    expect(state.windows.length).to.be.at.least(1)
    for (const element of state.windows.flatMap((w) => w.elements)) expect(element.id).to.match(ELEMENT_ID_PATTERN)
  })

  it('screenshot -o writes a PNG and says where', async () => {
    const file = path.join(tmpdir(), `arc-device-${randomBytes(4).toString('hex')}.png`)
    const r = await arc('screenshot', '-o', file)
    expect(r.code, r.stderr).to.equal(0)
    expect(r.stdout + r.stderr).to.include(file)
    expect(isPng(await readFile(file))).to.equal(true)
  })

  it('device info --json names the device it was asked for', async () => {
    const r = await arc('device', 'info', '--json')
    expect(r.code, r.stderr).to.equal(0)
    expect(JSON.parse(r.stdout)).to.include({serial: device.serial})
  })

  it('files write and read a text file in Download; delete is refused without allowDelete', async () => {
    const name = `${folder}/notes ünïcode 'q'.txt`
    const content = 'first line\nsecond: café 中文 👍\n'
    const write = await arc('files', 'write', 'downloads', name, '--content', content)
    expect(write.code, write.stderr).to.equal(0)
    const read = await arc('files', 'read', 'downloads', name, '--json')
    expect(read.code, read.stderr).to.equal(0)
    expect(JSON.parse(read.stdout)).to.deep.include({lines: ['first line', 'second: café 中文 👍'], has_more: false})
    // Deleting needs allowDelete in the config (docs/files.md): refused here; the suite's after() removes the folder.
    const refused = await arc('files', 'delete', 'downloads', name)
    expect(refused.code, refused.stderr).to.equal(exitCodeFor('PERMISSION_DENIED'))
  })
})
