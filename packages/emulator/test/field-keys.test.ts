/**
 * Keys in and around an edit field as a phone takes them: an arrow at the field's edge moves the focus to the next
 * control, a confirm key then clicks it, and the cursor keys and deletes step over what Android steps over
 * (grapheme clusters; DEL a code point or a whole emoji sequence), not UTF-16 units.
 */
import {expect} from 'chai'
import type {Emulator} from '@arc-cli/emulator'

import {clientFor, DEMO_DIR, emulate, shell, shellV2, type AdbClient} from './support.js'

const ADD = 'dev.arc.demo.groceries:id/add_button'
const FIELD = 'dev.arc.demo.groceries:id/new_item'

describe('emulator: keys at a field edge, confirm keys, and what one cursor key or DEL steps over', () => {
  let emu: Emulator
  let client: AdbClient
  const run = (command: string) => shell(client, 'emu-1', command)
  const attr = (xml: string, id: string, name: string) => {
    const tag = xml.match(/<node\b[^>]*>/g)?.find((t) => t.includes(`resource-id="${id}"`)) ?? ''
    return new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1]
  }
  const fieldText = () => attr(emu.device('emu-1').dumpXml(), FIELD, 'text')

  beforeEach(async () => {
    emu = await emulate({
      devices: [],
      scenario: {
        devices: {
          'emu-1': {
            screens: {list: DEMO_DIR, added: DEMO_DIR},
            // This suite checks where an input leads, not when it shows: the new screen shows at once (no transition time).
            timing: {transitionMs: 0},
            // The demo's ADD button, tapped (or clicked by a confirm key), goes to another screen.
            transitions: [{from: 'list', tap: {resourceId: ADD}, to: 'added'}],
          },
        },
      },
    })
    client = clientFor(emu)
  })
  afterEach(() => emu.close())

  it('DPAD_RIGHT at the end of the empty field moves the focus to the ADD button beside it; text then goes nowhere, a space clicks it', async () => {
    const device = emu.device('emu-1')
    await run('input keyevent KEYCODE_MOVE_END KEYCODE_DPAD_RIGHT')
    const xml = device.dumpXml()
    expect([attr(xml, FIELD, 'focused'), attr(xml, ADD, 'focused')]).to.deep.equal(['false', 'true'])
    await run('input text abc')
    expect(fieldText()).to.equal('Add an item')
    expect(device.screenName).to.equal('list')
    // `%s` is a space: KEYCODE_SPACE, a confirm key, reaches the focused button and clicks it.
    await run('input text %s')
    expect(device.screenName).to.equal('added')
    expect(device.clicks.map((n) => n.resourceId)).to.deep.equal([ADD])
  })

  it('ENTER clicks the focused control; DPAD_LEFT brings the focus back into the field', async () => {
    const device = emu.device('emu-1')
    await run('input keyevent KEYCODE_DPAD_RIGHT KEYCODE_DPAD_LEFT')
    expect(attr(device.dumpXml(), FIELD, 'focused')).to.equal('true')
    await run('input text ok')
    expect(fieldText()).to.equal('ok')
    await run('input keyevent KEYCODE_DPAD_RIGHT KEYCODE_ENTER')
    expect(device.screenName).to.equal('added')
  })

  it('DPAD_LEFT at the start of a field with nothing to its left leaves the focus in the field', async () => {
    await run('input text ab')
    await run('input keyevent KEYCODE_MOVE_HOME KEYCODE_DPAD_LEFT')
    await run('input text X')
    expect(fieldText()).to.equal('Xab')
  })

  it('cursor keys step over grapheme clusters; DEL deletes a code point, or a whole emoji sequence', async () => {
    // a, thumbs up with a skin tone (2 code points, 4 UTF-16 units), e with a combining acute (2 code points), b.
    const text = 'a\u{1F44D}\u{1F3FD}e\u0301b'
    emu.device('emu-1').recordInput({type: 'commit', text})
    await run('input keyevent KEYCODE_MOVE_END KEYCODE_DPAD_LEFT KEYCODE_DPAD_LEFT')
    await run('input text X')
    expect(fieldText()).to.equal('a\u{1F44D}\u{1F3FD}Xe\u0301b')
    await run('input keyevent KEYCODE_DEL KEYCODE_DEL')
    expect(fieldText()).to.equal('ae\u0301b')
    await run('input keyevent KEYCODE_MOVE_END KEYCODE_DPAD_LEFT KEYCODE_DEL')
    expect(fieldText()).to.equal('aeb')
    await run('input keyevent KEYCODE_MOVE_HOME KEYCODE_FORWARD_DEL')
    expect(fieldText()).to.equal('eb')
  })
})

describe('emulator: a field lays out its text; a tap, HOME/END and the arrows go by its visual lines', () => {
  let emu: Emulator
  let client: AdbClient
  const run = (command: string) => shell(client, 'emu-1', command)
  const fieldText = () => {
    const tag =
      emu
        .device('emu-1')
        .dumpXml()
        .match(/<node\b[^>]*>/g)
        ?.find((t) => t.includes(FIELD)) ?? ''
    return /\stext="([^"]*)"/.exec(tag)?.[1]
  }
  // The demo's field: bounds [42,231][780,357]. Its layout starts 24 px in from the left and 12 px below the top;
  // each character is 30 px wide and each line 30 px high here, so 690 px hold 23 characters a line.
  const LEFT = 42 + 24
  const TOP = 231 + 12
  /** A tap just right of the left edge of character `column` on visual line `line`: the cursor goes before it. */
  const tapAt = (line: number, column: number) => run(`input tap ${LEFT + column * 30 + 5} ${TOP + line * 30 + 15}`)
  // Lines: "aaaa bbbb cccc dddd " (0-20), "eeee ffff gggg hhhh " (20-40), "iiii jjjj" (40-49): a word that does not
  // fit takes the next line, the space before it ending the line it leaves.
  const WRAPPED = 'aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj'

  async function start(multiLine: boolean): Promise<void> {
    emu = await emulate({
      devices: [],
      scenario: {
        devices: {
          'emu-1': {
            screens: {list: DEMO_DIR},
            timing: {transitionMs: 0},
            fields: [{resourceId: FIELD, multiLine, advancePx: 30, lineHeightPx: 30}],
          },
        },
      },
    })
    client = clientFor(emu)
  }
  afterEach(() => emu.close())

  it('MOVE_END from a tap on the middle line of a wrapped paragraph stops at that line, before its trailing space', async () => {
    await start(true)
    emu.device('emu-1').recordInput({type: 'commit', text: WRAPPED})
    await tapAt(1, 2)
    await run('input keyevent KEYCODE_MOVE_END')
    await run('input text X')
    expect(fieldText()).to.equal('aaaa bbbb cccc dddd eeee ffff gggg hhhhX iiii jjjj')
    await run('input keyevent KEYCODE_MOVE_HOME')
    await run('input text Y')
    expect(fieldText()).to.equal('aaaa bbbb cccc dddd Yeeee ffff gggg hhhhX iiii jjjj')
  })

  it('a line feed is a hard break: MOVE_END stops before it, MOVE_HOME after it', async () => {
    await start(true)
    emu.device('emu-1').recordInput({type: 'commit', text: 'ab\ncd\nef'})
    await tapAt(1, 1)
    await run('input keyevent KEYCODE_MOVE_END')
    await run('input text X')
    await run('input keyevent KEYCODE_DPAD_DOWN KEYCODE_MOVE_HOME')
    await run('input text Y')
    expect(fieldText()).to.equal('ab&#10;cdX&#10;Yef')
  })

  it('a CR LF is a hard break too (one grapheme cluster that ends in a line feed)', async () => {
    await start(true)
    emu.device('emu-1').recordInput({type: 'commit', text: 'ab\r\ncd'})
    await tapAt(1, 1)
    await run('input keyevent KEYCODE_MOVE_HOME')
    await run('input text X')
    expect(fieldText()).to.equal('ab&#13;&#10;Xcd')
  })

  it('a word longer than a line takes a line of its own and breaks where the line is full', async () => {
    await start(true)
    // Lines: "ab " (0-3), 23 x (3-26), 7 x (26-33). MOVE_END on the full middle line stops one character before its
    // end (Selection.findEdge: the line's end is the next line's start).
    emu.device('emu-1').recordInput({type: 'commit', text: `ab ${'x'.repeat(30)}`})
    await tapAt(1, 0)
    await run('input keyevent KEYCODE_MOVE_END')
    await run('input text Y')
    expect(fieldText()).to.equal(`ab ${'x'.repeat(22)}Y${'x'.repeat(8)}`)
    await tapAt(0, 9)
    await run('input text Z')
    expect(fieldText()).to.equal(`abZ ${'x'.repeat(22)}Y${'x'.repeat(8)}`)
  })

  it('a tap puts the cursor under the finger, in a single-line field too, and moves it in a field already focused', async () => {
    await start(false)
    emu.device('emu-1').recordInput({type: 'commit', text: 'hello world'})
    await tapAt(0, 5)
    await run('input text X')
    expect(fieldText()).to.equal('helloX world')
    // Past the text's end: the cursor goes to its end.
    await tapAt(0, 20)
    await run('input text Y')
    expect(fieldText()).to.equal('helloX worldY')
    // A single-line field is one line however long: MOVE_HOME goes to the text's start from anywhere on it.
    await tapAt(0, 3)
    await run('input keyevent KEYCODE_MOVE_HOME')
    await run('input text Z')
    expect(fieldText()).to.equal('ZhelloX worldY')
  })

  it('DPAD_UP/DOWN keep the x a run of them started at, go to the text start/end from the first/last line', async () => {
    await start(true)
    emu.device('emu-1').recordInput({type: 'commit', text: WRAPPED})
    // Column 18 of line 1 (offset 38), down to the short last line (its end, 49), then back up to column 18 (not 9).
    await tapAt(1, 18)
    await run('input keyevent KEYCODE_DPAD_DOWN KEYCODE_DPAD_UP')
    await run('input text X')
    expect(fieldText()).to.equal('aaaa bbbb cccc dddd eeee ffff gggg hhhXh iiii jjjj')
    // From the first line UP goes to offset 0; from the last line DOWN goes to the end.
    await tapAt(0, 7)
    await run('input keyevent KEYCODE_DPAD_UP')
    await run('input text A')
    await tapAt(2, 2)
    await run('input keyevent KEYCODE_DPAD_DOWN')
    await run('input text Z')
    expect(fieldText()).to.equal('Aaaaa bbbb cccc dddd eeee ffff gggg hhhXh iiii jjjjZ')
  })

  it('DPAD_LEFT/RIGHT step one character across a soft line end', async () => {
    await start(true)
    emu.device('emu-1').recordInput({type: 'commit', text: WRAPPED})
    await tapAt(1, 0)
    await run('input keyevent KEYCODE_DPAD_LEFT')
    await run('input text X')
    expect(fieldText()).to.equal('aaaa bbbb cccc ddddX eeee ffff gggg hhhh iiii jjjj')
    // Past the end of a line that is not the last, a tap stops before its trailing space (offset 20 of
    // "aaaa bbbb cccc ddddX "): its end is the next line's start. RIGHT then steps onto that start.
    await tapAt(0, 22)
    await run('input keyevent KEYCODE_DPAD_RIGHT')
    await run('input text Y')
    expect(fieldText()).to.equal('aaaa bbbb cccc ddddX Yeeee ffff gggg hhhh iiii jjjj')
  })
})

describe('emulator: keys with modifiers (input keycombination, Android 13+), as a field and focus navigation take them', () => {
  let emu: Emulator
  let client: AdbClient
  const run = (command: string) => shell(client, 'emu-1', command)
  const attr = (id: string, name: string) => {
    const tag =
      emu
        .device('emu-1')
        .dumpXml()
        .match(/<node\b[^>]*>/g)
        ?.find((t) => t.includes(`resource-id="${id}"`)) ?? ''
    return new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1]
  }
  const LEFT = 42 + 24
  const TOP = 231 + 12
  const tapAt = (line: number, column: number) => run(`input tap ${LEFT + column * 30 + 5} ${TOP + line * 30 + 15}`)
  const WRAPPED = 'aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj'

  async function start(properties: Record<string, string> = {}): Promise<void> {
    emu = await emulate({
      devices: [],
      scenario: {
        devices: {
          'emu-1': {
            screens: {list: DEMO_DIR},
            timing: {transitionMs: 0},
            properties,
            fields: [{resourceId: FIELD, multiLine: true, advancePx: 30, lineHeightPx: 30}],
          },
        },
      },
    })
    client = clientFor(emu)
    emu.device('emu-1').recordInput({type: 'commit', text: WRAPPED})
  }
  afterEach(() => emu.close())

  it('ALT+DPAD_UP/DOWN go to the text start/end, CTRL+MOVE_HOME/END too; each key carries the modifiers pressed before it', async () => {
    await start()
    const events = emu.device('emu-1').inputEvents
    await tapAt(1, 2)
    const from = events.length
    await run('input keycombination KEYCODE_ALT_LEFT KEYCODE_DPAD_DOWN')
    expect(events.slice(from)).to.deep.equal([
      {type: 'keyevent', code: 57, name: 'KEYCODE_ALT_LEFT'},
      // META_ALT_LEFT_ON | META_ALT_ON
      {type: 'keyevent', code: 20, name: 'KEYCODE_DPAD_DOWN', meta: 0x12},
    ])
    await run('input text Z')
    await tapAt(1, 2)
    await run('input keycombination ALT_RIGHT DPAD_UP')
    await run('input text A')
    expect(attr(FIELD, 'text')).to.equal(`A${WRAPPED}Z`)
    await tapAt(1, 2)
    await run('input keycombination CTRL_LEFT MOVE_END')
    await run('input text 1')
    await tapAt(1, 2)
    await run('input keycombination -t 50 CTRL_RIGHT MOVE_HOME')
    await run('input text 0')
    expect(attr(FIELD, 'text')).to.equal(`0A${WRAPPED}Z1`)
  })

  it('ALT+DPAD_LEFT/RIGHT go to the visual line start/end', async () => {
    await start()
    await tapAt(1, 2)
    await run('input keycombination ALT_LEFT DPAD_RIGHT')
    await run('input text X')
    await run('input keycombination ALT_LEFT DPAD_LEFT')
    await run('input text Y')
    expect(attr(FIELD, 'text')).to.equal('aaaa bbbb cccc dddd Yeeee ffff gggg hhhhX iiii jjjj')
  })

  it('a modified arrow the field does not take never moves the focus; a modified confirm key clicks nothing', async () => {
    await start()
    const device = emu.device('emu-1')
    // At the very start: CTRL+DPAD_UP and SHIFT+DPAD_LEFT move nothing here (word moves and selections are not
    // modelled), and unlike a plain DPAD_UP or LEFT there they leave the focus in the field.
    await tapAt(0, 0)
    await run('input keycombination CTRL_LEFT DPAD_UP')
    await run('input keycombination SHIFT_LEFT DPAD_LEFT')
    await run('input keycombination META_LEFT DPAD_UP')
    expect(attr(FIELD, 'focused')).to.equal('true')
    await run('input text X')
    expect(attr(FIELD, 'text')).to.equal(`X${WRAPPED}`)
    // ALT+MOVE_END is no movement key (only CTRL is): the cursor stays.
    await run('input keycombination ALT_LEFT MOVE_END')
    await run('input text Y')
    expect(attr(FIELD, 'text')).to.equal(`XY${WRAPPED}`)
    // On a control that has the focus, ALT+ENTER is no confirm key: no click; ALT+DPAD_LEFT no focus move.
    await run('input keycombination ALT_LEFT DPAD_DOWN')
    await run('input keyevent KEYCODE_DPAD_RIGHT')
    expect(attr(ADD, 'focused')).to.equal('true')
    await run('input keycombination ALT_LEFT ENTER')
    await run('input keycombination ALT_LEFT DPAD_LEFT')
    expect(device.clicks).to.deep.equal([])
    expect(attr(ADD, 'focused')).to.equal('true')
  })

  it('answers a bad keycombination as InputShellCommand does, sending nothing; before Android 13 the command is unknown', async () => {
    await start()
    const events = emu.device('emu-1').inputEvents
    const from = events.length
    const cases: Array<[string, string]> = [
      ['input keycombination DPAD_DOWN', 'keycombination requires at least 2 keycodes'],
      ['input keycombination ALT_LEFT NOPE', 'Unknown keycode: NOPE'],
      ['input keycombination ALT_LEFT 0', 'Unknown keycode: 0'],
      ['input keycombination -t soon ALT_LEFT DPAD_UP', 'Error: Invalid arguments for command: keycombination'],
      ['input keycombination', 'Argument expected after "keycombination"'],
    ]
    for (const [command, message] of cases) {
      const result = await shellV2(client, 'emu-1', command)
      expect(result.exitCode, command).to.equal(255)
      expect(result.stderr.toString(), command).to.match(
        new RegExp(
          `^\\nException occurred while executing 'keycombination':\\njava\\.lang\\.IllegalArgumentException: ${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n\\tat `
        )
      )
    }
    expect(events.length).to.equal(from)
    await emu.close()
    await start({'ro.build.version.sdk': '32'})
    const twelve = await shellV2(client, 'emu-1', 'input keycombination ALT_LEFT DPAD_DOWN')
    expect([twelve.exitCode, twelve.stdout.toString(), twelve.stderr.toString()]).to.deep.equal([
      255,
      'Unknown command: keycombination\n',
      '',
    ])
    expect(emu.device('emu-1').inputEvents.filter((e) => e.type === 'keyevent')).to.deep.equal([])
    // Any command `cmd input` does not know answers so from Android 12; up to 11 `input` prints its usage.
    const unknown = await shellV2(client, 'emu-1', 'input frobnicate 1')
    expect([unknown.exitCode, unknown.stdout.toString()]).to.deep.equal([255, 'Unknown command: frobnicate\n'])
    await emu.close()
    await start({'ro.build.version.sdk': '30'})
    const eleven = await shellV2(client, 'emu-1', 'input keycombination ALT_LEFT DPAD_DOWN')
    expect([eleven.exitCode, eleven.stdout.toString()]).to.deep.equal([1, ''])
    expect(eleven.stderr.toString()).to.match(/^Usage: input /)
    expect(emu.device('emu-1').inputEvents.filter((e) => e.type === 'keyevent')).to.deep.equal([])
  })
})
