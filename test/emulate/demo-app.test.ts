import {readFile} from 'node:fs/promises'
import path from 'node:path'

import {DEMO_DIR, useEmulator} from '@arc-cli/test-support/emulator-support'
import {runArc} from '@arc-cli/test-support/run-arc'
import {expect} from 'chai'

/** The demo app `arc emulate` runs by default, played through arc's own commands, as a user of the README would. */
describe('arc emulate: the demo app works', function () {
  this.timeout(120_000)
  const h = useEmulator({devices: [{serial: 'emu-1', app: 'demo'}]})
  const arc = (...args: string[]) => runArc([...args, '--device', 'emu-1'], {env: h.env})
  const names = () =>
    h.emu
      .device('emu-1')
      .screen.dump.nodes.filter((n) => n.resourceId.endsWith(':id/item_name'))
      .map((n) => n.text)

  it('starts as the bundled demo snapshot, byte for byte, so ids read on --device demo hold there', async () => {
    expect(h.emu.device('emu-1').dumpXml()).to.equal(await readFile(path.join(DEMO_DIR, 'window_dump.xml'), 'utf8'))
    const onDemo = await runArc(['screen-state', '--json', '--device', 'demo'])
    const onDevice = await arc('screen-state', '--json')
    const ids = (run: {stdout: string}) =>
      (JSON.parse(run.stdout) as {windows: Array<{elements: Array<{id: string}>}>}).windows.flatMap((w) =>
        w.elements.map((e) => e.id)
      )
    expect(ids(onDevice)).to.have.length.above(40)
    expect(ids(onDevice)).to.deep.equal(ids(onDemo))
  })

  it('ADD puts the typed item at the top of the list and empties the field', async () => {
    const before = await h.emu.device('emu-1').screen.png()
    const typed = await arc('type', 'append', '--res-id', 'dev.arc.demo.groceries:id/new_item', 'Oat milk 42')
    expect(typed.code, typed.stderr).to.equal(0)
    const click = await arc('click', '--text', 'ADD', '--exact-match')
    expect(click.code, click.stderr).to.equal(0)
    expect(names().slice(0, 2)).to.deep.equal(['Oat milk 42', 'Oat milk'])
    const found = await arc('find', 'text', 'Oat milk 42', '--exact-match')
    expect(found.code, found.stderr).to.equal(0)
    const field = h.emu.device('emu-1').screen.dump.nodes.find((n) => n.resourceId.endsWith(':id/new_item'))
    expect(field?.text).to.equal('Add an item')
    // The picture changed with it.
    expect((await h.emu.device('emu-1').screen.png()).equals(before)).to.equal(false)
  })

  it('the list scrolls: scroll-to reaches the last row, which the first screen did not lay out', async () => {
    expect(names()).not.to.include('Coffee beans')
    const run = await arc('scroll-to', '--text', 'Coffee beans', '--max-scrolls', '5')
    expect(run.code, run.stderr).to.equal(0)
    expect(names()).to.include('Coffee beans')
    expect(names()[0]).not.to.equal('Oat milk 42')
  })

  it('a row delete button opens a dialog; BACK closes it, Delete removes the row', async () => {
    expect((await arc('click', '--desc', 'Delete Lemons')).code).to.equal(0)
    const open = await arc('find', 'text', 'Delete Lemons?', '--exact-match')
    expect(open.code, open.stderr).to.equal(0)
    expect((await arc('press', 'back')).code).to.equal(0)
    expect((await arc('find', 'text', 'Delete Lemons?', '--exact-match')).code).to.equal(9)
    expect(names()).to.include('Lemons')
    expect((await arc('click', '--desc', 'Delete Lemons')).code).to.equal(0)
    const del = await arc('click', '--text', 'Delete', '--exact-match')
    expect(del.code, del.stderr).to.equal(0)
    expect(names()).not.to.include('Lemons')
    expect((await arc('find', 'text', 'Lemons', '--exact-match')).code).to.equal(9)
  })

  it('sh -c runs a shell line on the device, with its programs', async () => {
    const line = 'echo one; getprop ro.serialno | wc -c; nope'
    const run = await runArc(['shell', '--device', 'emu-1', '--', 'sh', '-c', line], {env: h.env})
    expect(run.stdout).to.equal('one\n6\n')
    expect(run.stderr).to.include('/system/bin/sh: nope: not found')
    expect(run.code).to.equal(127)
  })
})
