import {mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs'
import path from 'node:path'

import {ArcError} from '@arc-cli/core'
import {expect} from 'chai'

import {tools} from '../../src/tools/index.js'
import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {toolContext} from '@arc-cli/test-support/tool-context'

const tool = (name: string) => tools.find((t) => t.name === name)!

describe('device strings: names the device prints back', function () {
  this.timeout(30_000)
  const h = useEmulator()

  async function run(name: string, input: Record<string, unknown>) {
    const driver = await h.driver()
    const ctx = toolContext(driver, {config: {}})
    try {
      return {result: await tool(name).handler(ctx, tool(name).input.parse(input))}
    } catch (e) {
      if (!(e instanceof ArcError)) throw e
      return {error: e}
    } finally {
      await driver.close()
    }
  }

  it('writes into a folder whose name ends in a carriage return, not into its namesake without one', async () => {
    const tmp = path.join(h.emu.device('emu-1').files.root, 'data/local/tmp')
    mkdirSync(path.join(tmp, 'cr'))
    mkdirSync(path.join(tmp, 'cr\r'))
    writeFileSync(path.join(tmp, 'cr/keep.txt'), 'precious')
    const r = await run('write_file', {location_id: 'tmp', path: 'cr\r/keep.txt', content: 'new'})
    expect(readFileSync(path.join(tmp, 'cr/keep.txt'), 'utf8')).to.equal('precious')
    if (r.error === undefined) expect(readFileSync(path.join(tmp, 'cr\r/keep.txt'), 'utf8')).to.equal('new')
    else expect(readdirSync(path.join(tmp, 'cr\r'))).to.deep.equal([])
  })
  it('writes into a folder whose name holds a line break (realpath prints it whole)', async () => {
    const tmp = path.join(h.emu.device('emu-1').files.root, 'data/local/tmp')
    mkdirSync(path.join(tmp, 'two\nlines'))
    const r = await run('write_file', {location_id: 'tmp', path: 'two\nlines/note.txt', content: 'x'})
    expect(r.error).to.equal(undefined)
    expect(readFileSync(path.join(tmp, 'two\nlines/note.txt'), 'utf8')).to.equal('x')
  })
})
