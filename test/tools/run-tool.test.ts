import {spawn} from 'node:child_process'
import {mkdtemp, readdir} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

import {
  ArcError,
  defineTool,
  describeInputIssues,
  inputJsonSchema,
  MemoryDeviceState,
  runTool,
  openSnapshot,
  DEMO_DIR,
  snapshotBackend,
  type AnyTool,
  type DeviceDriver,
  type RunDeps,
  z,
  inputSchema,
} from '@arc-cli/core'
import {tools as annotateTools} from '@arc-cli/plugin-annotate'
import {tools as screenStateTools} from '@arc-cli/plugin-screen-state'
import {expect} from 'chai'

import {tools} from '../../src/tools/index.js'
import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {ROOT} from '@arc-cli/test-support/paths'

const tool = (name: string) => tools.find((t) => t.name === name)!

async function failure(promise: Promise<unknown>): Promise<ArcError> {
  try {
    await promise
  } catch (error) {
    if (error instanceof ArcError) return error
    throw error
  }
  throw new Error('expected a failure')
}

function deps(openDriver: () => Promise<DeviceDriver>, extra: Partial<RunDeps> = {}): RunDeps {
  return {config: {}, cwd: process.cwd(), openDriver, stateFor: () => new MemoryDeviceState(), ...extra}
}

describe('runTool: the tool runner no surface owns', () => {
  const h = useEmulator()

  it('validates the input with the tool schema before opening any device, naming the field', async () => {
    let opened = 0
    const error = await failure(
      runTool(
        tool('tap'),
        {input: {x: -1, y: 'a'}},
        deps(async () => (opened++, h.driver()))
      )
    )
    expect(error.code).to.equal('INVALID_INPUT')
    expect(error.message).to.match(/^x must be at least 0 \(got -1\): .*; y must be a number \(got "a"\)/)
    expect(opened).to.equal(0)
  })

  it('says a missing input is required and what it allows, not zod\'s "received undefined"; a wrong one keeps its reason', async () => {
    let opened = 0
    const open = async () => (opened++, h.driver())
    const missing = await failure(runTool(tool('wait_for_idle'), {input: {}}, deps(open)))
    expect(missing.code).to.equal('INVALID_INPUT')
    expect(missing.message).to.equal(
      'timeout is required: How long to wait in milliseconds (1-30000: a wait lasts 30 s at most; to wait longer, run it again)'
    )
    const both = await failure(runTool(tool('tap'), {input: {x: 'a'}}, deps(open)))
    expect(both.message).to.match(/^x must be a number \(got "a"\): .*; y is required: /)
    expect(opened).to.equal(0)
  })

  describe("input errors in arc's words: the field, what it allows, what was given", () => {
    const never = () => Promise.reject(new Error('validation must fail first'))
    const mcp = async (name: string, input: Record<string, unknown>) =>
      (await failure(runTool(tool(name), {input}, deps(never)))).message
    const insert = {element_id: 'node_abcdef', text: 'hi'}

    it('each issue kind the tool schemas produce, named by field as MCP sends it', async () => {
      // Numbers: a bound (the description follows, saying the range), a whole number, a type.
      expect(await mcp('type_insert_text', {...insert, offset: -1})).to.equal(
        'offset must be at least 0 (got -1): 0-based offset for the cursor in code points (an emoji is one or more), within [0, current text length]'
      )
      expect(await mcp('get_device_logs', {last_lines: 1001})).to.equal(
        'last_lines must be at most 1000 (got 1001): Number of most recent log lines to return (1-1000)'
      )
      expect(await mcp('swipe', {x1: 1, y1: 1, x2: 2, y2: 2, duration: 1.5})).to.match(
        /^duration must be a whole number \(got 1\.5\): Swipe duration/
      )
      expect(await mcp('tap', {x: true, y: 1})).to.match(/^x must be a number \(got true\)/)
      // Text: empty, too long (its length, never the whole text back).
      expect(await mcp('type_append_text', {element_id: 'node_abcdef', text: ''})).to.equal(
        'text must not be empty: Text to type (1-2000 characters; non-ASCII needs ADBKeyBoard)'
      )
      expect(await mcp('type_append_text', {element_id: 'node_abcdef', text: 'x'.repeat(2001)})).to.match(
        /^text must have at most 2000 characters \(got 2001 characters\): Text to type/
      )
      expect(await mcp('type_append_text', {element_id: 'node_abcdef', text: 5})).to.match(
        /^text must be text \(got 5\)/
      )
      // Lists: empty; an item by its index.
      expect(await mcp('get_element_details', {ids: []})).to.equal(
        'ids must not be empty: Element ids to look up (from screen-state)'
      )
      expect(await mcp('get_element_details', {ids: ['node_abcdef', '']})).to.equal('ids[1] must not be empty')
      // A choice: what is allowed and what came.
      expect(await mcp('find_elements', {by: 'label', value: 'x'})).to.equal(
        'by must be one of text, content_desc, resource_id, class_name (got "label"): Search criteria: text, content_desc, resource_id or class_name'
      )
      expect(await mcp('find_elements', {by: 'text', value: 'x', exact_match: 'yes'})).to.match(
        /^exact_match must be true or false \(got "yes"\)/
      )
      // Inside a gesture's paths: where, and an unknown key; a refinement keeps its own sentence.
      const points = (...xs: Array<Record<string, unknown>>) => xs.map((p, i) => ({x: 1, y: 1, time: i * 10, ...p}))
      expect(await mcp('custom_gesture', {paths: [points({x: -1}, {z: 3})]})).to.equal(
        'paths[0][0].x must be at least 0 (got -1); paths[0][1] has a key it does not take: "z"'
      )
      expect(await mcp('custom_gesture', {paths: [points({}, {time: 0})]})).to.equal(
        'paths[0][1].time: time must increase strictly within a path (0 after 0)'
      )
      expect(await mcp('custom_gesture', {paths: []})).to.match(/^paths must not be empty: /)
      // A schema's own message: a pattern's reason, a refinement's, and one worded to follow the name.
      expect(await mcp('get_device_logs', {package_name: '$(id)'})).to.equal(
        'package_name: expected a package id like com.example.app'
      )
      expect(await mcp('wait_for_idle', {timeout: 30_001})).to.equal(
        'timeout must be at most 30000: a wait lasts 30 s at most; to wait longer, run it again'
      )
    })

    it('kinds no tool uses yet are worded too: exclusive bounds, exact and maximum counts, a prefix, a multiple, a union', async () => {
      const probe = defineTool({
        name: 'probe_issues',
        cli: {id: 'probe-issues'},
        title: 'probe',
        description: 'probe',
        kind: 'read',
        needsDevice: false,
        input: z.object({
          above: z.number().gt(0).optional().describe('Above zero'),
          below: z.number().lt(10).optional().describe('Below ten'),
          pair: z.array(z.string()).length(2).optional().describe('Two words'),
          few: z.array(z.string()).max(2).optional().describe('At most two'),
          id: z.string().startsWith('node_').optional().describe('An id'),
          step: z.number().multipleOf(5).optional().describe('Fives'),
          either: z
            .union([z.literal('auto'), z.number()])
            .optional()
            .describe('auto or a number'),
          code: z
            .string()
            .regex(/^[a-z]+$/)
            .optional()
            .describe('Lower-case letters'),
        }),
        async handler() {
          return {text: 'ok'}
        },
      })
      const message = async (input: Record<string, unknown>) =>
        (await failure(runTool(probe, {input}, deps(never)))).message
      expect(await message({above: 0})).to.equal('above must be greater than 0 (got 0): Above zero')
      expect(await message({below: 10})).to.equal('below must be less than 10 (got 10): Below ten')
      expect(await message({pair: ['a']})).to.equal('pair must have exactly 2 items (got 1 item): Two words')
      expect(await message({few: ['a', 'b', 'c']})).to.equal('few must have at most 2 items (got 3 items): At most two')
      expect(await message({id: 'x'})).to.equal('id must start with "node_" (got "x"): An id')
      expect(await message({step: 7})).to.equal('step must be a multiple of 5 (got 7): Fives')
      expect(await message({either: 'x'})).to.equal(
        'either must be "auto" (got "x") or must be a number (got "x"): auto or a number'
      )
      expect(await message({code: 'A'})).to.equal('code must match /^[a-z]+$/ (got "A"): Lower-case letters')
    })

    it("no tool input error, on either surface, shows zod's own words, and each names its field", async () => {
      const every: AnyTool[] = [...tools, ...screenStateTools, ...annotateTools]
      const ZOD_WORDS =
        /Too (small|big)|Invalid (input|option|string)|expected [a-z]+, received|to (be|have) [<>]|Unrecognized key/
      let checked = 0
      for (const t of every) {
        const positional = t.cli?.positional ?? []
        // Each surface's own form of the inputs: the command line's overrides (`--timeout 2m`, no 30 s cap) there.
        for (const [surface, props] of [
          ['mcp', inputJsonSchema(t.input).properties ?? {}],
          ['cli', inputJsonSchema(inputSchema(t, true)).properties ?? {}],
        ] as const) {
          for (const [field, prop] of Object.entries(props)) {
            const p = prop as {
              type?: string
              minimum?: number
              maximum?: number
              minLength?: number
              maxLength?: number
              minItems?: number
              enum?: unknown[]
            }
            const bad: unknown[] = [p.type === 'string' || p.enum ? 5 : 'x']
            if (p.type === 'integer') bad.push(1.5)
            if (p.minimum !== undefined) bad.push(p.minimum - 1)
            if (p.maximum !== undefined && p.maximum < Number.MAX_SAFE_INTEGER) bad.push(p.maximum + 1)
            if (p.minLength) bad.push('')
            if (p.maxLength !== undefined) bad.push('x'.repeat(p.maxLength + 1))
            if (p.minItems) bad.push([])
            if (p.enum) bad.push('\u0000not-an-option')
            for (const value of bad) {
              {
                const [name, describe] =
                  surface === 'mcp'
                    ? [field, undefined]
                    : [
                        positional.includes(field) ? `argument <${field}>` : `--${field.replaceAll('_', '-')}`,
                        (e: z.ZodError, s: z.ZodObject) => describeInputIssues(e, positional, s),
                      ]
                const error = await failure(
                  runTool(
                    t,
                    {input: {[field]: value}, ...(surface === 'cli' ? {cliInput: {}} : {})},
                    deps(never, describe ? {describeIssues: describe} : {})
                  )
                )
                const what = `${t.name} ${field}=${JSON.stringify(value)} (${surface})`
                expect(error.code, what).to.equal('INVALID_INPUT')
                const part = error.message.split('; ').find((m) => m.startsWith(name))
                expect(part, `${what}: ${error.message}`).to.match(
                  new RegExp(`^${name.replace(/[<>[\]]/g, '\\$&')}( must | has |: )`)
                )
                expect(error.message, what).to.not.match(ZOD_WORDS)
                checked++
              }
            }
          }
        }
      }
      expect(checked).to.be.above(200)
    })
  })

  it('gives a tool that needs no device a context without a driver, and never opens one', async () => {
    const seen: string[] = []
    const probe = defineTool({
      name: 'probe',
      cli: {id: 'probe'},
      title: 'probe',
      description: 'probe',
      kind: 'read',
      needsDevice: false,
      input: z.object({}),
      async handler(ctx) {
        seen.push(...Object.keys(ctx))
        return {text: 'ok', data: {ok: true}}
      },
    })
    const result = await runTool(
      probe,
      {input: {}},
      deps(() => Promise.reject(new Error('must not open')))
    )
    expect(result.text).to.equal('ok')
    expect(seen).to.not.include('driver').and.not.include('state')
  })

  it('runs a device tool and closes its driver', async () => {
    let driver: DeviceDriver | undefined
    let closed = 0
    const result = await runTool(
      tool('tap'),
      {input: {x: 5, y: 6}},
      deps(async () => {
        driver = await h.driver()
        const close = driver.close.bind(driver)
        driver.close = async () => (closed++, close())
        return driver
      })
    )
    expect(result.text).to.equal('Tap executed at (5, 6)')
    expect(closed).to.equal(1)
  })

  it('refuses what a recorded snapshot cannot do before opening it: actions DEVICE_READ_ONLY, missing reads UNSUPPORTED', async () => {
    let opened = 0
    const open = async () => (opened++, openSnapshot(DEMO_DIR, 'demo'))
    const backend = snapshotBackend('demo')
    const tap = await failure(runTool(tool('tap'), {input: {x: 1, y: 2}}, deps(open, {backend})))
    expect([tap.code, tap.message]).to.deep.equal([
      'DEVICE_READ_ONLY',
      'recorded device is read-only: cannot tap, swipe, press keys or type text on demo',
    ])
    expect(tap.actions).to.deep.equal(['Run the command against a live device (--device SERIAL) or `arc emulate`.'])
    const clear = await failure(
      runTool(tool('get_device_logs'), {input: {}, cliInput: {clear: true}}, deps(open, {backend}))
    )
    expect([clear.code, clear.message]).to.deep.equal([
      'DEVICE_READ_ONLY',
      'recorded device is read-only: cannot clear the device logs on demo',
    ])
    const logs = await failure(runTool(tool('get_device_logs'), {input: {}}, deps(open, {backend})))
    expect([logs.code, logs.message]).to.deep.equal(['UNSUPPORTED', 'a recorded snapshot has no device logs (demo)'])
    const setRotation = await failure(runTool(tool('rotation'), {input: {set: '90'}}, deps(open, {backend})))
    expect(setRotation.code).to.equal('DEVICE_READ_ONLY')
    expect(opened).to.equal(0)
    // What it serves runs: the rotation read (the same tool, without a value) and the screen.
    expect((await runTool(tool('rotation'), {input: {}}, deps(open, {backend}))).text).to.match(/^Rotation: \d+°/)
    expect(
      (await runTool(tool('find_elements'), {input: {by: 'text', value: 'zz-no-such'}}, deps(open, {backend}))).data
    ).to.have.property('elements')
    expect(opened).to.equal(2)
  })

  it('gives a handler only the capabilities its tool declared: anything else fails INTERNAL and reaches no device', async () => {
    const sneaky = defineTool({
      name: 'sneaky',
      cli: {id: 'sneaky'},
      title: 'sneaky',
      description: 'declares a read of the screen, then taps',
      kind: 'read',
      needs: {screen: 'read', input: 'read'},
      input: z.object({}),
      async handler({driver}) {
        await driver.tap({x: 1, y: 1})
        return {text: 'tapped'}
      },
    })
    const from = h.emu.commands.length
    const error = await failure(
      runTool(
        sneaky,
        {input: {}},
        deps(() => h.driver())
      )
    )
    expect(error.code).to.equal('INTERNAL')
    expect(error.message).to.equal("tool sneaky called tap without declaring it: needs.input must be 'act'")
    expect(h.argvSince(from).filter((argv) => argv[0] === 'input')).to.deep.equal([])
  })

  it('refuses a result field outside text, data, image and cli (a CLI field at the top would be dropped unseen)', async () => {
    const make = (result: object) =>
      defineTool({
        name: 'stray',
        cli: {id: 'stray'},
        title: 'stray',
        description: 'stray',
        kind: 'read',
        needs: {screen: 'read'},
        input: z.object({}),
        async handler() {
          return result as {text: string}
        },
      })
    const top = await failure(
      runTool(
        make({text: 'x', human: 'y'}),
        {input: {}},
        deps(() => openSnapshot(DEMO_DIR, 'demo'))
      )
    )
    expect([top.code, top.message]).to.deep.equal([
      'INTERNAL',
      'tool stray returned a result field "human" no surface reads',
    ])
    const inCli = await failure(
      runTool(
        make({text: 'x', cli: {humna: 'y'}}),
        {input: {}},
        deps(() => openSnapshot(DEMO_DIR, 'demo'))
      )
    )
    expect([inCli.code, inCli.message]).to.deep.equal([
      'INTERNAL',
      'tool stray returned a cli field "humna" the CLI does not read',
    ])
    const fine = await runTool(
      make({text: 'x', cli: {human: 'y'}}),
      {input: {}},
      deps(() => openSnapshot(DEMO_DIR, 'demo'))
    )
    expect(fine.cli?.human).to.equal('y')
  })

  it('refuses data that is not a plain object (MCP structured content must be one)', async () => {
    const bad = defineTool({
      name: 'bad',
      cli: {id: 'bad'},
      title: 'bad',
      description: 'bad',
      kind: 'read',
      needs: {screen: 'read'},
      input: z.object({}),
      async handler() {
        return {text: '[]', data: [] as unknown as object}
      },
    })
    const error = await failure(
      runTool(
        bad,
        {input: {}},
        deps(() => openSnapshot(DEMO_DIR, 'demo'))
      )
    )
    expect(error.code).to.equal('INTERNAL')
  })

  it('list_apps and list_devices return objects', async () => {
    const apps = await runTool(
      tool('list_apps'),
      {input: {}},
      deps(() => h.driver())
    )
    expect(apps.data).to.have.property('apps').that.is.an('array')
    const devices = await runTool(
      tool('list_devices'),
      {input: {}, cliInput: {adb_host: '127.0.0.1', adb_port: h.emu.port}},
      deps(() => Promise.reject(new Error('no device needed')))
    )
    expect((devices.data as {devices: Array<{serial: string}>}).devices.map((d) => d.serial)).to.deep.equal(['emu-1'])
  })

  it('an abort cuts off the device call in flight, fails CANCELLED at once, and saves nothing', async () => {
    // The tap's `input` is held on the device, never let go, and the driver's own limit is an hour: only the abort,
    // sent once the call is in flight on the device, can end the call.
    const held = h.emu.device('emu-1').holdNext('input')
    const controller = new AbortController()
    let saved = 0
    const slow = defineTool({
      name: 'slow_tap',
      cli: {id: 'slow-tap'},
      title: 'slow',
      description: 'slow',
      kind: 'action',
      needs: {input: 'act'},
      input: z.object({}),
      async handler({driver}) {
        await driver.tap({x: 1, y: 1})
        return {text: 'tapped', save: async () => (saved++, {})}
      },
    })
    void held.arrived.then(() => controller.abort())
    const error = await failure(
      runTool(
        slow,
        {input: {}},
        deps(() => h.driver('emu-1', 3_600_000), {signal: controller.signal, save: true})
      )
    )
    expect(error.code).to.equal('CANCELLED')
    expect(saved).to.equal(0)
    // The device's shell ends with its connection (the test's own time limit bounds this wait).
    while (h.emu.runningShells().length > 0) await new Promise((r) => setTimeout(r, 20))
    expect(h.emu.runningShells()).to.deep.equal([])
  })

  it('Ctrl-C on the CLI ends a hung command with exit 130 and CANCELLED, writing no file', async function () {
    this.timeout(60_000)
    h.emu.device('emu-1').hangNext('uiautomator')
    const from = h.emu.commands.length
    const cwd = await mkdtemp(path.join(os.tmpdir(), 'arc-sigint-'))
    const child = spawn(
      process.execPath,
      ['--conditions=arc-source', path.join(ROOT, 'bin', 'dev.js'), 'annotate', '-o', 'shot.jpg'],
      {
        cwd,
        env: {
          ...process.env,
          NODE_OPTIONS: '',
          NO_COLOR: '1',
          ADB_SERVER_SOCKET: `tcp:127.0.0.1:${h.emu.port}`,
          ANDROID_SERIAL: 'emu-1',
        },
      }
    )
    let stderr = ''
    child.stderr.on('data', (d) => (stderr += d))
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve))
    const deadline = Date.now() + 45_000
    while (!h.argvSince(from).some((argv) => argv[0] === 'uiautomator') && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50))
    }
    child.kill('SIGINT')
    expect(await exited).to.equal(130)
    expect(stderr).to.include('[CANCELLED]')
    expect(await readdir(cwd)).to.deep.equal([])
  })
})
