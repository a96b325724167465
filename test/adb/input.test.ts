import {expect} from 'chai'

import {tools} from '../../src/tools/index.js'
import {shellCommand} from '@arc-cli/core'
import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {NASTY_STRINGS} from '@arc-cli/test-support/nasty-strings'
import {toolContext} from '@arc-cli/test-support/tool-context'

const tool = (name: string) => tools.find((t) => t.name === name)!

/**
 * The touch tools check the point against the screen size, which this process read before (the suite's first
 * read): nothing but the input goes to the device (the first read is test/adb/screen-geometry.test.ts's).
 */
function afterSize(argv: string[][]): string[][] {
  expect(argv[0]?.[0]).to.not.equal('dumpsys')
  return argv
}

/** A touch's commands after the size check: first the one question whether the display is on, then the touch. */
function afterPowerCheck(argv: string[][]): string[][] {
  expect(argv[0]).to.deep.equal(['dumpsys', 'power'])
  return afterSize(argv.slice(1))
}

describe('input tools through the ADB driver (adbkit against arc emulate)', () => {
  const h = useEmulator()
  let events: () => unknown[]

  before(async () => {
    events = () => h.emu.device('emu-1').inputEvents
    // One screen read renews the geometry the touch tools check against.
    await h.capture()
  })

  /** Runs a tool handler on a live driver; returns its text, the argv sent and the input events recorded. */
  async function run(name: string, input: Record<string, unknown>) {
    const driver = await h.driver()
    const fromCmd = h.emu.commands.length
    const fromEvent = events().length
    const parsed = tool(name).input.parse(input)
    const ctx = toolContext(driver)
    const result = await tool(name).handler(ctx, parsed)
    return {text: result.text, argv: h.argvSince(fromCmd), events: events().slice(fromEvent)}
  }

  it('tap sends `input tap X Y`', async () => {
    const r = await run('tap', {x: 500, y: 1000})
    expect(r.text).to.equal('Tap executed at (500, 1000)')
    expect(afterPowerCheck(r.argv)).to.deep.equal([['input', 'tap', '500', '1000']])
    expect(r.events).to.deep.equal([{type: 'tap', x: 500, y: 1000}])
  })

  it('a driver closed under an element action (a cancelled tool call) sends nothing more: its next step is CANCELLED', async () => {
    // An element action holds the device's section from its read to its last input, and calls inside the section
    // run at once. Cut off between the two (the MCP call cancelled, its driver closed), the input must not follow.
    const driver = await h.driver()
    const from = h.emu.commands.length
    const error = await driver
      .exclusive(async () => {
        await driver.close()
        await driver.tap({x: 500, y: 1000})
      })
      .then(
        () => undefined,
        (e: unknown) => e
      )
    expect(error).to.have.property('code', 'CANCELLED')
    expect(h.argvSince(from)).to.deep.equal([])
  })

  it('tap keeps fractional coordinates', async () => {
    const r = await run('tap', {x: 10.5, y: 0})
    expect(afterPowerCheck(r.argv)).to.deep.equal([['input', 'tap', '10.5', '0']])
  })

  it('long press is a swipe that holds still for the duration (default 1000 ms)', async () => {
    expect(afterPowerCheck((await run('long_press', {x: 5, y: 6})).argv)).to.deep.equal([
      ['input', 'swipe', '5', '6', '5', '6', '1000'],
    ])
    const r = await run('long_press', {x: 500, y: 1000, duration: 2000})
    expect(r.text).to.equal('Long press executed at (500, 1000) for 2000ms')
    expect(r.events).to.deep.equal([{type: 'swipe', x1: 500, y1: 1000, x2: 500, y2: 1000, durationMs: 2000}])
  })

  it('double tap sends two taps in one shell command', async () => {
    const from = h.emu.commands.length
    const r = await run('double_tap', {x: 500, y: 1000})
    expect(r.text).to.equal('Double tap executed at (500, 1000)')
    expect(afterPowerCheck(r.argv)).to.deep.equal([
      ['input', 'tap', '500', '1000'],
      ['input', 'tap', '500', '1000'],
    ])
    const raws = new Set(
      h.emu.commands
        .slice(from)
        .filter((c) => c.argv[0] === 'input')
        .map((c) => c.raw)
    )
    expect(raws.size).to.equal(1)
  })

  it('swipe sends `input swipe` with the duration (default 300 ms)', async () => {
    const r = await run('swipe', {x1: 500, y1: 1500, x2: 500, y2: 500})
    expect(r.text).to.equal('Swipe executed from (500, 1500) to (500, 500) over 300ms')
    expect(afterPowerCheck(r.argv)).to.deep.equal([['input', 'swipe', '500', '1500', '500', '500', '300']])
  })

  // scroll: test/adb/scroll.test.ts (it reads the screen first, to keep off the keyboard and the bars).

  for (const [name, code, keyName, text] of [
    ['press_back', 4, 'KEYCODE_BACK', 'Back button press executed successfully'],
    ['press_home', 3, 'KEYCODE_HOME', 'Home button press executed successfully'],
    ['press_recents', 187, 'KEYCODE_APP_SWITCH', 'Recents button press executed successfully'],
  ] as const) {
    it(`${name} sends \`input keyevent ${keyName}\``, async () => {
      const r = await run(name, {})
      expect(r.text).to.equal(text)
      expect(r.argv).to.deep.equal([['input', 'keyevent', keyName]])
      expect(r.events).to.deep.include({type: 'keyevent', code, name: keyName})
    })
  }

  for (const [key, code] of [
    ['ENTER', 66],
    ['BACK', 4],
    ['DEL', 67],
    ['HOME', 3],
    ['TAB', 61],
    ['SPACE', 62],
  ] as const) {
    it(`press key ${key} sends KEYCODE_${key}`, async () => {
      const r = await run('press_key', {key})
      expect(r.text).to.equal(`Key '${key}' pressed successfully`)
      // ENTER, DEL, TAB and SPACE read the screen first (a focused element must exist); only the key is input.
      expect(r.argv.filter((a) => a[0] === 'input')).to.deep.equal([['input', 'keyevent', `KEYCODE_${key}`]])
      expect(r.argv.at(-1)).to.deep.equal(['input', 'keyevent', `KEYCODE_${key}`])
      if (key === 'BACK' || key === 'HOME') expect(r.argv).to.have.length(1)
      else expect(r.argv.some((a) => a[0] === 'uiautomator')).to.equal(true)
      expect((r.events[0] as {code: number}).code).to.equal(code)
    })
  }

  it('press key takes keys beyond the spec list (VOLUME_UP) and refuses unknown names before sending anything', async () => {
    const r = await run('press_key', {key: 'VOLUME_UP'})
    expect(r.argv).to.deep.equal([['input', 'keyevent', 'KEYCODE_VOLUME_UP']])
    expect((r.events[0] as {code: number}).code).to.equal(24)
    const from = h.emu.commands.length
    try {
      await run('press_key', {key: 'VOLUME_UPP'})
      expect.fail('should refuse')
    } catch (error) {
      expect((error as {code: string}).code).to.equal('INVALID_INPUT')
    }
    expect(h.emu.commands.length).to.equal(from)
  })

  it('notifications and quick settings use `cmd statusbar`', async () => {
    const n = await run('open_notifications', {})
    expect(n.text).to.equal('Open notifications executed successfully')
    expect(n.argv).to.deep.equal([['cmd', 'statusbar', 'expand-notifications']])
    const q = await run('open_quick_settings', {})
    expect(q.text).to.equal('Open quick settings executed successfully')
    expect(q.argv).to.deep.equal([['cmd', 'statusbar', 'expand-settings']])
    expect(h.emu.device('emu-1').statusbar).to.equal('settings')
  })

  it('notifications swipe down from the status bar where the statusbar service has no shell commands', async () => {
    // A service without them answers `cmd` with Binder's default text and exit 0 (vendor builds that removed it).
    h.emu
      .device('emu-1')
      .addFault({command: 'cmd statusbar', kind: 'garbage', output: 'No shell command implementation.\n'})
    const n = await run('open_notifications', {})
    expect(n.text).to.equal('Open notifications executed successfully')
    expect(n.argv[0]).to.deep.equal(['cmd', 'statusbar', 'expand-notifications'])
    expect(n.argv.at(-1)?.slice(0, 3)).to.deep.equal(['input', 'swipe', '540'])
  })

  it('enforces the spec ranges: coordinates >= 0, durations 1-60000', () => {
    expect(tool('tap').input.safeParse({x: -1, y: 0}).success).to.equal(false)
    expect(tool('long_press').input.safeParse({x: 1, y: 1, duration: 0}).success).to.equal(false)
    expect(tool('long_press').input.safeParse({x: 3, y: 3, duration: 1.5}).success).to.equal(false)
    expect(tool('swipe').input.safeParse({x1: 1, y1: 1, x2: 1, y2: 1, duration: 300.5}).success).to.equal(false)
    expect(tool('swipe').input.safeParse({x1: 1, y1: 1, x2: 1, y2: 1, duration: 60001}).success).to.equal(false)
    expect(tool('scroll').input.safeParse({direction: 'sideways'}).success).to.equal(false)
    expect(tool('scroll').input.safeParse({direction: 'up', amount: 'huge'}).success).to.equal(false)
  })

  it('serialises input actions from concurrent callers on one device, in call order', async () => {
    const [a, b] = [await h.driver(), await h.driver()]
    const from = events().length
    await Promise.all(Array.from({length: 12}, (_, i) => (i % 2 ? a : b).tap({x: i, y: i})))
    expect(
      events()
        .slice(from)
        .map((e) => (e as {x: number}).x)
    ).to.deep.equal([...Array(12).keys()])
  })

  describe('input text', () => {
    it('sends spaces as %s and the rest quoted, and the device types the text', async () => {
      const driver = await h.driver()
      const from = h.emu.commands.length
      const text = `it's "$(id)" \`x\`; a|b & c\\d`
      await driver.inputText(text)
      expect(h.argvSince(from)).to.deep.equal([['input', 'text', text.replaceAll(' ', '%s')]])
      expect(events().at(-1)).to.deep.equal({type: 'text', text})
    })

    it('refuses what it cannot type with UNSUPPORTED: control characters sending nothing, non-ASCII after the ADBKeyBoard probe alone', async () => {
      const driver = await h.driver()
      for (const text of ['line\nbreak', 'tab\t']) {
        const from = h.emu.commands.length
        const error = await driver.inputText(text).catch((e: unknown) => e)
        expect(error, text).to.have.property('code', 'UNSUPPORTED')
        expect(h.emu.commands.length).to.equal(from)
      }
      for (const text of ['😀', '中文', 'abc é']) {
        const from = h.emu.commands.length
        const error = await driver.inputText(text).catch((e: unknown) => e)
        expect(error, text).to.have.property('code', 'UNSUPPORTED')
        expect(h.argvSince(from)).to.deep.equal([['ime', 'list', '-a', '-s']])
      }
      const error = (await driver.inputText('naïve café 😀').catch((e: unknown) => e)) as Error
      expect(error.message).to.include('U+00EF').and.include('U+00E9').and.include('U+1F600')
    })

    it('types a literal %s right: the argument is cut between % and s', async () => {
      const driver = await h.driver()
      const from = h.emu.commands.length
      await driver.inputText('a %s b%%s 100% sure')
      expect(h.argvSince(from)).to.deep.equal([
        ['input', 'text', 'a%s%'],
        ['input', 'text', 's%sb%%'],
        ['input', 'text', 's%s100%%ssure'],
      ])
      const typed = events()
        .slice(-3)
        .map((e) => (e as {text: string}).text)
        .join('')
      expect(typed).to.equal('a %s b%%s 100% sure')
    })

    it('delivers fuzzed printable ASCII byte for byte, long text in several commands', async () => {
      const driver = await h.driver()
      let seed = 7
      const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
      for (let round = 0; round < 20; round++) {
        const length = round === 0 ? 1300 : 1 + Math.floor(rand() * 60)
        const text = Array.from({length}, () =>
          rand() < 0.2 ? ['%', 's', ' '][Math.floor(rand() * 3)] : String.fromCharCode(32 + Math.floor(rand() * 95))
        ).join('')
        const before = events().length
        await driver.inputText(text)
        const typed = events()
          .slice(before)
          .map((e) => (e as {text: string}).text)
          .join('')
        expect(typed, JSON.stringify(text)).to.equal(text)
      }
    })
  })

  describe('shell quoting on the wire', () => {
    for (const value of NASTY_STRINGS) {
      it(`${JSON.stringify(value)} reaches the device program byte for byte`, async () => {
        const driver = await h.driver()
        const from = h.emu.commands.length
        await driver.shell.run(['input', 'text', value, 'after'])
        expect(h.argvSince(from)).to.deep.equal([['input', 'text', value, 'after']])
        expect(h.emu.commands.at(-1)!.raw.startsWith(shellCommand(['input', 'text', value, 'after']))).to.equal(true)
      })
    }
  })
})
