/**
 * `scroll` keeps its swipe off the on-screen keyboard and the system bars, and with element_id inside a scrollable
 * element: the gestures `arc emulate` records, on the demo (keyboard up), built screens and a real Gmail screen
 * with Gboard; and the refusals (not scrollable, stale, no room). Plain scroll reads the window manager only, and
 * the dump too only where the keyboard's frame does not say where its keys are. `scroll_to_element` swipes off the
 * keyboard and bars too.
 */
import {mkdir, mkdtemp, rm, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

import {buildScreenModel, DEMO_DIR, MemoryDeviceState, type DeviceState, type ScreenModel} from '@arc-cli/core'
import {tools as screenTools} from '@arc-cli/plugin-screen-state'
import {startEmulator, type Emulator} from '@arc-cli/emulator'
import {expect} from 'chai'

import {tools} from '../../src/tools/index.js'
import {coveringRects, freeArea} from '../../src/tools/covered-area.js'
import {connectAdbDriver} from '@arc-cli/core/testing'
import {displaysXml, dumpXml, type NodeSpec} from '@arc-cli/test-support/dump'
import {fixturePath, fixturesAvailable} from '@arc-cli/test-support/paths'
import {runArc} from '@arc-cli/test-support/run-arc'
import {toolContext} from '@arc-cli/test-support/tool-context'

const all = [...tools, ...screenTools]
const tool = (name: string) => all.find((t) => t.name === name)!

const KEYBOARD: NodeSpec = {
  pkg: 'com.google.android.inputmethod.latin',
  bounds: [0, 1500, 1080, 2280],
  children: [
    {
      cls: 'android.widget.Button',
      pkg: 'com.google.android.inputmethod.latin',
      text: 'g',
      attrs: {clickable: 'true'},
      bounds: [480, 1700, 580, 1830],
    },
  ],
}
const BARS: NodeSpec[] = [
  {
    pkg: 'com.android.systemui',
    bounds: [0, 2280, 1080, 2400],
    children: [
      {
        cls: 'android.widget.ImageView',
        pkg: 'com.android.systemui',
        desc: 'Back',
        attrs: {clickable: 'true'},
        bounds: [120, 2280, 360, 2400],
      },
    ],
  },
  {
    pkg: 'com.android.systemui',
    bounds: [0, 0, 1080, 80],
    children: [{cls: 'android.widget.TextView', pkg: 'com.android.systemui', text: '9:41', bounds: [40, 10, 160, 70]}],
  },
]
/** An app with a scrollable list from y 200 to 2000 (a row a quarter clear of the keyboard's keys, one behind them, a row past its end), or (listGone) a text where the list was. */
const app = (listGone = false): NodeSpec => ({
  pkg: 'com.example',
  bounds: [0, 0, 1080, 2400],
  children: [
    listGone
      ? {cls: 'android.widget.TextView', text: 'Nothing here', bounds: [0, 200, 1080, 400]}
      : {
          cls: 'androidx.recyclerview.widget.RecyclerView',
          res: 'com.example:id/list',
          attrs: {scrollable: 'true', focusable: 'true'},
          bounds: [0, 200, 1080, 2000],
          children: [
            {cls: 'android.widget.TextView', text: 'Row one', bounds: [40, 220, 1040, 400]},
            {
              cls: 'android.widget.TextView',
              text: 'Row under keys',
              attrs: {clickable: 'true'},
              bounds: [40, 1400, 1040, 1800],
            },
            {
              cls: 'android.widget.TextView',
              text: 'Row behind keys',
              attrs: {clickable: 'true'},
              bounds: [40, 1820, 1040, 1980],
            },
            {cls: 'android.widget.TextView', text: 'Row far', bounds: [40, 2050, 1040, 2250]},
          ],
        },
  ],
})
/** An app with two edit fields, neither focused: one a quarter clear of the keyboard's keys, one wholly behind them. */
const fields: NodeSpec = {
  pkg: 'com.example',
  bounds: [0, 0, 1080, 2400],
  children: [
    {
      cls: 'android.widget.EditText',
      res: 'com.example:id/under',
      text: 'under',
      attrs: {clickable: 'true', focusable: 'true'},
      bounds: [40, 1400, 1040, 1800],
    },
    {
      cls: 'android.widget.EditText',
      res: 'com.example:id/behind',
      text: 'behind',
      attrs: {clickable: 'true', focusable: 'true'},
      bounds: [40, 1820, 1040, 1980],
    },
  ],
}
/** An app whose list lies wholly under the keyboard (1500-2280). */
const buried: NodeSpec = {
  pkg: 'com.example',
  bounds: [0, 0, 1080, 2400],
  children: [
    {
      cls: 'android.widget.ListView',
      attrs: {scrollable: 'true'},
      bounds: [0, 1600, 1080, 2200],
      children: [{cls: 'android.widget.TextView', text: 'Deep row', bounds: [40, 2300, 1040, 2500]}],
    },
  ],
}
/**
 * A search field's suggestions dropdown (a window of its own, stacked over the app's, as AutoCompleteTextView's
 * ListPopupWindow is) from y 330 to 1300: "Open inbox" lies wholly under it, "Archive" half, "Settings" not at all.
 * The `<displays>` form the on-device helper and `uiautomator dump --windows` write, with each window's layer.
 */
const POPUP = displaysXml({
  0: [
    {
      type: 'TYPE_APPLICATION',
      title: 'Suggestions',
      layer: 2,
      bounds: [0, 330, 1080, 1300],
      tree: {
        cls: 'android.widget.ListView',
        pkg: 'com.example',
        bounds: [0, 330, 1080, 1300],
        children: [
          {
            cls: 'android.widget.TextView',
            pkg: 'com.example',
            res: 'android:id/text1',
            text: 'Report spam',
            attrs: {clickable: 'true'},
            bounds: [0, 1050, 1080, 1150],
          },
        ],
      },
    },
    {
      type: 'TYPE_APPLICATION',
      title: 'Example',
      layer: 1,
      focused: true,
      tree: {
        pkg: 'com.example',
        bounds: [0, 0, 1080, 2400],
        children: [
          {
            cls: 'android.widget.Button',
            pkg: 'com.example',
            text: 'Open inbox',
            attrs: {clickable: 'true'},
            bounds: [0, 1000, 1080, 1200],
          },
          {
            cls: 'android.widget.Button',
            pkg: 'com.example',
            text: 'Archive',
            attrs: {clickable: 'true'},
            bounds: [0, 1200, 1080, 1400],
          },
          {
            cls: 'android.widget.Button',
            pkg: 'com.example',
            text: 'Settings',
            attrs: {clickable: 'true'},
            bounds: [0, 1500, 1080, 1700],
          },
        ],
      },
    },
  ],
})
/** The window manager of an Android 7 device with the keyboard up: the input method's frame runs from the status bar down. */
const ANDROID7_WM = {
  windows: [
    {
      title: 'InputMethod',
      package: 'com.google.android.inputmethod.latin',
      type: 'INPUT_METHOD',
      z: 0,
      layer: 141000,
      displayId: 0,
      visible: true,
      frame: [0, 80, 1080, 2400],
    },
    {
      title: 'NavigationBar',
      package: 'com.android.systemui',
      type: 'NAVIGATION_BAR',
      z: 1,
      layer: 231000,
      displayId: 0,
      visible: true,
      frame: [0, 2280, 1080, 2400],
    },
    {
      title: 'StatusBar',
      package: 'com.android.systemui',
      type: 'STATUS_BAR',
      z: 2,
      layer: 171000,
      displayId: 0,
      visible: true,
      frame: [0, 0, 1080, 80],
    },
    {
      title: 'com.example/com.example.Main',
      package: 'com.example',
      type: 'BASE_APPLICATION',
      z: 3,
      layer: 21000,
      displayId: 0,
      visible: true,
      frame: [0, 0, 1080, 2400],
    },
  ],
  focus: 'com.example/com.example.Main',
}

type Swipe = {type: string; x1: number; y1: number; x2: number; y2: number; durationMs: number}
const swipe = (x1: number, y1: number, x2: number, y2: number): Swipe => ({
  type: 'swipe',
  x1,
  y1,
  x2,
  y2,
  durationMs: 300,
})
const inside = (x: number, y: number, [l, t, r, b]: readonly [number, number, number, number]) =>
  x >= l && x < r && y >= t && y < b

describe('scroll avoids the keyboard and bars, and scrolls inside an element (arc emulate)', function () {
  this.timeout(60_000)
  let dir: string
  let emu: Emulator
  let state: DeviceState
  const real: Record<string, string> = fixturesAvailable
    ? {gmail: fixturePath('xmlonly-gmail-compose-gboard-keyboard', 'window_dump.xml')}
    : {}

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'arc-scroll-'))
    await writeFile(path.join(dir, 'keyboard.xml'), dumpXml([KEYBOARD, ...BARS, app()]))
    await writeFile(path.join(dir, 'gone.xml'), dumpXml([KEYBOARD, ...BARS, app(true)]))
    await writeFile(path.join(dir, 'plain.xml'), dumpXml([...BARS, app()]))
    await writeFile(path.join(dir, 'buried.xml'), dumpXml([KEYBOARD, ...BARS, buried]))
    await writeFile(path.join(dir, 'fields.xml'), dumpXml([KEYBOARD, ...BARS, fields]))
    await writeFile(path.join(dir, 'popup.xml'), POPUP)
    await mkdir(path.join(dir, 'android7'))
    await writeFile(path.join(dir, 'android7', 'window_dump.xml'), dumpXml([KEYBOARD, ...BARS, app()]))
    const meta = {
      format: 'arc-snapshot/1',
      width: 1080,
      height: 2400,
      density: 420,
      rotation: 0,
      package: 'com.example',
      activity: '.Main',
      allWindows: true,
      windowManager: ANDROID7_WM,
    }
    await writeFile(path.join(dir, 'android7', 'meta.json'), JSON.stringify(meta))
    emu = await startEmulator({
      port: 0,
      devices: [],
      scenario: {
        devices: {
          'emu-1': {
            screens: {
              demo: DEMO_DIR,
              keyboard: path.join(dir, 'keyboard.xml'),
              gone: path.join(dir, 'gone.xml'),
              plain: path.join(dir, 'plain.xml'),
              buried: path.join(dir, 'buried.xml'),
              fields: path.join(dir, 'fields.xml'),
              popup: path.join(dir, 'popup.xml'),
              android7: path.join(dir, 'android7'),
              ...real,
            },
          },
        },
      },
    })
  })
  after(async () => {
    await emu?.close()
    await rm(dir, {recursive: true, force: true})
  })
  beforeEach(() => {
    state = new MemoryDeviceState()
  })

  const device = () => emu.device('emu-1')

  async function run(name: string, input: Record<string, unknown>) {
    const driver = await connectAdbDriver({port: emu.port, host: '127.0.0.1', timeoutMs: 10_000, env: {}})
    const from = device().inputEvents.length
    const fromCommand = emu.commands.length
    const sent = () => ({
      events: device().inputEvents.slice(from),
      argv: emu.commands.slice(fromCommand).map((c) => c.argv),
    })
    const ctx = toolContext(driver, {state})
    try {
      const result = await tool(name).handler(ctx, tool(name).input.parse(input))
      return {text: result.text, data: result.data as Record<string, unknown>, ...sent(), error: undefined}
    } catch (error) {
      return {text: '', data: {} as Record<string, unknown>, ...sent(), error: error as {code: string; message: string}}
    } finally {
      await driver.close()
    }
  }

  async function read(): Promise<ScreenModel> {
    expect((await run('get_screen_state', {})).error).to.equal(undefined)
    const driver = await connectAdbDriver({port: emu.port, host: '127.0.0.1', timeoutMs: 10_000, env: {}})
    try {
      return buildScreenModel(await driver.captureScreen())
    } finally {
      await driver.close()
    }
  }

  it('on the demo, scroll down swipes above the keyboard, never on the "g" key', async () => {
    device().showScreen('demo')
    const model = await read()
    const keyboard = model.windows.find((w) => w.type === 'INPUT_METHOD')!.root.bounds
    const g = model.elements.find((e) => e.text === 'g')!.bounds
    // Free: below the status bar (63), above the keyboard (1590); 50% of 2400 fits in it.
    const r = await run('scroll', {direction: 'down'})
    expect(r.text).to.equal('Scroll down (medium) executed')
    expect(r.events).to.deep.equal([swipe(540, 1426, 540, 226)])
    expect(r.data.area).to.deep.equal({left: 0, top: 63, right: 1080, bottom: 1590})
    for (const [x, y] of [
      [540, 1426],
      [540, 226],
    ] as const) {
      expect(inside(x, y, keyboard), `(${x}, ${y}) on the keyboard`).to.equal(false)
      expect(inside(x, y, g)).to.equal(false)
    }
    // 75% of 2400 does not fit in 1527 px: the swipe shortens to 90% of the free height.
    expect((await run('scroll', {direction: 'down', amount: 'large'})).events).to.deep.equal([
      swipe(540, 1513, 540, 139),
    ])
    expect((await run('scroll', {direction: 'left'})).events).to.deep.equal([swipe(270, 826, 810, 826)])
  })

  it('without a keyboard, only the bars are left out', async () => {
    device().showScreen('plain')
    expect((await run('scroll', {direction: 'down'})).events).to.deep.equal([swipe(540, 1780, 540, 580)])
    expect((await run('scroll', {direction: 'up', amount: 'small'})).events).to.deep.equal([swipe(540, 880, 540, 1480)])
  })

  it('plain scroll reads the window manager only (no uiautomator dump) when it reports the keyboard, and swipes where the dump would have', async () => {
    device().showScreen('keyboard')
    const model = await read()
    const [left, top, right, bottom] = freeArea([0, 0, 1080, 2400], coveringRects(model))
    const r = await run('scroll', {direction: 'down'})
    expect(r.argv).to.have.deep.members([
      ['dumpsys', 'window', '-a'],
      ['dumpsys', 'power'],
      ['input', 'swipe', '540', '1390', '540', '190', '300'],
    ])
    expect(r.data.area)
      .to.deep.equal({left, top, right, bottom})
      .and.deep.equal({left: 0, top: 80, right: 1080, bottom: 1500})
    expect(r.events).to.deep.equal([swipe(540, 1390, 540, 190)])
  })

  it("plain scroll dumps the screen too when the keyboard's frame is most of the screen (Android 7), and swipes above its keys", async () => {
    device().showScreen('android7')
    const r = await run('scroll', {direction: 'down'})
    // The window manager once, then the dump alone: the capture reuses the window manager's reading, not reads it again.
    expect(r.argv).to.deep.equal([
      ['dumpsys', 'window', '-a'],
      ['uiautomator', 'dump', '--windows', '/dev/tty'],
      ['dumpsys', 'power'],
      ['input', 'swipe', '540', '1390', '540', '190', '300'],
    ])
    // The keys start at 1500 (the dump), not at the frame's 80: the same swipe as on the screen above.
    expect(r.data.area).to.deep.equal({left: 0, top: 80, right: 1080, bottom: 1500})
  })

  it('scroll_to_element swipes inside the part of the list the keyboard leaves free, never on a key', async () => {
    device().showScreen('keyboard')
    const model = await read()
    const far = model.elements.find((e) => e.text === 'Row far')!.id
    const keyboard = model.windows.find((w) => w.type === 'INPUT_METHOD')!.root.bounds
    const r = await run('scroll_to_element', {element_id: far})
    // The screen never changes here: five swipes, then the refusal.
    expect(r.error).to.include({code: 'DEVICE_COMMAND_FAILED'})
    // The list is 200-2000 and the keyboard from 1500: 60% of the 1300 px left, centred at 850 (not at 1100, on the keys).
    expect(r.events).to.deep.equal(Array(5).fill({...swipe(540, 1240, 540, 460), durationMs: 400}))
    expect(inside(540, 1240, keyboard)).to.equal(false)
  })

  it('scroll_to_element counts a row behind the keyboard as not visible, and swipes it up toward the free part', async () => {
    device().showScreen('keyboard')
    const model = await read()
    const id = (text: string) => model.elements.find((e) => e.text === text)!.id
    // On screen inside the list, but the keys (from 1500) cover all of one and 75% of the other: not "already visible".
    for (const text of ['Row behind keys', 'Row under keys']) {
      const r = await run('scroll_to_element', {element_id: id(text)})
      expect(r.error, text).to.include({code: 'DEVICE_COMMAND_FAILED'})
      expect(r.events[0]).to.deep.equal({...swipe(540, 1240, 540, 460), durationMs: 400})
    }
    const one = await run('scroll_to_element', {element_id: id('Row one')})
    expect(one.text).to.equal(`Element '${id('Row one')}' is already visible`)
    expect(one.events).to.deep.equal([])
  })

  it('click_element taps the part of a row the keyboard leaves free, and refuses a row wholly behind it', async () => {
    device().showScreen('keyboard')
    const model = await read()
    const id = (text: string) => model.elements.find((e) => e.text === text)!.id
    // 1400-1800 with the keys from 1500: the centre of 1400-1500, not (540, 1600) on the keyboard.
    const under = await run('click_element', {element_id: id('Row under keys')})
    expect(under.events).to.deep.equal([{type: 'tap', x: 540, y: 1450}])
    const behind = await run('click_element', {element_id: id('Row behind keys')})
    expect(behind.error).to.include({code: 'INVALID_INPUT'})
    expect(behind.error!.message).to.equal(
      `element ${id('Row behind keys')} is behind the keyboard [0,1500][1080,2280]: a tap there would land on it, not on the element`
    )
    expect(behind.events).to.deep.equal([])
  })

  it("click_element never taps through another window: a button under an app's dropdown is refused, one half under it is tapped in its free part", async () => {
    device().showScreen('popup')
    const model = await read()
    const id = (text: string) => model.elements.find((e) => e.text === text)!.id
    // (540, 1100), the centre of "Open inbox", is the dropdown's "Report spam": the phone gives the touch to the window on top.
    const under = await run('click_element', {element_id: id('Open inbox')})
    expect(under.error).to.include({code: 'INVALID_INPUT'})
    expect(under.error!.message).to.equal(
      `element ${id('Open inbox')} is behind "Suggestions" (com.example) [0,330][1080,1300]: a tap there would land on it, not on the element`
    )
    expect(under.events).to.deep.equal([])
    // 1200-1400 with the dropdown down to 1300: the centre of 1300-1400.
    expect((await run('click_element', {element_id: id('Archive')})).events).to.deep.equal([
      {type: 'tap', x: 540, y: 1350},
    ])
    expect((await run('click_element', {element_id: id('Settings')})).events).to.deep.equal([
      {type: 'tap', x: 540, y: 1600},
    ])
    // Compact screen-state offers the same points: none for the covered button.
    const compact = (await run('get_screen_state', {detail: 'compact'})).text.split('\n')
    const row = (text: string) => compact.find((line) => line.includes(`"${text}"`))
    expect(row('Open inbox')).to.match(/ covered$/)
    expect(row('Archive')).to.include('@540,1350')
    expect(row('Report spam')).to.include('@540,1100')
  })

  it('the typing tools focus a field where click_element would tap it, and refuse one wholly behind the keyboard as click does, sending nothing', async () => {
    device().showScreen('fields')
    const model = await read()
    const id = (res: string) => model.elements.find((e) => e.resId === `com.example:id/${res}`)!.id
    const behind = id('behind')
    const click = await run('click_element', {element_id: behind})
    expect(click.error).to.include({code: 'INVALID_INPUT'})
    for (const [name, input] of [
      ['type_append_text', {element_id: behind, text: 'hello'}],
      ['type_insert_text', {element_id: behind, text: 'hello', offset: 0}],
      ['type_replace_text', {element_id: behind, search: 'behind', new_text: 'hello'}],
      ['type_clear_text', {element_id: behind}],
    ] as const) {
      const typed = await run(name, input)
      expect(typed.error, name).to.include({code: 'INVALID_INPUT'})
      expect(typed.error!.message, name).to.equal(click.error!.message)
      expect(typed.events, name).to.deep.equal([])
      expect(
        typed.argv.filter((a) => a[0] === 'input'),
        name
      ).to.deep.equal([])
    }
    // 1400-1800 with the keys from 1500: the focus tap goes to the centre of 1400-1500, as a click's would.
    const under = id('under')
    const clicked = await run('click_element', {element_id: under})
    device().showScreen('plain')
    device().showScreen('fields')
    const typed = await run('type_append_text', {element_id: under, text: 'X', typing_speed: 10})
    expect(typed.error).to.equal(undefined)
    expect(typed.events[0]).to.deep.equal(clicked.events[0]).and.deep.equal({type: 'tap', x: 540, y: 1450})
  })

  it('scroll_to_element refuses a list the keyboard covers whole, sending nothing', async () => {
    device().showScreen('buried')
    const model = await read()
    const deep = model.elements.find((e) => e.text === 'Deep row')!.id
    const r = await run('scroll_to_element', {element_id: deep})
    expect(r.error).to.include({code: 'DEVICE_COMMAND_FAILED'})
    // It names what covers the list, with its bounds (details.covered_by), as a refused click does.
    expect(r.error!.message).to.equal(
      `no room to scroll toward element ${deep}: the keyboard [0,1500][1080,2280] leaves 0 px of its scrollable container free`
    )
    expect(r.events).to.deep.equal([])
  })

  it('element_id scrolls inside the element, less the keyboard over it', async () => {
    device().showScreen('keyboard')
    const model = await read()
    const list = model.elements.find((e) => e.resId === 'com.example:id/list')!.id
    const r = await run('scroll', {direction: 'down', element_id: list})
    expect(r.text).to.equal(`Scroll down (medium) executed inside element '${list}'`)
    // The list is 200-2000, the keyboard from 1500: 50% of the 1300 px left, centred at 850.
    expect(r.events).to.deep.equal([swipe(540, 1175, 540, 525)])
    expect(r.data).to.deep.include({element_id: list, area: {left: 0, top: 200, right: 1080, bottom: 1500}})
    expect((await run('scroll', {direction: 'right', amount: 'large', element_id: list})).events).to.deep.equal([
      swipe(945, 850, 135, 850),
    ])
  })

  it('refuses an element that is not scrollable, a stale id and an unknown one, sending nothing', async () => {
    device().showScreen('keyboard')
    const model = await read()
    const row = model.elements.find((e) => e.text === 'Row one')!.id
    const list = model.elements.find((e) => e.resId === 'com.example:id/list')!.id
    const flat = await run('scroll', {direction: 'down', element_id: row})
    expect(flat.error).to.include({code: 'INVALID_INPUT'})
    expect(flat.error!.message).to.include(`element ${row} (TextView) is not scrollable`)
    device().showScreen('gone')
    const stale = await run('scroll', {direction: 'down', element_id: list})
    expect(stale.error).to.include({code: 'STALE_ELEMENT'})
    expect(stale.error!.message).to.include(`element ${list} is stale`)
    expect((await run('scroll', {direction: 'down', element_id: 'node_zzzzzz'})).error).to.include({
      code: 'ELEMENT_NOT_FOUND',
    })
    expect(flat.events.concat(stale.events)).to.deep.equal([])
  })

  it('from the CLI: exit 2 for a non-scrollable element, 18 for a stale id, --json names the area', async () => {
    const env = {ADB_SERVER_SOCKET: `tcp:127.0.0.1:${emu.port}`, ARC_CACHE_DIR: path.join(dir, 'cache')}
    const arc = (...args: string[]) => runArc(args, {env})
    device().showScreen('keyboard')
    const shown = await arc('screen-state')
    const idOf = (column: number, value: string) =>
      shown.stdout
        .split('\n')
        .find((l) => l.split('\t')[column] === value)!
        .split('\t')[0] as string
    const list = idOf(4, 'com.example:id/list')
    const ok = await arc('scroll', 'down', '--element-id', list, '--json')
    expect(ok.code, ok.stderr).to.equal(0)
    expect(JSON.parse(ok.stdout)).to.deep.equal({
      direction: 'down',
      amount: 'medium',
      element_id: list,
      from: {x: 540, y: 1175},
      to: {x: 540, y: 525},
      area: {left: 0, top: 200, right: 1080, bottom: 1500},
    })
    const flat = await arc('scroll', 'down', '--element-id', idOf(2, 'Row one'))
    expect(flat.code).to.equal(2)
    expect(flat.stderr).to.include('[INVALID_INPUT]').and.include('is not scrollable')
    device().showScreen('gone')
    const from = device().inputEvents.length
    const stale = await arc('scroll', 'down', '--element-id', list)
    expect(stale.code).to.equal(18)
    expect(stale.stderr).to.include('[STALE_ELEMENT]')
    expect(device().inputEvents.slice(from)).to.deep.equal([])
  })

  it('on a real Gmail screen with Gboard up, the swipe stays between the status bar and the keyboard', async function () {
    if (!fixturesAvailable) this.skip()
    device().showScreen('gmail')
    const model = await read()
    const keyboard = model.windows.find((w) => w.type === 'INPUT_METHOD')!.root.bounds
    expect(keyboard).to.deep.equal([0, 1558, 1080, 2220])
    const r = await run('scroll', {direction: 'down'})
    // Free: 76 (status bar) to 1558 (keyboard); 50% of the 2340 px screen fits, centred at 817.
    expect(r.data.area).to.deep.equal({left: 0, top: 76, right: 1080, bottom: 1558})
    expect(r.events).to.deep.equal([swipe(540, 1402, 540, 232)])
    // Its ScrollView is not flagged scrollable in the dump: refused, not guessed.
    const scrollView = model.elements.find((e) => e.className === 'ScrollView')!.id
    expect((await run('scroll', {direction: 'down', element_id: scrollView})).error).to.include({code: 'INVALID_INPUT'})
  })
})
