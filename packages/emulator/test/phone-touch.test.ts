import {readFileSync, writeFileSync} from 'node:fs'
import path from 'node:path'

import {expect} from 'chai'
import type {Emulator} from '@arc-cli/emulator'

import {readScreenDump} from '../src/screen-dump.js'
import {FIXTURES_DIR, fixturePath, requireFixtures} from '@arc-cli/test-support/paths'
import {clientFor, emulate, makeSnapshot, shell, tempDir, type AdbClient} from './support.js'

const BASE = {
  index: '0',
  text: '',
  'resource-id': '',
  class: 'android.widget.FrameLayout',
  package: 'com.example',
  'content-desc': '',
  checkable: 'false',
  checked: 'false',
  clickable: 'false',
  enabled: 'true',
  focusable: 'false',
  focused: 'false',
  scrollable: 'false',
  'long-clickable': 'false',
  password: 'false',
  selected: 'false',
}
/** A `<node>` as uiautomator writes one: every attribute once, the given ones over the defaults. */
const NODE = (attrs: Record<string, string>, children = ''): string => {
  const body = Object.entries({...BASE, ...attrs})
    .map(([k, v]) => `${k}="${v}"`)
    .join(' ')
  return children === '' ? `<node ${body} />` : `<node ${body}>${children}</node>`
}

/**
 * An app whose note field runs down to the bottom of the screen, with the keyboard drawn over its lower part:
 * the field [0,400][720,1200], the keyboard window [0,800][720,1280] (Gboard's package), as a dump lists them
 * (the keyboard's window last, as in ../shared/fixtures/real/xmlonly-gmail-compose-gboard-keyboard).
 */
function keyboardOverField(dir: string): string {
  const field = NODE({
    'resource-id': 'com.example:id/note',
    class: 'android.widget.EditText',
    clickable: 'true',
    focusable: 'true',
    bounds: '[0,400][720,1200]',
  })
  const xml =
    `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">` +
    NODE({bounds: '[0,0][720,1280]'}, field) +
    NODE(
      {package: 'com.google.android.inputmethod.latin', bounds: '[0,800][720,1280]'},
      NODE({
        package: 'com.google.android.inputmethod.latin',
        clickable: 'true',
        'content-desc': 'q',
        bounds: '[0,820][72,900]',
      })
    ) +
    `</hierarchy>`
  makeSnapshot(dir, 'Notes')
  writeFileSync(path.join(dir, 'window_dump.xml'), xml)
  return dir
}

describe('the virtual device’s touch model: the topmost window under the point takes the touch', () => {
  let emu: Emulator
  let client: AdbClient
  const tmp = tempDir()
  const run = (command: string) => shell(client, 'phone', command)
  before(async () => {
    const notes = keyboardOverField(path.join(tmp.dir, 'notes'))
    const saved = makeSnapshot(path.join(tmp.dir, 'saved'), 'Saved')
    emu = await emulate({
      devices: [],
      scenario: {
        devices: {
          phone: {
            screens: {notes, saved},
            initialScreen: 'notes',
            // This suite checks where an input leads, not when it shows: the new screen shows at once (no transition time).
            timing: {transitionMs: 0},
            transitions: [{from: 'notes', tap: {resourceId: 'com.example:id/note'}, to: 'saved'}],
          },
        },
      },
    })
    client = clientFor(emu)
  })
  after(async () => {
    await emu.close()
    tmp.cleanup()
  })

  it('a tap on the keyboard’s area goes to the keyboard: the field under it is neither focused nor typed into, its tap transition does not fire', async () => {
    await run('input tap 360 1000')
    await run("input text 'hello'")
    expect(emu.device('phone').screenName).to.equal('notes')
    const dump = await run('uiautomator dump /dev/tty')
    expect(dump).to.match(/resource-id="com.example:id\/note" class="android.widget.EditText"/)
    expect(dump).not.to.include('hello')
    expect(dump).not.to.match(/text="[^"]*" resource-id="com.example:id\/note"[^>]*focused="true"/)
  })

  it('the same field above the keyboard takes the tap: its transition fires', async () => {
    await run('input tap 360 600')
    expect(emu.device('phone').screenName).to.equal('saved')
  })
})

describe('the virtual device reads dumps with its own reader', () => {
  const rows = (): string[][] => {
    try {
      return readFileSync(path.join(FIXTURES_DIR, 'INDEX.tsv'), 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => l.split('\t'))
    } catch {
      return []
    }
  }

  it('finds every view and top-level window of the 37 real screens that INDEX.tsv counts', function () {
    requireFixtures(this)
    const checked: string[] = []
    for (const [name, , , rot, nodes, , , fmt, , , traits] of rows()) {
      if (fmt !== 'uiautomator') continue
      const xmlFile = ['window_dump.xml'].map((f) => fixturePath(name as string, f))[0] as string
      let xml: string
      try {
        xml = readFileSync(xmlFile, 'utf8')
      } catch {
        continue
      }
      const dump = readScreenDump(xml)
      expect(dump.nodes.length, name).to.equal(Number(nodes))
      expect(dump.rotation, name).to.equal(Number(rot))
      const windows = /(\d+)-top-level-windows/.exec(traits ?? '')?.[1]
      if (windows !== undefined) expect(dump.windows.length, name).to.equal(Number(windows))
      checked.push(name as string)
    }
    expect(checked.length).to.be.greaterThan(25)
  })

  it('decodes references in attribute values: &amp; &#10; and astral &#128151;', () => {
    const dump = readScreenDump(
      `<hierarchy rotation="1"><node text="a &amp; b&#10;&#128151;&#x41;" bounds="[0,0][10,10]" class="x.EditText"/></hierarchy>`
    )
    expect(dump.nodes[0]?.text).to.equal('a & b\n\u{1F497}A')
    expect(dump.rotation).to.equal(1)
  })
})

describe('the virtual device under `wm size`: the app is laid out at the size in force, and touches are read there', () => {
  // The notes screen is 720x1280; `wm size 360x640` halves the logical display. On a phone the app lays out again
  // at 360x640: uiautomator reports bounds in that space and `input tap` is read in it (AOSP InputDispatcher hit-tests
  // the display's logical coordinates). A point of the old layout, (360, 600), is off the 360-wide display: no
  // window is there and the dispatcher drops it.
  let emu: Emulator
  let client: AdbClient
  const tmp = tempDir()
  const run = (command: string) => shell(client, 'phone', command)
  before(async () => {
    const notes = keyboardOverField(path.join(tmp.dir, 'notes'))
    const saved = makeSnapshot(path.join(tmp.dir, 'saved'), 'Saved')
    emu = await emulate({
      devices: [],
      scenario: {
        devices: {
          phone: {
            screens: {notes, saved},
            initialScreen: 'notes',
            wm: {size: '360x640'},
            // This suite checks where an input leads, not when it shows: the new screen shows at once (no transition time).
            timing: {transitionMs: 0},
            transitions: [{from: 'notes', tap: {resourceId: 'com.example:id/note'}, to: 'saved'}],
          },
        },
      },
    })
    client = clientFor(emu)
  })
  after(async () => {
    await emu.close()
    tmp.cleanup()
  })

  it('dumps the views at the size in force, and wm size still names the panel as Physical', async () => {
    const dump = await run('uiautomator dump /dev/tty')
    expect(dump).to.match(/resource-id="com.example:id\/note"[^>]*bounds="\[0,200\]\[360,600\]"/)
    expect(await run('wm size')).to.equal('Physical size: 720x1280\nOverride size: 360x640\n')
  })

  it('drops a tap at a point of the panel’s layout that is off the logical display', async () => {
    emu.device('phone').showScreen('notes')
    await run('input tap 360 600')
    expect(emu.device('phone').screenName).to.equal('notes')
  })

  it('reads a tap in logical pixels: the field’s point in the layout in force takes it', async () => {
    emu.device('phone').showScreen('notes')
    await run('input tap 180 300')
    expect(emu.device('phone').screenName).to.equal('saved')
  })
})

describe('the demo app under `wm size`: it is drawn at the panel’s size, touches reach it in the logical display’s pixels', () => {
  let emu: Emulator
  let client: AdbClient
  before(async () => {
    emu = await emulate({devices: [{serial: 'emu-1', app: 'demo'}]})
    client = clientFor(emu)
  })
  after(async () => emu.close())

  it('ADD at its place in the layout in force adds the row typed; its place in the panel’s layout is off the display', async () => {
    const run = (command: string) => shell(client, 'emu-1', command)
    const items = () =>
      emu
        .device('emu-1')
        .screen.dump.nodes.filter((n) => n.resourceId.endsWith(':id/item_name'))
        .map((n) => n.text)
    await run('wm size 540x1200')
    const dump = await run('uiautomator dump /dev/tty')
    // ADD is [801,231][1038,357] on the 1080x2400 panel: half that under wm size 540x1200.
    expect(dump).to.match(/text="ADD"[^>]*bounds="\[401,116\]\[519,179\]"/)
    await run('input tap 200 147')
    await run("input text 'Zz'")
    await run('input tap 919 294')
    expect(items()).to.not.include('Zz')
    await run('input tap 460 147')
    expect(items()[0]).to.equal('Zz')
  })
})
