import {spawn} from 'node:child_process'
import {mkdtemp, readdir} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

import {ArcError, defineTool, MemoryDeviceState, runTool, SnapshotDriver, DEMO_DIR, type DeviceDriver, type RunDeps, z} from '@arc-cli/core'
import {expect} from 'chai'

import {tools} from '../../src/tools/index.js'
import {useEmulator} from '../adb/emulator-support.js'
import {ROOT} from '../support/paths.js'

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
    const error = await failure(runTool(tool('tap'), {input: {x: -1, y: 'a'}}, deps(async () => (opened++, h.driver()))))
    expect(error.code).to.equal('INVALID_INPUT')
    expect(error.message).to.match(/^x: .*; y: /)
    expect(opened).to.equal(0)
  })

  it('says a missing input is required and what it allows, not zod\'s "received undefined"; a wrong one keeps its reason', async () => {
    let opened = 0
    const open = async () => (opened++, h.driver())
    const missing = await failure(runTool(tool('wait_for_idle'), {input: {}}, deps(open)))
    expect(missing.code).to.equal('INVALID_INPUT')
    expect(missing.message).to.equal('timeout is required: How long to wait in milliseconds (1-30000: a wait lasts 30 s at most; to wait longer, run it again)')
    const both = await failure(runTool(tool('tap'), {input: {x: 'a'}}, deps(open)))
    expect(both.message).to.match(/^x: .*expected number, received string; y is required: /)
    expect(opened).to.equal(0)
  })

  it('gives a tool that needs no device a context without a driver, and never opens one', async () => {
    const seen: string[] = []
    const probe = defineTool({
      name: 'probe',
      cliId: 'probe',
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
    const result = await runTool(probe, {input: {}}, deps(() => Promise.reject(new Error('must not open'))))
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
      }),
    )
    expect(result.text).to.equal('Tap executed at (5, 6)')
    expect(closed).to.equal(1)
  })

  it('refuses data that is not a plain object (MCP structured content must be one)', async () => {
    const bad = defineTool({
      name: 'bad',
      cliId: 'bad',
      title: 'bad',
      description: 'bad',
      kind: 'read',
      input: z.object({}),
      async handler() {
        return {text: '[]', data: [] as unknown as object}
      },
    })
    const error = await failure(runTool(bad, {input: {}}, deps(() => SnapshotDriver.open(DEMO_DIR, 'demo'))))
    expect(error.code).to.equal('INTERNAL')
  })

  it('list_apps and list_devices return objects', async () => {
    const apps = await runTool(tool('list_apps'), {input: {}}, deps(() => h.driver()))
    expect(apps.data).to.have.property('apps').that.is.an('array')
    const devices = await runTool(
      tool('list_devices'),
      {input: {}, cliInput: {adb_host: '127.0.0.1', adb_port: h.emu.port}},
      deps(() => Promise.reject(new Error('no device needed'))),
    )
    expect((devices.data as {devices: Array<{serial: string}>}).devices.map((d) => d.serial)).to.deep.equal(['emu-1'])
  })

  it('an abort cuts off the device call in flight, fails CANCELLED at once, and saves nothing', async () => {
    h.emu.device('emu-1').hangNext('input')
    const controller = new AbortController()
    let saved = 0
    const slow = defineTool({
      name: 'slow_tap',
      cliId: 'slow-tap',
      title: 'slow',
      description: 'slow',
      kind: 'action',
      input: z.object({}),
      async handler({driver}) {
        await driver.tap({x: 1, y: 1})
        return {text: 'tapped', save: async () => (saved++, {})}
      },
    })
    const started = Date.now()
    setTimeout(() => controller.abort(), 300)
    const error = await failure(runTool(slow, {input: {}}, deps(() => h.driver('emu-1', 20_000), {signal: controller.signal, save: true})))
    expect(error.code).to.equal('CANCELLED')
    expect(Date.now() - started).to.be.below(5000)
    expect(saved).to.equal(0)
    const deadline = Date.now() + 5000
    while (h.emu.runningShells().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
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
      {cwd, env: {...process.env, NODE_OPTIONS: '', NO_COLOR: '1', ADB_SERVER_SOCKET: `tcp:127.0.0.1:${h.emu.port}`, ANDROID_SERIAL: 'emu-1'}},
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
