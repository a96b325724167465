/**
 * The demo app's screen as a phone's uiautomator dump writes it: only nodes visible to the user. AOSP's
 * AccessibilityNodeInfoDumper.dumpNodeRec (frameworks/base cmds/uiautomator, behind `uiautomator dump` and its
 * --compressed mode, and androidx.test.uiautomator's, behind UiDevice.dumpWindowHierarchy) walks a node's
 * children and skips every child whose isVisibleToUser() is false, logging "Skipping invisible child"; so a
 * `visible-to-user` attribute, where a dumper writes one, is always "true" (every real dump in
 * ../shared/fixtures/real that has it: 732 nodes in 7 dumps, none false).
 */
import {readFile} from 'node:fs/promises'
import path from 'node:path'

import {expect} from 'chai'
import type {Emulator} from '@arc-cli/emulator'

import {clientFor, DEMO_DIR, emulate, exec, type AdbClient} from './support.js'

interface DemoAppState {
  state: {items: Array<{name: string; qty: string; done: boolean}>; first: number}
}

const nodeTags = (xml: string) => xml.match(/<node [^>]*>/g) ?? []
const itemNames = (xml: string) =>
  nodeTags(xml)
    .filter((tag) => tag.includes(':id/item_name"'))
    .map((tag) => /text="([^"]*)"/.exec(tag)?.[1])

describe('the demo app dumps as a phone does: no node that is not visible to the user', () => {
  let emu: Emulator
  let client: AdbClient
  before(async () => {
    emu = await emulate({devices: [{serial: 'emu-1', app: 'demo'}]})
    client = clientFor(emu)
  })
  after(() => emu.close())

  const dump = async () =>
    (await exec(client, 'emu-1', 'uiautomator dump /dev/tty')).toString().replace(/UI hierchary dumped to: .*\n$/, '')

  it('the bundled demo snapshot holds no invisible node', async () => {
    const xml = await readFile(path.join(DEMO_DIR, 'window_dump.xml'), 'utf8')
    expect(nodeTags(xml)).to.have.length.above(40)
    expect(nodeTags(xml).filter((tag) => !tag.includes('visible-to-user="true"'))).to.deep.equal([])
  })

  it("uiautomator dump on the virtual device leaves out the row laid out under the list's edge, children and all", async () => {
    const xml = await dump()
    expect(nodeTags(xml).filter((tag) => !tag.includes('visible-to-user="true"'))).to.deep.equal([])
    // Nine items, eight rows shown: the ninth is laid out at the list's edge (the app draws none of it).
    expect(itemNames(xml)).to.have.length(8)
    expect(itemNames(xml)).to.not.include('Coffee beans')
    expect(xml).to.not.include('Delete Coffee beans')
  })

  it('in every place the list scrolls to', async () => {
    const app = emu.device('emu-1').app as unknown as DemoAppState
    for (let i = 1; i <= 6; i++) app.state.items.push({name: `Item ${i}`, qty: '1', done: false})
    for (let first = 0; first <= app.state.items.length - 8; first++) {
      app.state.first = first
      const device = emu.device('emu-1')
      device.screens.set(device.app!.screenName, device.app!.draw())
      const xml = await dump()
      expect(
        nodeTags(xml).filter((tag) => !tag.includes('visible-to-user="true"')),
        `first row ${first}`
      ).to.deep.equal([])
      expect(itemNames(xml), `first row ${first}`).to.deep.equal(
        app.state.items.slice(first, first + 8).map((item) => item.name)
      )
    }
  })
})
