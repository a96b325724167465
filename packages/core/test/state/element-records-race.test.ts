/**
 * Element records are read, added to and written back by every read that shows ids. Two reads remembered at once
 * (two MCP calls of a server, two arc processes) must both land: an id whose record is lost gets the on-screen
 * check only, and an anchored element that changed its text ("Follow" to "Following") then passes it.
 */
import {spawn} from 'node:child_process'
import {mkdtemp} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

import {
  DEMO_DIR,
  FileDeviceState,
  MemoryDeviceState,
  SnapshotDriver,
  buildScreenModel,
  readRecords,
  rememberElements,
  type DeviceState,
  type ScreenElement,
} from '@arc-cli/core'
import {ROOT} from '@arc-cli/test-support/paths'
import {expect} from 'chai'

const isList = (value: unknown): value is number[] => Array.isArray(value)

/** Runs update-state.ts beside this file: `count` updates adding first..first+count-1 to the list. */
function updater(dir: string, first: number, count: number): Promise<void> {
  const child = spawn(
    process.execPath,
    [
      '--conditions=arc-source',
      '--import',
      'tsx',
      path.join(ROOT, 'packages/core/test/state/update-state.ts'),
      dir,
      String(first),
      String(count),
    ],
    {cwd: ROOT, env: {...process.env, NODE_OPTIONS: ''}, stdio: ['ignore', 'pipe', 'inherit']}
  )
  let out = ''
  child.stdout.on('data', (d: Buffer) => (out += d.toString()))
  return new Promise((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0 && out === 'done\n' ? resolve() : reject(new Error(`update-state.ts exited ${code}: ${out}`))
    )
  )
}

describe('element records: reads remembered at once all land', function () {
  this.timeout(60_000)
  let elements: ScreenElement[]
  before(async () => {
    elements = buildScreenModel(await (await SnapshotDriver.open(DEMO_DIR)).captureScreen()).elements
    expect(elements.length).to.be.greaterThan(8)
  })

  for (const [what, make] of [
    ['the MCP server’s store (memory)', async () => new MemoryDeviceState()],
    [
      'the CLI’s store (a file)',
      async () => new FileDeviceState('emu-1', await mkdtemp(path.join(os.tmpdir(), 'arc-ids-'))),
    ],
  ] as const) {
    it(`${what}: eight reads at once, each showing other ids, leave a record of every id`, async () => {
      const state: DeviceState = await make()
      const groups = Array.from({length: 8}, (_, i) => elements.filter((_, at) => at % 8 === i))
      await Promise.all(groups.map((group) => rememberElements(state, group)))
      const records = await readRecords(state)
      expect(Object.keys(records ?? {}).sort()).to.deep.equal(elements.map((e) => e.id).sort())
    })

    it(`${what}: a caller's store and the device's both keep every id when one caller's reads overlap`, async () => {
      const stores = {state: await make(), callerState: await make()}
      const [first, second] = [elements.slice(0, 5), elements.slice(5)]
      await Promise.all([rememberElements(stores, first), rememberElements(stores, second)])
      for (const state of [stores.state, stores.callerState])
        expect(Object.keys((await readRecords(state)) ?? {}).sort()).to.deep.equal(elements.map((e) => e.id).sort())
    })
  }

  it('two processes updating one entry of the same cache folder lose none of each other’s updates', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'arc-ids-'))
    await Promise.all([updater(dir, 0, 60), updater(dir, 1000, 60), updater(dir, 2000, 60)])
    const list = await new FileDeviceState('emu-1', dir).get('list', isList)
    expect(list).to.have.length(180)
    expect(new Set(list).size).to.equal(180)
  })
})
