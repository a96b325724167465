import {getEventListeners} from 'node:events'
import {mkdtemp, rm, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

import {buildScreenModel, DEMO_DIR, MemoryDeviceState, type DeviceState, type ScreenModel} from '@arc-cli/core'
import {tools as screenTools} from '@arc-cli/plugin-screen-state'
import {expect} from 'chai'

import {tools} from '../../src/tools/index.js'
import {startEmulator, type Emulator} from '@arc-cli/emulator'

import {type AdbDriver, connectAdbDriver, queueState} from '@arc-cli/core/testing'
import {dumpXml, type NodeSpec} from '@arc-cli/test-support/dump'
import {runArc} from '@arc-cli/test-support/run-arc'
import {afterDumps} from '@arc-cli/test-support/emulator-support'
import {toolContext} from '@arc-cli/test-support/tool-context'

const all = [...tools, ...screenTools]
const tool = (name: string) => all.find((t) => t.name === name)!

const row = (name: string, top: number): NodeSpec => ({
  cls: 'android.widget.LinearLayout',
  res: 'com.example:id/row',
  attrs: {clickable: 'true'},
  bounds: [0, top, 1080, top + 200],
  children: [
    {cls: 'android.widget.TextView', res: 'com.example:id/title', text: name, bounds: [40, top + 20, 1040, top + 180]},
  ],
})

/** Screen "follow": a Follow button (anchored by its unique resource-id), a clipped list, a field that shouts. */
const follow = (label: string): NodeSpec[] => [
  {
    pkg: 'com.example',
    bounds: [0, 0, 1080, 2400],
    children: [
      {
        cls: 'android.widget.Button',
        res: 'com.example:id/follow',
        text: label,
        attrs: {clickable: 'true'},
        bounds: [100, 100, 500, 200],
      },
      {
        cls: 'androidx.recyclerview.widget.RecyclerView',
        res: 'com.example:id/list',
        bounds: [0, 400, 1080, 1000],
        children: [row('Half hidden', 300), row('Second', 500), row('Third', 700)],
      },
      {
        cls: 'android.widget.EditText',
        res: 'com.example:id/shout',
        text: '',
        attrs: {clickable: 'true', focusable: 'true', hint: 'Shout'},
        bounds: [0, 1100, 1080, 1200],
      },
      {
        cls: 'android.widget.EditText',
        res: 'com.example:id/refuse',
        text: '',
        attrs: {clickable: 'true', focusable: 'true', hint: 'Refuses'},
        bounds: [0, 1300, 1080, 1400],
      },
      {
        cls: 'android.widget.EditText',
        res: 'com.example:id/locked',
        text: 'keep',
        attrs: {clickable: 'true', focusable: 'true', hint: 'Locked'},
        bounds: [0, 1700, 1080, 1800],
      },
      {cls: 'android.widget.Button', text: 'Same', attrs: {clickable: 'true'}, bounds: [0, 1500, 500, 1600]},
      {cls: 'android.widget.Button', text: 'Same', attrs: {clickable: 'true'}, bounds: [500, 1500, 1080, 1600]},
    ],
  },
]

/**
 * Screen "mail": a list of two mails, each with a delete button that has no words of its own. `first` is the first
 * mail's subject; the two subjects tried share their first 40 characters, which is all of a row's label its
 * children's ids keep.
 */
const mail = (first: string): NodeSpec[] => [
  {
    pkg: 'com.example.mail',
    bounds: [0, 0, 1080, 2400],
    children: [
      {
        cls: 'androidx.recyclerview.widget.RecyclerView',
        res: 'com.example.mail:id/list',
        attrs: {scrollable: 'true'},
        bounds: [0, 200, 1080, 2200],
        children: [first, 'Weekly digest'].map((subject, i): NodeSpec => ({
          cls: 'android.widget.LinearLayout',
          bounds: [0, 200 + i * 200, 1080, 400 + i * 200],
          children: [
            {
              cls: 'android.widget.TextView',
              res: 'com.example.mail:id/subject',
              text: subject,
              bounds: [40, 220 + i * 200, 900, 380 + i * 200],
            },
            {
              cls: 'android.widget.ImageButton',
              res: 'com.example.mail:id/delete',
              desc: 'Delete',
              attrs: {clickable: 'true'},
              bounds: [920, 240 + i * 200, 1040, 360 + i * 200],
            },
          ],
        })),
      },
    ],
  },
]
const SHIPPED = 'Your order of Echo Dot (4th generation) has shipped'
const DELIVERED = 'Your order of Echo Dot (4th generation) has been delivered'

/**
 * Screen "long": a scrollable list whose last row is laid out past the screen's bottom, off screen by its bounds (the
 * dump says nothing of visibility). The demo has no such row: no phone's uiautomator dump holds a node not visible
 * to the user (packages/emulator/src/demo-app/demo-xml.ts).
 */
const long: NodeSpec[] = [
  {
    pkg: 'com.example',
    bounds: [0, 0, 1080, 2400],
    children: [
      {
        cls: 'androidx.recyclerview.widget.RecyclerView',
        res: 'com.example:id/list',
        attrs: {scrollable: 'true'},
        bounds: [0, 400, 1080, 2000],
        children: [row('First', 400), row('Far below', 2500)],
      },
    ],
  },
]

describe('element, typing and wait tools against arc emulate', function () {
  this.timeout(60_000)
  let dir: string
  const h = {} as {emu: Emulator; driver(): Promise<AdbDriver>; argvSince(from: number): string[][]}

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'arc-elements-'))
    await writeFile(path.join(dir, 'follow.xml'), dumpXml(follow('Follow')))
    await writeFile(path.join(dir, 'following.xml'), dumpXml(follow('Following')))
    await writeFile(path.join(dir, 'shipped.xml'), dumpXml(mail(SHIPPED)))
    await writeFile(path.join(dir, 'delivered.xml'), dumpXml(mail(DELIVERED)))
    await writeFile(path.join(dir, 'long.xml'), dumpXml(long))
    h.emu = await startEmulator({
      port: 0,
      devices: [],
      scenario: {
        devices: {
          'emu-1': {
            screens: {
              demo: DEMO_DIR,
              follow: path.join(dir, 'follow.xml'),
              following: path.join(dir, 'following.xml'),
              shipped: path.join(dir, 'shipped.xml'),
              delivered: path.join(dir, 'delivered.xml'),
              long: path.join(dir, 'long.xml'),
            },
            // The screen a tap leads to shows at once: these tests check ids and targets, not reads during a transition.
            timing: {transitionMs: 0},
            transitions: [{from: 'follow', tap: {text: 'Third'}, to: 'demo'}],
            fields: [
              {resourceId: 'com.example:id/shout', transform: 'upper'},
              {resourceId: 'com.example:id/refuse', refuse: true},
              {resourceId: 'com.example:id/locked', refuse: true},
            ],
          },
        },
      },
    })
    h.driver = () => connectAdbDriver({port: h.emu.port, host: '127.0.0.1', timeoutMs: 10_000, env: {}})
    h.argvSince = (from: number) => h.emu.commands.slice(from).map((c) => c.argv)
  })
  after(async () => {
    await h.emu?.close()
    await rm(dir, {recursive: true, force: true})
  })

  const device = () => h.emu.device('emu-1')
  let state: DeviceState
  beforeEach(() => {
    state = new MemoryDeviceState()
    device().showScreen('demo')
  })

  /**
   * Runs a tool handler on a live driver with this test's device state; returns its result, the argv sent and the
   * device shells still running when the handler returned. `driverTimeoutMs` is the driver's own limit per command.
   */
  async function run(name: string, input: Record<string, unknown>, signal?: AbortSignal, driverTimeoutMs?: number) {
    const driver =
      driverTimeoutMs === undefined
        ? await h.driver()
        : await connectAdbDriver({port: h.emu.port, host: '127.0.0.1', timeoutMs: driverTimeoutMs, env: {}})
    const from = h.emu.commands.length
    const ctx = toolContext(driver, {state, signal})
    try {
      const result = await tool(name).handler(ctx, tool(name).input.parse(input))
      return {
        text: result.text,
        data: result.data as Record<string, unknown>,
        argv: h.argvSince(from),
        error: undefined,
        shellsAtEnd: h.emu.runningShells().length,
      }
    } catch (error) {
      return {
        text: '',
        data: {} as Record<string, unknown>,
        argv: h.argvSince(from),
        error: error as {code: string; message: string},
        shellsAtEnd: h.emu.runningShells().length,
      }
    } finally {
      await driver.close()
    }
  }
  const inputs = (argv: string[][]) => argv.filter((a) => a[0] === 'input')
  /** The screen reads among the argv sent: one uiautomator dump each. */
  const dumps = (argv: string[][]) => argv.filter((a) => a[0] === 'uiautomator').length

  async function read(): Promise<ScreenModel> {
    const r = await run('get_screen_state', {})
    expect(r.error).to.equal(undefined)
    const driver = await h.driver()
    try {
      return buildScreenModel(await driver.captureScreen())
    } finally {
      await driver.close()
    }
  }
  const idOf = (m: ScreenModel, text: string) => m.elements.find((e) => e.text === text || e.desc === text)!.id

  describe('find_elements', () => {
    it('finds by contains (case-insensitive) and exact, with the spec JSON, and sends no input', async () => {
      const r = await run('find_elements', {by: 'text', value: 'MILK'})
      expect(inputs(r.argv)).to.deep.equal([])
      const elements = r.data.elements as Array<Record<string, unknown>>
      expect(elements.map((e) => e.text)).to.deep.equal(['Oat milk'])
      expect(elements[0]).to.include({
        contentDescription: null,
        resourceId: 'dev.arc.demo.groceries:id/item_name',
        className: 'android.widget.TextView',
        clickable: false,
        editable: false,
        enabled: true,
      })
      expect(elements[0]!.bounds).to.deep.equal({left: 147, top: 423, right: 760, bottom: 483})
      expect(JSON.parse(r.text)).to.deep.equal(r.data)
      expect(
        ((await run('find_elements', {by: 'text', value: 'oat', exact_match: true})).data.elements as unknown[]).length
      ).to.equal(0)
      expect(
        (
          (await run('find_elements', {by: 'class_name', value: 'EditText', exact_match: true})).data
            .elements as unknown[]
        ).length
      ).to.equal(1)
    })

    it('gives each element its checked, selected, focused and on-screen states, as one line of JSON', async () => {
      const boxes = await run('find_elements', {by: 'class_name', value: 'CheckBox'})
      expect(boxes.text).to.equal(JSON.stringify(boxes.data))
      const checked = (boxes.data.elements as Array<Record<string, unknown>>).map((e) => e.checked)
      expect(checked).to.include(true).and.include(false)
      const [field] = (await run('find_elements', {by: 'class_name', value: 'EditText'})).data.elements as Array<
        Record<string, unknown>
      >
      expect(field).to.include({checked: null, selected: false, focused: true, onScreen: true})
      device().showScreen('long')
      const [hidden] = (await run('find_elements', {by: 'text', value: 'Far below'})).data.elements as Array<
        Record<string, unknown>
      >
      expect(hidden).to.include({onScreen: false, focused: false})
    })

    it('refuses an empty value and an unknown criterion', () => {
      expect(tool('find_elements').input.safeParse({by: 'text', value: ''}).success).to.equal(false)
      expect(tool('find_elements').input.safeParse({by: 'xpath', value: 'x'}).success).to.equal(false)
    })
  })

  describe('click_element and long_click_element', () => {
    it('tap the centre of the element, through a clickable ancestor for a label', async () => {
      const m = await read()
      const add = idOf(m, 'ADD')
      let r = await run('click_element', {element_id: add})
      expect(r.text).to.equal(`Click performed on element '${add}'`)
      expect(inputs(r.argv)).to.deep.equal([['input', 'tap', '919', '294']])
      r = await run('click_element', {element_id: idOf(m, 'Oat milk')})
      expect(inputs(r.argv)).to.deep.equal([['input', 'tap', '453', '453']])
      r = await run('long_click_element', {element_id: add})
      expect(r.error).to.have.property('code', 'INVALID_INPUT')
      expect(inputs(r.argv)).to.deep.equal([])
      const rowId = m.elements.find((e) => e.resId.endsWith('item_row'))!.id
      r = await run('long_click_element', {element_id: rowId})
      expect(r.text).to.equal(`Long-click performed on element '${rowId}'`)
      expect(inputs(r.argv)).to.deep.equal([['input', 'swipe', '540', '472', '540', '472', '1000']])
    })

    it('tap the centre of the visible part of a clipped element', async () => {
      device().showScreen('follow')
      const m = await read()
      const r = await run('click_element', {element_id: idOf(m, 'Half hidden')})
      // Title 40,320-1040,480, clipped by the list's top edge at 400: visible 400-480.
      expect(inputs(r.argv)).to.deep.equal([['input', 'tap', '540', '440']])
    })

    it('fail with STALE_ELEMENT, touching nothing, when the screen changed under a shown id', async () => {
      const m = await read()
      const add = idOf(m, 'ADD')
      device().showScreen('follow')
      const r = await run('click_element', {element_id: add})
      expect(r.error).to.have.property('code', 'STALE_ELEMENT')
      expect(r.error!.message).to.include('screen changed')
      expect(inputs(r.argv)).to.deep.equal([])
    })

    it('fail with STALE_ELEMENT when the id now names something else (an anchored button whose text changed)', async () => {
      device().showScreen('follow')
      const m = await read()
      const button = idOf(m, 'Follow')
      device().showScreen('following')
      const r = await run('click_element', {element_id: button})
      expect(r.error).to.have.property('code', 'STALE_ELEMENT')
      expect(r.error!.message).to.include('"Follow" → "Following"')
      expect(inputs(r.argv)).to.deep.equal([])
    })

    it("fail with STALE_ELEMENT when the id's row is now another one, whose long label differs only past what the id keeps", async () => {
      device().showScreen('shipped')
      const m = await read()
      const rowOf = (e: ScreenModel['elements'][number]) => e.node.parent!.children[0]!.text
      const shipped = m.elements.find((e) => e.desc === 'Delete' && rowOf(e) === SHIPPED)!
      // The other mail arrived in its place (the first one was archived elsewhere): its delete button has that id.
      device().showScreen('delivered')
      const driver = await h.driver()
      const now = buildScreenModel(await driver.captureScreen()) // a look, not a read: it records nothing
      await driver.close()
      const delivered = now.elements.find((e) => e.desc === 'Delete' && rowOf(e) === DELIVERED)!
      expect(delivered.id).to.equal(shipped.id)
      const r = await run('click_element', {element_id: shipped.id})
      expect(r.error).to.have.property('code', 'STALE_ELEMENT')
      expect(r.error!.message).to.include('the list item it is in')
      expect(inputs(r.argv)).to.deep.equal([])
      // Read again, the id names the delivered mail's button, and acts on it.
      await read()
      expect(inputs((await run('click_element', {element_id: shipped.id})).argv)).to.deep.equal([
        ['input', 'tap', '980', '300'],
      ])
    })

    it('take the ids compact screen-state prints (without node_) as the same elements', async () => {
      const compact = await run('get_screen_state', {detail: 'compact'})
      const bare = (label: string) =>
        compact.text
          .split('\n')
          .find((l) => l.includes(`"${label}"`))!
          .split(' ')[0] as string
      const m = await read()
      expect(`node_${bare('ADD')}`).to.equal(idOf(m, 'ADD'))
      let r = await run('click_element', {element_id: bare('ADD')})
      expect(r.text).to.equal(`Click performed on element '${idOf(m, 'ADD')}'`)
      expect(inputs(r.argv)).to.deep.equal([['input', 'tap', '919', '294']])
      // "Oat milk" is written on its row's line (the tap target that holds it): details of that row, in full.
      const row = m.byId.get(`node_${bare('Oat milk')}`)!
      r = await run('get_element_details', {ids: [bare('Oat milk')]})
      expect(r.text).to.equal(`id\ttext\tdesc\n${row.id}\t${row.text || '-'}\t${row.desc || '-'}`)
      // Only the id alphabet's 6 characters gain the prefix: anything else is still refused as malformed.
      r = await run('click_element', {element_id: 'oatmilk'})
      expect(r.error).to.have.property('code', 'INVALID_INPUT')
      expect(inputs(r.argv)).to.deep.equal([])
    })

    it("refuse unknown and malformed ids; a look-alike's ordinal id acts while its group is as it was read", async () => {
      expect((await run('click_element', {element_id: 'node_222222'})).error).to.have.property(
        'code',
        'ELEMENT_NOT_FOUND'
      )
      expect((await run('click_element', {element_id: 'node_1234'})).error).to.have.property('code', 'INVALID_INPUT')
      device().showScreen('follow')
      const m = await read()
      const same = m.elements.filter((e) => e.text === 'Same').map((e) => e.id)
      expect(same[0]).to.match(/-1$/)
      expect(same[1]).to.match(/-2$/)
      // The second "Same" button (500-1080 x 1500-1600): its centre, not the first one's.
      const r = await run('click_element', {element_id: same[1]})
      expect(r.error).to.equal(undefined)
      expect(inputs(r.argv)).to.deep.equal([['input', 'tap', '790', '1550']])
    })

    it('a tap can switch screens (scenario transition), after which the old ids are stale', async () => {
      device().showScreen('follow')
      const m = await read()
      await run('click_element', {element_id: idOf(m, 'Third')})
      expect(device().screenName).to.equal('demo')
      expect((await run('click_element', {element_id: idOf(m, 'Second')})).error).to.have.property(
        'code',
        'STALE_ELEMENT'
      )
    })
  })

  describe('scroll_to_element', () => {
    it('says "already visible" for a visible element and sends nothing', async () => {
      const m = await read()
      const r = await run('scroll_to_element', {element_id: idOf(m, 'Oat milk')})
      expect(r.text).to.equal(`Element '${idOf(m, 'Oat milk')}' is already visible`)
      expect(inputs(r.argv)).to.deep.equal([])
    })

    it('swipes the scrollable container toward a hidden element at most 5 times, then fails', async () => {
      device().showScreen('long')
      const m = await read()
      const r = await run('scroll_to_element', {element_id: idOf(m, 'Far below')})
      expect(r.error).to.have.property('code', 'DEVICE_COMMAND_FAILED')
      expect(r.error!.message).to.include('after 5 scrolls')
      // Up through the list (400-2000: no bar or keyboard over it), from 30% of its height below its middle to 30% above.
      expect(inputs(r.argv)).to.deep.equal(Array(5).fill(['input', 'swipe', '540', '1680', '540', '720', '400']))
    })
  })

  describe('get_element_details', () => {
    it('prints full text and desc as TSV, with not_found rows', async () => {
      const m = await read()
      const r = await run('get_element_details', {
        ids: [idOf(m, 'Oat milk'), idOf(m, 'Delete Oat milk'), 'node_222222'],
      })
      expect(r.text).to.equal(
        `id\ttext\tdesc\n${idOf(m, 'Oat milk')}\tOat milk\t-\n${idOf(m, 'Delete Oat milk')}\t-\tDelete Oat milk\nnode_222222\tnot_found\tnot_found`
      )
    })
  })

  describe('typing', () => {
    const field = async () => {
      const m = await read()
      return m.elements.find((e) => e.resId.endsWith('new_item'))!.id
    }
    const fast = {typing_speed: 10, typing_speed_variance: 0}

    it('append, insert, replace and clear: exact device commands and the field read back', async () => {
      const id = await field()
      let r = await run('type_append_text', {element_id: id, text: 'Hello World', ...fast})
      // The field showed its hint, which this device's dump does not mark: the result says it took it for one.
      expect(r.text).to.equal(
        `Typed 11 characters at end of element '${id}'.\nField content: Hello World\nIts earlier text "Add an item" was taken as the hint of an empty field: this device's dump does not say which it was.`
      )
      // The end of the whole text, not of the visual line the tap left the cursor on (MOVE_END's): ALT+DPAD_DOWN.
      expect(inputs(r.argv)).to.deep.equal([
        ['input', 'keycombination', 'KEYCODE_ALT_LEFT', 'KEYCODE_DPAD_DOWN'],
        ['input', 'text', 'Hello%sWorld'],
      ])
      // Its text may be only its hint (no hint attribute on Android 14), and a DPAD_RIGHT past an empty field's end would
      // move the focus out of it: one probe character at the end, deleted again, tells before any cursor key.
      const settle = [
        ['input', 'keycombination', 'KEYCODE_ALT_LEFT', 'KEYCODE_DPAD_DOWN'],
        ['input', 'text', '0'],
        ['input', 'keyevent', 'KEYCODE_DEL'],
      ]
      r = await run('type_insert_text', {element_id: id, text: ',', offset: 5, ...fast})
      expect(r.text).to.equal(`Typed 1 characters at offset 5 in element '${id}'.\nField content: Hello, World`)
      expect(inputs(r.argv)).to.deep.equal([
        ...settle,
        ['input', 'keycombination', 'KEYCODE_ALT_LEFT', 'KEYCODE_DPAD_UP'],
        ['input', 'keyevent', ...Array(5).fill('KEYCODE_DPAD_RIGHT')],
        ['input', 'text', ','],
      ])
      r = await run('type_insert_text', {element_id: id, text: '!', offset: 12, ...fast})
      expect(inputs(r.argv)[0]).to.deep.equal(['input', 'keycombination', 'KEYCODE_ALT_LEFT', 'KEYCODE_DPAD_DOWN'])
      r = await run('type_replace_text', {element_id: id, search: 'World', new_text: 'Android', ...fast})
      expect(r.text).to.equal(
        `Replaced 5 characters with 7 characters in element '${id}'.\nField content: Hello, Android!`
      )
      expect(inputs(r.argv)).to.deep.equal([
        ...settle,
        ['input', 'keycombination', 'KEYCODE_ALT_LEFT', 'KEYCODE_DPAD_DOWN'],
        ['input', 'keyevent', 'KEYCODE_DPAD_LEFT', ...Array(5).fill('KEYCODE_DEL')],
        ['input', 'text', 'Android'],
      ])
      r = await run('type_replace_text', {element_id: id, search: ', ', new_text: '', ...fast})
      expect(r.text).to.equal(
        `Replaced 2 characters with 0 characters in element '${id}'.\nField content: HelloAndroid!`
      )
      r = await run('type_replace_text', {element_id: id, search: 'nowhere', new_text: 'x', ...fast})
      expect(r.error).to.have.property('code', 'ELEMENT_NOT_FOUND')
      r = await run('type_insert_text', {element_id: id, text: 'x', offset: 99, ...fast})
      expect(r.error).to.have.property('code', 'INVALID_INPUT')
      expect(inputs(r.argv)).to.deep.equal([])
      // Emptied, the field shows its hint, which an Android 14 dump does not mark: one probe character tells.
      const probe = [
        ['input', 'text', '0'],
        ['input', 'keyevent', 'KEYCODE_DEL'],
      ]
      r = await run('type_clear_text', {element_id: id})
      expect(r.text).to.equal(`Text cleared from element '${id}'.\nField content: `)
      expect(inputs(r.argv)).to.deep.equal([
        ['input', 'keyevent', ...Array(13).fill('KEYCODE_DEL'), ...Array(13).fill('KEYCODE_FORWARD_DEL')],
        ...probe,
      ])
      r = await run('type_clear_text', {element_id: id})
      expect(r.text).to.equal(`Text cleared from element '${id}'.\nField content: `)
      expect(inputs(r.argv)).to.deep.equal([
        ['input', 'keyevent', ...Array(11).fill('KEYCODE_DEL'), ...Array(11).fill('KEYCODE_FORWARD_DEL')],
        ...probe,
      ])
    })

    it('type into an empty field that shows its hint as text, as dumps before Android 16 do (no hint attribute)', async () => {
      const m = await read()
      const node = m.elements.find((e) => e.resId.endsWith('new_item'))!
      expect(node.text).to.equal('Add an item')
      expect(node.node.hint).to.equal(undefined)
      let r = await run('type_append_text', {element_id: node.id, text: 'milk', ...fast})
      expect(r.error).to.equal(undefined)
      // It says what it took the earlier text for: an app that replaced real text looks the same in such a dump.
      const taken = `\nIts earlier text "Add an item" was taken as the hint of an empty field: this device's dump does not say which it was.`
      expect(r.text).to.equal(`Typed 4 characters at end of element '${node.id}'.\nField content: milk${taken}`)
      expect(r.data).to.include({content: 'milk', earlier_text_taken_as_hint: 'Add an item'})
      r = await run('type_clear_text', {element_id: node.id})
      expect(r.error).to.equal(undefined)
      r = await run('type_insert_text', {element_id: node.id, text: 'eggs', offset: 0, ...fast})
      expect(r.text).to.equal(`Typed 4 characters at offset 0 in element '${node.id}'.\nField content: eggs${taken}`)
      await run('type_clear_text', {element_id: node.id})
    })

    it('replace the whole text with nothing where the emptied field then shows its hint (no hint attribute): a probe tells, not a failure', async () => {
      const id = await field()
      let r = await run('type_append_text', {element_id: id, text: 'milk', ...fast})
      expect(r.error).to.equal(undefined)
      r = await run('type_replace_text', {element_id: id, search: 'milk', new_text: '', ...fast})
      expect(r.error).to.equal(undefined)
      expect(r.text).to.equal(`Replaced 4 characters with 0 characters in element '${id}'.\nField content: `)
      expect(r.data).to.include({content: ''})
      // "milk" may be the hint of an empty field: the probe tells first, then the deletes, then the check's probe.
      expect(inputs(r.argv)).to.deep.equal([
        ['input', 'keycombination', 'KEYCODE_ALT_LEFT', 'KEYCODE_DPAD_DOWN'],
        ['input', 'text', '0'],
        ['input', 'keyevent', 'KEYCODE_DEL'],
        ['input', 'keycombination', 'KEYCODE_ALT_LEFT', 'KEYCODE_DPAD_DOWN'],
        ['input', 'keyevent', ...Array(4).fill('KEYCODE_DEL')],
        ['input', 'text', '0'],
        ['input', 'keyevent', 'KEYCODE_DEL'],
      ])
      expect((await read()).byId.get(id)!.text).to.equal('Add an item')
    })

    it('on Android 16, whose dumps carry the hint, type and clear without a probe', async () => {
      device().properties.set('ro.build.version.sdk', '36')
      try {
        const id = await field()
        expect((await read()).byId.get(id)!.node.hint).to.equal('Add an item')
        let r = await run('type_append_text', {element_id: id, text: 'milk', ...fast})
        expect(r.text).to.equal(`Typed 4 characters at end of element '${id}'.\nField content: milk`)
        r = await run('type_clear_text', {element_id: id})
        expect(r.text).to.equal(`Text cleared from element '${id}'.\nField content: `)
        expect(inputs(r.argv)).to.deep.equal([
          ['input', 'keyevent', ...Array(4).fill('KEYCODE_DEL'), ...Array(4).fill('KEYCODE_FORWARD_DEL')],
        ])
      } finally {
        device().properties.set('ro.build.version.sdk', '34')
      }
    })

    it('fail a clear that left text in a field with a hint: the probe is not taken for an empty field', async () => {
      device().showScreen('follow')
      const id = (await read()).elements.find((e) => e.resId.endsWith('locked'))!.id
      const r = await run('type_clear_text', {element_id: id})
      expect(r.error).to.have.property('code', 'DEVICE_COMMAND_FAILED')
      expect(r.error!.message).to.include('"keep"')
      // The probe was dropped, so no DEL follows it (it would delete the field's own text).
      expect(inputs(r.argv).at(-1)).to.deep.equal(['input', 'text', '0'])
    })

    it('types long text in paced chunks and a literal %s right', async () => {
      const id = await field()
      const text = 'a %s b '.repeat(6)
      const started = Date.now()
      const controller = new AbortController()
      const r = await run(
        'type_append_text',
        {element_id: id, text, typing_speed: 50, typing_speed_variance: 0},
        controller.signal
      )
      expect(r.text.split('\n')[1]).to.equal(`Field content: ${text}`)
      // Each pause between chunks takes its abort listener away again.
      expect(getEventListeners(controller.signal, 'abort')).to.have.length(0)
      expect(inputs(r.argv).filter((a) => a[1] === 'text').length).to.be.at.least(3)
      expect(Date.now() - started).to.be.at.least(100)
      await run('type_clear_text', {element_id: id})
    })

    it('delivers fuzzed printable ASCII byte for byte', async () => {
      const id = await field()
      let seed = 11
      const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
      for (let round = 0; round < 6; round++) {
        const text = Array.from({length: 1 + Math.floor(rand() * 50)}, () =>
          String.fromCharCode(32 + Math.floor(rand() * 95))
        ).join('')
        const r = await run('type_append_text', {element_id: id, text, ...fast})
        expect(r.error, JSON.stringify(text)).to.equal(undefined)
        expect(r.data.content).to.equal(text)
        await run('type_clear_text', {element_id: id})
      }
    })

    it('refuses non-ASCII text on a device without ADBKeyBoard naming the characters, sending nothing but the probe', async () => {
      const id = await field()
      const r = await run('type_append_text', {element_id: id, text: 'café ☕', ...fast})
      expect(r.error).to.have.property('code', 'UNSUPPORTED')
      expect(r.error!.message).to.include('U+00E9').and.include('U+2615')
      expect(r.argv).to.deep.equal([['ime', 'list', '-a', '-s']])
    })

    it('fails when the field does not hold what was typed (a field that refuses or alters input)', async () => {
      device().showScreen('follow')
      const m = await read()
      const shout = m.elements.find((e) => e.resId.endsWith('shout'))!.id
      let r = await run('type_append_text', {element_id: shout, text: 'quiet', ...fast})
      expect(r.error).to.have.property('code', 'DEVICE_COMMAND_FAILED')
      expect(r.error!.message).to.include('"QUIET"')
      // The field was not focused: a tap on its centre came first.
      expect(inputs(r.argv)[0]).to.deep.equal(['input', 'tap', '540', '1150'])
      const refuse = m.elements.find((e) => e.resId.endsWith('refuse'))!.id
      r = await run('type_append_text', {element_id: refuse, text: 'hello', ...fast})
      expect(r.error).to.have.property('code', 'DEVICE_COMMAND_FAILED')
    })

    it('never interleaves two concurrent typing calls on one device', async () => {
      const id = await field()
      const a = 'A'.repeat(45)
      const b = 'B'.repeat(45)
      const [ra, rb] = await Promise.all([
        run('type_append_text', {element_id: id, text: a, typing_speed: 20, typing_speed_variance: 0}),
        run('type_append_text', {element_id: id, text: b, typing_speed: 20, typing_speed_variance: 0}),
      ])
      expect(ra.error).to.equal(undefined)
      expect(rb.error).to.equal(undefined)
      const final =
        (rb.data.content as string).length > (ra.data.content as string).length ? rb.data.content : ra.data.content
      expect([a + b, b + a]).to.include(final)
      await run('type_clear_text', {element_id: id})
    })

    it('press_key ENTER refuses when nothing has focus', async () => {
      device().showScreen('follow')
      const r = await run('press_key', {key: 'ENTER'})
      expect(r.error).to.have.property('code', 'ELEMENT_NOT_FOUND')
      expect(inputs(r.argv)).to.deep.equal([])
      expect((await run('press_key', {key: 'BACK'})).error).to.equal(undefined)
    })
  })

  describe('waits', () => {
    // A hang armed for a read the wait ended before starting (a slow host) must not hang the next test's read.
    afterEach(() => device().clearFaults())

    /**
     * Until the device runs no shell and no caller of this process holds or waits for it: a read an earlier wait left
     * running at its deadline has ended (or been ended by its driver's close).
     */
    async function quiet(): Promise<void> {
      const key = `127.0.0.1:${h.emu.port}/emu-1`
      const deadline = Date.now() + 20_000
      while (h.emu.runningShells().length > 0 || queueState(key).busy) {
        if (Date.now() > deadline)
          throw new Error(
            `the device stayed busy: ${JSON.stringify({shells: h.emu.runningShells(), queue: queueState(key)})}`
          )
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
    }

    it('wait_for_element finds an element on the first read', async () => {
      const r = await run('wait_for_element', {by: 'text', value: 'Lemons', timeout: 5000})
      expect(r.data).to.include({found: true, attempts: 1})
      expect((r.data.element as {text: string}).text).to.equal('Lemons')
    })

    it('leave no deadline timer behind when the element or idleness comes first (a CLI process would live on until it)', async () => {
      const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length
      // A read through the driver leaves one timer of its own (the same after any tool): counted from after one.
      await run('find_elements', {by: 'text', value: 'Lemons'})
      const before = timers()
      expect((await run('wait_for_element', {by: 'text', value: 'Lemons', timeout: 30000})).data).to.include({
        found: true,
      })
      expect((await run('wait_for_idle', {timeout: 30000})).error).to.equal(undefined)
      expect(timers()).to.equal(before)
    })

    it('leave no abort listener behind on the signal after many reads (Node warns past 10)', async () => {
      const controller = new AbortController()
      // The element shows only once the device has served 11 reads without it: found on read 12, whatever the load.
      const waiting = run('wait_for_element', {by: 'text', value: 'Follow', timeout: 30_000}, controller.signal)
      await afterDumps(device(), 11, () => device().showScreen('follow'))
      const r = await waiting
      expect(r.data).to.include({found: true, attempts: 12})
      expect(dumps(r.argv)).to.equal(12)
      expect(getEventListeners(controller.signal, 'abort')).to.have.length(0)
    })

    it('wait_for_element times out with found:false, elapsed and attempts, not an error', async () => {
      const r = await run('wait_for_element', {by: 'text', value: 'Nowhere', timeout: 1200})
      expect(r.error).to.equal(undefined)
      expect(r.data.found).to.equal(false)
      expect(r.data.attempts as number).to.be.at.least(1)
      // Every read it counts is one the device served; at most one more was served, still running at the deadline.
      expect(dumps(r.argv) - (r.data.attempts as number)).to.be.oneOf([0, 1])
      // Never before the timeout; how long after depends on the load (exactly 1200 on a turned clock: wait-poll.test.ts).
      expect(r.data.elapsedMs as number).to.be.at.least(1200)
    })

    it('both stop at their deadline when a dump hangs', async () => {
      // The driver's own limit is an hour, so only the wait's deadline can end the call: it comes back with the
      // hung dump still running on the device (which closing the driver then ends). Each hang is armed on a quiet
      // device (a read the previous test left running at its deadline could otherwise take it), and the hung dump
      // must have arrived before the wait's deadline: told by the device, not guessed from a host's speed.
      for (const name of ['wait_for_element', 'wait_for_idle'] as const) {
        await quiet()
        let hung = false
        void device()
          .hangNext('uiautomator')
          .arrived.then(() => (hung = true))
        const input = name === 'wait_for_idle' ? {timeout: 3000} : {by: 'text', value: 'Nowhere', timeout: 3000}
        const r = await run(name, input, undefined, 3_600_000)
        const seen = `${name}: ${JSON.stringify({data: r.data, error: r.error, argv: r.argv, shells: r.shellsAtEnd, hung})}`
        expect(hung, seen).to.equal(true)
        expect(r.shellsAtEnd, seen).to.be.at.least(1)
        if (name === 'wait_for_element') {
          expect(r.data, seen).to.include({found: false, attempts: 0})
          expect(r.data.elapsedMs as number, seen).to.be.at.least(3000)
        } else {
          const after = /^Operation timed out after (\d+)ms waiting for UI idle/.exec(r.data.message as string)
          expect(after, seen).to.not.equal(null)
          expect(Number(after?.[1]), seen).to.be.at.least(3000)
        }
      }
    })

    it('wait_for_idle reports idle with similarity 100 on a still screen', async () => {
      const r = await run('wait_for_idle', {timeout: 5000})
      expect(r.data).to.include({message: 'UI is idle', similarity: 100})
      // Two reads of the still screen, a poll apart: idle on the second, whatever the load.
      expect(dumps(r.argv)).to.equal(2)
      expect(r.data.elapsedMs as number).to.be.at.least(400)
    })

    it('stop when the signal aborts', async () => {
      const controller = new AbortController()
      setTimeout(() => controller.abort(new Error('interrupted')), 300)
      const r = await run('wait_for_element', {by: 'text', value: 'Nowhere', timeout: 30000}, controller.signal)
      expect(r.error).to.have.property('message', 'interrupted')
    })
  })

  describe('from the CLI (ids remembered in the cache folder between processes)', () => {
    it('screen-state, then click, type and details by id; a stale id exits 18', async () => {
      const env = {ADB_SERVER_SOCKET: `tcp:127.0.0.1:${h.emu.port}`, ARC_CACHE_DIR: path.join(dir, 'cache')}
      const arc = (...args: string[]) => runArc(args, {env})
      const shown = await arc('screen-state')
      expect(shown.code).to.equal(0)
      const idOn = (label: string) =>
        shown.stdout
          .split('\n')
          .find((l) => l.split('\t')[2] === label)!
          .split('\t')[0] as string
      const add = idOn('ADD')
      const click = await arc('click', add)
      expect(click.stdout.trim()).to.equal(`Click performed on element '${add}'`)
      const field = idOn('Add an item')
      const typed = await arc('type', 'append', field, 'Hi there', '--typing-speed', '10')
      expect(typed.stdout.trim()).to.equal(
        `Typed 8 characters at end of element '${field}'.\nField content: Hi there\nIts earlier text "Add an item" was taken as the hint of an empty field: this device's dump does not say which it was.`
      )
      expect((await arc('type', 'clear', field)).code).to.equal(0)
      const details = await arc('details', '--ids', add, '--ids', 'node_222222')
      expect(details.stdout.trim()).to.equal(`id\ttext\tdesc\n${add}\tADD\t-\nnode_222222\tnot_found\tnot_found`)
      device().showScreen('follow')
      const stale = await arc('click', add)
      expect(stale.code).to.equal(18)
      expect(stale.stderr).to.include('STALE_ELEMENT')
    })
  })
})
