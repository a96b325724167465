import {mkdtemp, readdir, readFile, rm, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

import {buildScreenModel, MemoryDeviceState, runTool, type CapabilityReport, type DeviceState} from '@arc-cli/core'
import {tools as screenTools} from '@arc-cli/plugin-screen-state'
import {startEmulator, type Emulator} from '@arc-cli/emulator'
import {expect} from 'chai'

import {
  ADB_KEYBOARD,
  type AdbDriver,
  adbKeyboardBound,
  base64Chunks,
  connectAdbDriver,
  imeIds,
  typingMethod,
} from '@arc-cli/core/testing'
import {tools} from '../../src/tools/index.js'
import {dumpXml} from '@arc-cli/test-support/dump'
import {DEVICE_OUTPUT_DIR} from '@arc-cli/test-support/paths'
import {toolContext} from '@arc-cli/test-support/tool-context'

const all = [...tools, ...screenTools]
const tool = (name: string) => all.find((t) => t.name === name)!
const GBOARD = 'com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME'
const FIXTURES = path.join(DEVICE_OUTPUT_DIR, 'dumpsys-input-method')

/** One empty edit field without a hint, so what it holds is exactly what was typed. */
const screen = dumpXml([
  {
    pkg: 'com.example',
    bounds: [0, 0, 1080, 2400],
    children: [
      {
        cls: 'android.widget.EditText',
        res: 'com.example:id/note',
        text: '',
        attrs: {clickable: 'true', focusable: 'true'},
        bounds: [0, 300, 1080, 400],
      },
    ],
  },
])

/**
 * The commands of a typing call that concern the keyboard: input (but the tap that focuses the field), ime, settings,
 * am, and dumpsys input_method (a run of them as one: how many depends on timing).
 */
function keyboardCommands(argv: string[][]): string[][] {
  const out: string[][] = []
  for (const a of argv) {
    const relevant =
      (['input', 'ime', 'settings', 'am'].includes(a[0] as string) && a[1] !== 'tap') ||
      (a[0] === 'dumpsys' && a[1] === 'input_method')
    if (!relevant) continue
    if (a[1] === 'input_method' && out.at(-1)?.[1] === 'input_method') continue
    out.push(a)
  }
  return out
}

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64')
const broadcastOf = (text: string) => [
  'am',
  'broadcast',
  '-a',
  'ADB_INPUT_B64',
  '-p',
  'com.android.adbkeyboard',
  '--es',
  'msg',
  b64(text),
]
const switchTo = [
  ['ime', 'list', '-a', '-s'],
  ['settings', 'get', 'secure', 'default_input_method'],
  ['ime', 'list', '-s'],
  ['ime', 'enable', ADB_KEYBOARD],
  ['ime', 'set', ADB_KEYBOARD],
  ['dumpsys', 'input_method'],
]
const switchBack = [
  ['ime', 'set', GBOARD],
  ['ime', 'disable', ADB_KEYBOARD],
]

describe('non-ASCII typing through ADBKeyBoard (arc emulate)', function () {
  this.timeout(60_000)
  let dir: string
  let emu: Emulator
  let state: DeviceState

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'arc-adbkeyboard-'))
    await writeFile(path.join(dir, 'note.xml'), screen)
    const note = path.join(dir, 'note.xml')
    emu = await startEmulator({
      port: 0,
      devices: [],
      scenario: {
        devices: {
          keyboard: {snapshot: note, adbKeyboard: true},
          plain: {snapshot: note},
          'keyboard-failing': {
            snapshot: note,
            adbKeyboard: true,
            faults: [
              {
                command: 'am broadcast',
                kind: 'error',
                message: "Exception occurred while executing 'broadcast':\n",
                exitCode: 255,
              },
            ],
          },
          // Its `ime set` fails twice: selecting ADBKeyBoard, then setting Gboard back.
          'keyboard-stuck': {
            snapshot: note,
            adbKeyboard: true,
            faults: [{command: 'ime set', kind: 'error', message: 'Error: boom\n', exitCode: 255, times: 2}],
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
  // Each test starts from empty fields: a clear is key events, which every device here takes.
  afterEach(async () => {
    for (const serial of ['keyboard', 'plain', 'keyboard-failing', 'keyboard-stuck']) {
      const r = await run(serial, 'type_clear_text', {element_id: await fieldId(serial)})
      expect(r.error, serial).to.equal(undefined)
    }
  })

  const driver = (serial: string): Promise<AdbDriver> =>
    connectAdbDriver({serial, port: emu.port, host: '127.0.0.1', timeoutMs: 10_000, env: {}})
  const setting = (serial: string) => emu.device(serial).settings.get('secure/default_input_method')

  /** Runs a tool handler on a live driver; returns its result, or its error, and the argv sent. */
  async function run(serial: string, name: string, input: Record<string, unknown>) {
    const d = await driver(serial)
    const from = emu.commands.length
    const ctx = toolContext(d, {state})
    try {
      const result = await tool(name).handler(ctx, tool(name).input.parse(input))
      return {
        text: result.text,
        data: result.data as Record<string, unknown>,
        argv: emu.commands.slice(from).map((c) => c.argv),
        error: undefined,
      }
    } catch (error) {
      return {
        text: '',
        data: {} as Record<string, unknown>,
        argv: emu.commands.slice(from).map((c) => c.argv),
        error: error as {code: string; message: string; actions: string[]},
      }
    } finally {
      await d.close()
    }
  }

  async function fieldId(serial: string): Promise<string> {
    const r = await run(serial, 'get_screen_state', {})
    expect(r.error).to.equal(undefined)
    const d = await driver(serial)
    try {
      return buildScreenModel(await d.captureScreen()).elements.find((e) => e.resId === 'com.example:id/note')!.id
    } finally {
      await d.close()
    }
  }
  const fast = {typing_speed: 10, typing_speed_variance: 0}
  /** Starts typing 'café' (through ADBKeyBoard) into field `id`; resolves to its error, or undefined. */
  const typeCafe = (d: AdbDriver, id: string): Promise<unknown> =>
    tool('type_append_text')
      .handler(toolContext(d, {state}), tool('type_append_text').input.parse({element_id: id, text: 'café', ...fast}))
      .then(
        () => undefined,
        (e: unknown) => e
      )

  it('types accents, CJK and emoji byte for byte, read back from the field, and sets the keyboard back', async () => {
    const id = await fieldId('keyboard')
    let expected = ''
    for (const text of ['café crème brûlée', '中文输入，日本語のテキスト', '😀👍🏽 👨‍👩‍👧 🇫🇷', 'naïve — “quotes” ñ ß Ω']) {
      const r = await run('keyboard', 'type_append_text', {element_id: id, text, ...fast})
      expect(r.error, text).to.equal(undefined)
      expected += text
      expect(r.data.content).to.equal(expected)
      expect(r.text.split('\n')[1]).to.equal(`Field content: ${expected}`)
      expect(keyboardCommands(r.argv)).to.deep.equal([
        ['ime', 'list', '-a', '-s'],
        ['input', 'keycombination', 'KEYCODE_ALT_LEFT', 'KEYCODE_DPAD_DOWN'],
        ...switchTo,
        broadcastOf(text),
        ...switchBack,
      ])
      expect(emu.device('keyboard').inputEvents.at(-1)).to.deep.equal({type: 'commit', text})
      expect(setting('keyboard')).to.equal(GBOARD)
      expect(emu.device('keyboard').inputMethods.enabled.has(ADB_KEYBOARD)).to.equal(false)
    }
    // Insert and replace put it where asked.
    let r = await run('keyboard', 'type_insert_text', {element_id: id, text: 'é', offset: 0, ...fast})
    expect(r.data.content).to.equal(`é${expected}`)
    r = await run('keyboard', 'type_replace_text', {element_id: id, search: 'crème', new_text: 'crema ☕', ...fast})
    expect(r.data.content).to.equal(`é${expected.replace('crème', 'crema ☕')}`)
  })

  it("sends long text as several broadcasts, each within adb's command limit, and the field holds all of it", async () => {
    const id = await fieldId('keyboard')
    const text = '漢字かな交じり文😀'.repeat(200).slice(0, 2000)
    const r = await run('keyboard', 'type_append_text', {element_id: id, text, ...fast})
    expect(r.error).to.equal(undefined)
    expect(r.data.content).to.equal(text)
    const broadcasts = r.argv.filter((a) => a[0] === 'am')
    expect(broadcasts.length).to.be.greaterThan(1)
    expect(broadcasts.map((a) => Buffer.from(a.at(-1) as string, 'base64').toString('utf8')).join('')).to.equal(text)
    // One switch for the whole text.
    expect(r.argv.filter((a) => a[0] === 'ime' && a[1] === 'set')).to.have.length(2)
    // Clearing it takes 4000 key events: in several commands, each within adb's 4000 bytes.
    const d = await driver('keyboard')
    const from = emu.commands.length
    try {
      await d.pressKeys([...Array<string>(text.length).fill('DEL'), ...Array<string>(text.length).fill('FORWARD_DEL')])
    } finally {
      await d.close()
    }
    const keys = emu.commands.slice(from)
    expect(keys.length).to.be.greaterThan(1)
    for (const c of keys) expect(Buffer.byteLength(c.raw)).to.be.below(4000)
    expect(keys.flatMap((c) => c.argv.slice(2))).to.have.length(text.length * 2)
  })

  it('sets the keyboard back after a failed broadcast, and fails without typing', async () => {
    const id = await fieldId('keyboard-failing')
    const r = await run('keyboard-failing', 'type_append_text', {element_id: id, text: 'café', ...fast})
    expect(r.error).to.have.property('code', 'DEVICE_COMMAND_FAILED')
    expect(r.error!.message).to.include('am broadcast -a ADB_INPUT_B64')
    expect(keyboardCommands(r.argv).slice(-3)).to.deep.equal([broadcastOf('café'), ...switchBack])
    expect(setting('keyboard-failing')).to.equal(GBOARD)
    expect(emu.device('keyboard-failing').inputMethods.enabled.has(ADB_KEYBOARD)).to.equal(false)
    expect(emu.device('keyboard-failing').inputEvents.filter((e) => e.type === 'commit')).to.deep.equal([])
  })

  it('a call cut off while ADBKeyBoard is selected (Ctrl-C, a deadline) still sets the keyboard back before it ends', async () => {
    const id = await fieldId('keyboard')
    const device = emu.device('keyboard')
    device.hangNext('am broadcast')
    const commits = () => device.inputEvents.filter((e) => e.type === 'commit').length
    const committed = commits()
    const controller = new AbortController()
    const deps = {
      config: {},
      cwd: process.cwd(),
      signal: controller.signal,
      openDriver: () => driver('keyboard'),
      stateFor: () => state,
    }
    const call = runTool(tool('type_append_text'), {input: {element_id: id, text: 'café', ...fast}}, deps)
    const from = emu.commands.length
    // Abort once the broadcast is on its way: ADBKeyBoard is then current and enabled.
    while (!emu.commands.slice(from).some((c) => c.argv[0] === 'am'))
      await new Promise((resolve) => setTimeout(resolve, 20))
    expect(setting('keyboard')).to.equal(ADB_KEYBOARD)
    controller.abort()
    const error = await call.then(
      () => undefined,
      (e: unknown) => e as {code: string}
    )
    expect(error).to.have.property('code', 'CANCELLED')
    // By the time the call has ended, not some time later.
    expect(setting('keyboard')).to.equal(GBOARD)
    expect(device.inputMethods.enabled.has(ADB_KEYBOARD)).to.equal(false)
    expect(commits()).to.equal(committed)
  })

  it('a restore the call had begun when it was cut off still sends its later steps: ADBKeyBoard is disabled', async () => {
    const id = await fieldId('keyboard')
    const device = emu.device('keyboard')
    // The text is sent; the call is cut off while its restore's first step (`ime set` back to Gboard) runs.
    const back = device.holdNext(`ime set ${GBOARD}`, 'after')
    const d = await driver('keyboard')
    const typing = typeCafe(d, id)
    await back.arrived
    const closing = d.close()
    back.release()
    await closing
    await typing
    expect(setting('keyboard')).to.equal(GBOARD)
    expect(device.inputMethods.enabled.has(ADB_KEYBOARD)).to.equal(false)
  })

  it('the close does not cut short a restore step already on its way: the keyboard is set back', async () => {
    const id = await fieldId('keyboard')
    const device = emu.device('keyboard')
    // ADBKeyBoard enabled by the user: the restore is one step, `ime set` back to Gboard, held before it runs.
    device.inputMethods.enabled.add(ADB_KEYBOARD)
    try {
      const back = device.holdNext(`ime set ${GBOARD}`, 'before')
      const d = await driver('keyboard')
      const typing = typeCafe(d, id)
      await back.arrived
      const shells = emu.runningShells().length
      const closing = d.close()
      // A close that cut the step short kills its shell: give that up to 1 s to show before the step may run.
      for (let i = 0; i < 50 && emu.runningShells().length >= shells; i++) await new Promise((r) => setTimeout(r, 20))
      back.release()
      await closing
      await typing
      expect(setting('keyboard')).to.equal(GBOARD)
    } finally {
      device.inputMethods.enabled.delete(ADB_KEYBOARD)
    }
  })

  it('a call cut off while waiting for ADBKeyBoard to start sends it nothing afterwards', async () => {
    const id = await fieldId('keyboard')
    const device = emu.device('keyboard')
    const commits = () => device.inputEvents.filter((e) => e.type === 'commit').length
    const committed = commits()
    const controller = new AbortController()
    const deps = {
      config: {},
      cwd: process.cwd(),
      signal: controller.signal,
      openDriver: () => driver('keyboard'),
      stateFor: () => state,
    }
    const from = emu.commands.length
    const call = runTool(tool('type_append_text'), {input: {element_id: id, text: 'naïve', ...fast}}, deps)
    // Cut off as soon as ADBKeyBoard is selected: it binds 250 ms later, while the call polls for it.
    while (!emu.commands.slice(from).some((c) => c.argv[0] === 'ime' && c.argv[1] === 'set'))
      await new Promise((resolve) => setTimeout(resolve, 5))
    controller.abort()
    expect(
      await call.then(
        () => undefined,
        (e: unknown) => (e as {code: string}).code
      )
    ).to.equal('CANCELLED')
    const ended = emu.commands.length
    // A call that went on after it was cut off would poll dumpsys input_method every 100 ms for up to 5 s (holding
    // the typing lock) and, should a poll see ADBKeyBoard bound before the restore lands, broadcast the text.
    await new Promise((resolve) => setTimeout(resolve, 800))
    const later = emu.commands.slice(ended).filter((c) => c.argv[0] === 'dumpsys' && c.argv[1] === 'input_method')
    expect(later.length).to.be.at.most(1)
    expect(emu.commands.slice(from).filter((c) => c.argv[0] === 'am')).to.deep.equal([])
    expect(commits()).to.equal(committed)
    expect(setting('keyboard')).to.equal(GBOARD)
  })

  it('says so, with the command to run, where the keyboard could not be set back; still disables what it enabled', async () => {
    const id = await fieldId('keyboard-stuck')
    const r = await run('keyboard-stuck', 'type_append_text', {element_id: id, text: 'é', ...fast})
    expect(r.error).to.have.property('code', 'DEVICE_COMMAND_FAILED')
    expect(r.error!.message).to.match(
      /^typing failed \(ime set com\.android\.adbkeyboard\/\.AdbIME failed .*\) and the keyboard could not be set back to com\.google/
    )
    expect(r.error!.actions).to.deep.equal([`Set it back by hand: adb -s keyboard-stuck shell ime set ${GBOARD}`])
    expect(keyboardCommands(r.argv).slice(-3)).to.deep.equal([['ime', 'set', ADB_KEYBOARD], ...switchBack])
    expect(r.argv.some((a) => a[0] === 'am')).to.equal(false)
    expect(emu.device('keyboard-stuck').inputMethods.enabled.has(ADB_KEYBOARD)).to.equal(false)
  })

  it('an ADBKeyBoard installed with `arc app install` is used at once, and one uninstalled no more', async () => {
    const d = await driver('plain')
    const apk = path.join(dir, 'keyboardservice-debug.apk')
    await writeFile(
      apk,
      Buffer.concat([
        Buffer.from('PK\u0003\u0004', 'latin1'),
        Buffer.from('....ARC_EMULATE_PACKAGE=com.android.adbkeyboard;versionCode=2....'),
      ])
    )
    try {
      expect(await typingMethod(d.shell, 'abc')).to.equal('input')
      await d.installApp(apk, {replace: false, grantAll: false, downgrade: false, allowTest: false})
      expect(await typingMethod(d.shell, 'é')).to.equal('ime')
      await d.uninstallApp('com.android.adbkeyboard', false)
      const error = await d.checkTypable('é').catch((e: unknown) => e)
      expect(error).to.have.property('code', 'UNSUPPORTED')
    } finally {
      await d.close()
    }
  })

  it('without ADBKeyBoard: UNSUPPORTED naming the characters and how to install it, with nothing sent but the probe', async () => {
    const id = await fieldId('plain')
    const r = await run('plain', 'type_append_text', {element_id: id, text: 'café ☕', ...fast})
    expect(r.error).to.have.property('code', 'UNSUPPORTED')
    expect(r.error!.message).to.include('U+00E9').and.include('U+2615').and.include('ADBKeyBoard')
    expect(r.error!.actions.join(' ')).to.include('arc app install').and.include('github.com/senzhk/ADBKeyBoard')
    expect(r.argv).to.deep.equal([['ime', 'list', '-a', '-s']])
    const d = await driver('plain')
    try {
      const from = emu.commands.length
      const error = await d.inputText('中文').catch((e: unknown) => e)
      expect(error).to.have.property('code', 'UNSUPPORTED')
      expect(emu.commands.slice(from).map((c) => c.argv)).to.deep.equal([['ime', 'list', '-a', '-s']])
    } finally {
      await d.close()
    }
    expect(setting('plain')).to.equal(GBOARD)
  })

  it('ASCII still goes through `input text` alone: no probe, no keyboard switch', async () => {
    const id = await fieldId('keyboard')
    const r = await run('keyboard', 'type_append_text', {element_id: id, text: 'plain ASCII %s!', ...fast})
    expect(r.error).to.equal(undefined)
    expect(r.data.content).to.equal('plain ASCII %s!')
    expect(keyboardCommands(r.argv)).to.deep.equal([
      ['input', 'keycombination', 'KEYCODE_ALT_LEFT', 'KEYCODE_DPAD_DOWN'],
      ['input', 'text', 'plain%sASCII%s%'],
      ['input', 'text', 's!'],
    ])
  })

  it('control characters are refused on every device before anything is sent', async () => {
    const id = await fieldId('keyboard')
    for (const text of ['two\nlines', 'tab\there', 'lone \ud800 surrogate']) {
      const r = await run('keyboard', 'type_append_text', {element_id: id, text, ...fast})
      expect(r.error, JSON.stringify(text)).to.have.property('code', 'UNSUPPORTED')
      expect(r.argv).to.deep.equal([])
    }
  })

  it('where ADBKeyBoard is already enabled or current, arc switches only as far as needed', async () => {
    const device = emu.device('keyboard')
    const id = await fieldId('keyboard')
    device.inputMethods.enabled.add(ADB_KEYBOARD)
    try {
      let r = await run('keyboard', 'type_append_text', {element_id: id, text: 'ü', ...fast})
      expect(r.error).to.equal(undefined)
      expect(keyboardCommands(r.argv).filter((a) => a[0] !== 'input')).to.deep.equal([
        ['ime', 'list', '-a', '-s'],
        ['ime', 'list', '-a', '-s'],
        ['settings', 'get', 'secure', 'default_input_method'],
        ['ime', 'list', '-s'],
        ['ime', 'set', ADB_KEYBOARD],
        ['dumpsys', 'input_method'],
        broadcastOf('ü'),
        ['ime', 'set', GBOARD],
      ])
      expect(device.inputMethods.enabled.has(ADB_KEYBOARD)).to.equal(true)
      device.inputMethods.select(ADB_KEYBOARD)
      await new Promise((resolve) => setTimeout(resolve, 300))
      r = await run('keyboard', 'type_append_text', {element_id: id, text: 'ß', ...fast})
      expect(r.error).to.equal(undefined)
      expect(r.data.content).to.equal('üß')
      expect(keyboardCommands(r.argv).filter((a) => a[0] !== 'input')).to.deep.equal([
        ['ime', 'list', '-a', '-s'],
        ['ime', 'list', '-a', '-s'],
        ['settings', 'get', 'secure', 'default_input_method'],
        broadcastOf('ß'),
      ])
      expect(setting('keyboard')).to.equal(ADB_KEYBOARD)
    } finally {
      device.inputMethods.select(GBOARD)
      device.inputMethods.enabled.delete(ADB_KEYBOARD)
    }
  })

  it('arc doctor says whether non-ASCII typing is available', async () => {
    const capability = async (serial: string) => {
      const r = await run(serial, 'doctor', {})
      return (r.data as unknown as CapabilityReport).capabilities.find((c) => c.id === 'text-input')!
    }
    const yes = await capability('keyboard')
    expect(yes.status).to.equal('yes')
    expect(yes.detail).to.include('ADBKeyBoard')
    const no = await capability('plain')
    expect(no.status).to.equal('partial')
    expect(no.fallback).to.include('arc app install')
  })

  it('pieces of base64 stay within the byte limit and cut only between code points', () => {
    const text = 'a😀é中'.repeat(500)
    const pieces = base64Chunks(text, 100)
    for (const p of pieces) expect(Buffer.from(p, 'base64').length).to.be.at.most(100)
    expect(pieces.map((p) => Buffer.from(p, 'base64').toString('utf8')).join('')).to.equal(text)
    expect(imeIds(`${ADB_KEYBOARD}\r\n${GBOARD}\nError: x\n`)).to.deep.equal([ADB_KEYBOARD, GBOARD])
  })

  it('reads the bound input method from real `dumpsys input_method` captures (Android 7.1-13)', async function () {
    let files: string[]
    try {
      files = await readdir(FIXTURES)
    } catch {
      this.skip()
    }
    expect(files.length).to.be.greaterThan(0)
    for (const file of files) {
      const dump = await readFile(path.join(FIXTURES, file), 'utf8')
      const current = /^\s*mCurId=(\S+)/m.exec(dump)![1] as string
      expect(adbKeyboardBound(dump), file).to.equal(false)
      const ours = dump.replaceAll(current, ADB_KEYBOARD)
      expect(adbKeyboardBound(ours), file).to.equal(true)
      expect(adbKeyboardBound(ours.replace('mBoundToMethod=true', 'mBoundToMethod=false')), file).to.equal(false)
    }
  })
})
