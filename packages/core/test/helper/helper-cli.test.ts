/**
 * The helper from the command line, as a user runs arc: a one-shot command through the helper prints what the
 * uiautomator path prints and exits (the helper's stream does not keep it alive, and the device process ends with
 * it); `--helper`, ARC_HELPER and the config's `adb.helper` choose the mode, and a wrong one is refused naming it.
 */
import {spawn} from 'node:child_process'
import {mkdtemp, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {setTimeout as sleep} from 'node:timers/promises'

import {DEMO_DIR, useEmulator} from '@arc-cli/test-support/emulator-support'
import {ROOT} from '@arc-cli/test-support/paths'
import {runArc} from '@arc-cli/test-support/run-arc'
import {expect} from 'chai'

describe('the on-device helper from the command line (arc emulate)', function () {
  this.timeout(60_000)
  const h = useEmulator({devices: [], scenario: {devices: {'emu-1': {snapshot: DEMO_DIR, windowsDump: true}}}})
  const programs = (from: number) => h.argvSince(from).map((argv) => argv.slice(0, 2).join(' '))

  it('screen-state through the helper prints what the uiautomator path prints, then arc and the device process end', async () => {
    const plain = await runArc(['screen-state', '--helper', 'off'], {env: h.env})
    expect(plain.code, plain.stderr).to.equal(0)
    const from = h.emu.commands.length
    const helped = await runArc(['screen-state'], {env: {...h.env, ARC_HELPER: 'auto'}})
    expect(helped.code, helped.stderr).to.equal(0)
    expect(helped.stdout).to.equal(plain.stdout)
    expect(programs(from)).to.include('app_process /')
    expect(programs(from)).to.not.include('uiautomator dump')
    for (let i = 0; i < 500 && h.emu.runningShells().length > 0; i++) await sleep(20)
    expect(h.emu.runningShells()).to.deep.equal([])
    expect(h.emu.device('emu-1').uiAutomationHolder).to.equal(undefined)
  })

  it('with DEBUG=arc* a one-shot command says which backend served and how long, or why the helper did not', async () => {
    const helped = await runArc(['screen-state'], {env: {...h.env, ARC_HELPER: 'auto', DEBUG: 'arc*'}})
    expect(helped.code, helped.stderr).to.equal(0)
    expect(helped.stderr).to.match(/^arc: screen on emu-1 by the on-device helper in \d+ ms$/m)
    h.emu.device('emu-1').hiddenApisMissing.add('uiautomation')
    try {
      const fell = await runArc(['screen-state'], {env: {...h.env, ARC_HELPER: 'auto', DEBUG: 'arc*'}})
      expect(fell.code, fell.stderr).to.equal(0)
      expect(fell.stderr).to.match(
        /^arc: screen on emu-1 by ADB in \d+ ms \(the helper did not serve: UNSUPPORTED: this release lacks the uiautomation API/m
      )
    } finally {
      h.emu.device('emu-1').hiddenApisMissing.clear()
    }
  })

  it('--helper wins over ARC_HELPER, and a mode that is not one is refused naming where it came from', async () => {
    const from = h.emu.commands.length
    const off = await runArc(['screen-state', '--helper', 'off'], {env: {...h.env, ARC_HELPER: 'required'}})
    expect(off.code, off.stderr).to.equal(0)
    expect(programs(from)).to.not.include('app_process /')
    const badEnv = await runArc(['screen-state'], {env: {...h.env, ARC_HELPER: 'sometimes'}})
    expect(badEnv.code).to.equal(3)
    expect(badEnv.stderr).to.match(/ARC_HELPER="sometimes" is not a helper mode; allowed: auto, off, required/)
    const badFlag = await runArc(['screen-state', '--helper', 'sometimes'], {env: h.env})
    expect(badFlag.code).to.equal(2)
    expect(badFlag.stderr).to.match(/--helper/)
  })

  it('ARC_HELPER_HOLD_MS sets how long the helper keeps UiAutomation, and a value that is not a time is refused naming it', async () => {
    const from = h.emu.commands.length
    const held = await runArc(['screen-state'], {env: {...h.env, ARC_HELPER: 'auto', ARC_HELPER_HOLD_MS: '250'}})
    expect(held.code, held.stderr).to.equal(0)
    expect(
      h
        .argvSince(from)
        .find((argv) => argv[0] === 'app_process')
        ?.slice(-2)
    ).to.deep.equal(['--idle-ms', '250'])
    for (const bad of ['-5', '1.5', 'soon', '600001']) {
      const run = await runArc(['screen-state'], {env: {...h.env, ARC_HELPER: 'auto', ARC_HELPER_HOLD_MS: bad}})
      expect(run.code, bad).to.equal(3)
      expect(run.stderr).to.include(`ARC_HELPER_HOLD_MS=${JSON.stringify(bad)} is not a hold time`)
    }
  })

  it('--json says which backend served the read and the screenshot and how long each took; with the helper off, nothing', async () => {
    const read = await runArc(['screen-state', '--json'], {env: {...h.env, ARC_HELPER: 'auto'}})
    expect(read.code, read.stderr).to.equal(0)
    const {backend} = JSON.parse(read.stdout) as {backend?: Record<string, {by: string; ms: number}>}
    expect(Object.keys(backend ?? {})).to.deep.equal(['screen'])
    expect(backend?.screen?.by).to.equal('helper')
    expect(backend?.screen?.ms).to.be.a('number')
    const dir = await mkdtemp(path.join(tmpdir(), 'arc-backend-'))
    try {
      const shot = await runArc(['screenshot', '-o', path.join(dir, 's.png'), '--json'], {
        env: {...h.env, ARC_HELPER: 'auto'},
      })
      expect(shot.code, shot.stderr).to.equal(0)
      expect((JSON.parse(shot.stdout) as {backend: Record<string, {by: string}>}).backend.screenshot?.by).to.equal(
        'helper'
      )
    } finally {
      await rm(dir, {recursive: true, force: true})
    }
    h.emu.device('emu-1').hiddenApisMissing.add('uiautomation')
    try {
      const fell = await runArc(['screen-state', '--json'], {env: {...h.env, ARC_HELPER: 'auto'}})
      const served = (JSON.parse(fell.stdout) as {backend: Record<string, {by: string; fallback?: string}>}).backend
      expect(served.screen?.by).to.equal('adb')
      expect(served.screen?.fallback).to.match(/^UNSUPPORTED: this release lacks the uiautomation API/)
    } finally {
      h.emu.device('emu-1').hiddenApisMissing.clear()
    }
    const off = await runArc(['screen-state', '--json', '--helper', 'off'], {env: h.env})
    expect(JSON.parse(off.stdout)).not.to.have.property('backend')
  })

  it('a batch of taps goes through the helper: no `input tap` shell command, one helper touch per line', async () => {
    const device = h.emu.device('emu-1')
    const from = h.emu.commands.length
    const asked = device.helperRequests.length
    const before = device.inputEvents.length
    const script = Array.from({length: 5}, (_, i) => `tap ${10 + i} 20`).join('\n')
    const run = await runArc(['batch', '--quiet'], {env: {...h.env, ARC_HELPER: 'auto'}, input: script})
    expect(run.code, run.stderr).to.equal(0)
    expect(programs(from).filter((p) => p.startsWith('input') || p === 'dumpsys power')).to.deep.equal([])
    expect(device.helperRequests.slice(asked)).to.deep.equal(
      Array.from({length: 5}, (_, i) => ['tap', String(10 + i), '20'])
    )
    expect(device.inputEvents.slice(before)).to.deep.equal(
      Array.from({length: 5}, (_, i) => ({type: 'tap', x: 10 + i, y: 20}))
    )
  })

  it('arc test is a resident host too: a flow’s taps go through the helper', async () => {
    const device = h.emu.device('emu-1')
    const dir = await mkdtemp(path.join(tmpdir(), 'arc-flow-taps-'))
    try {
      const flow = path.join(dir, 'taps.flow')
      await writeFile(flow, 'tap 30 40\ntap 31 40\n')
      const from = h.emu.commands.length
      const asked = device.helperRequests.length
      const run = await runArc(['test', flow], {env: {...h.env, ARC_HELPER: 'auto'}})
      expect(run.code, run.stderr).to.equal(0)
      expect(programs(from).filter((p) => p.startsWith('input'))).to.deep.equal([])
      expect(device.helperRequests.slice(asked).filter((r) => r[0] === 'tap')).to.deep.equal([
        ['tap', '30', '40'],
        ['tap', '31', '40'],
      ])
    } finally {
      await rm(dir, {recursive: true, force: true})
    }
  })

  it('with the helper off, and in a one-shot `arc tap`, a tap is still one `input tap` (no helper started for it)', async () => {
    const device = h.emu.device('emu-1')
    for (const [args, env, input] of [
      [['batch', '--quiet'], {ARC_HELPER: 'off'}, 'tap 10 20\ntap 11 20\n'],
      [['batch', '--quiet'], {ARC_HELPER: 'auto'}, 'tap 10 20 --helper off\ntap 11 20 --helper off\n'],
      [['tap', '10', '20'], {ARC_HELPER: 'auto'}, undefined],
    ] as const) {
      const from = h.emu.commands.length
      const asked = device.helperRequests.length
      const run = await runArc([...args], {env: {...h.env, ...env}, ...(input === undefined ? {} : {input})})
      expect(run.code, run.stderr).to.equal(0)
      const taps = args[0] === 'tap' ? 1 : 2
      expect(
        programs(from).filter((p) => p.startsWith('input')),
        args.join(' ')
      ).to.deep.equal(Array.from({length: taps}, () => 'input tap'))
      expect(programs(from), args.join(' ')).to.not.include('app_process /')
      expect(device.helperRequests.length, args.join(' ')).to.equal(asked)
    }
  })

  it('clipboard set and get work from the command line through the helper', async () => {
    const set = await runArc(['clipboard', 'set', 'héllo 👍', '--json'], {env: {...h.env, ARC_HELPER: 'auto'}})
    expect(set.code, set.stderr).to.equal(0)
    // Characters as the typing tools count them, by code point: 👍 is one, not its two UTF-16 halves.
    expect((JSON.parse(set.stdout) as {characters: number}).characters).to.equal(7)
    const get = await runArc(['clipboard', 'get', '--json'], {env: {...h.env, ARC_HELPER: 'auto'}})
    expect(get.code, get.stderr).to.equal(0)
    expect(JSON.stringify(JSON.parse(get.stdout))).to.contain('héllo 👍')
  })

  it('Ctrl-C during a two-finger gesture through the helper ends arc (130) and the helper on the device', async () => {
    const device = h.emu.device('emu-1')
    const before = device.inputEvents.length
    const finger = (x: number) =>
      JSON.stringify([
        {x, y: 900, time: 0},
        {x: x + 100, y: 900, time: 8000},
      ])
    const child = spawn(
      process.execPath,
      [path.join(ROOT, 'bin', 'run.js'), 'gesture', '--paths', finger(300), '--paths', finger(700)],
      {
        env: {...process.env, NODE_OPTIONS: '', NO_COLOR: '1', ...h.env, ARC_HELPER: 'auto'},
      }
    )
    let stderr = ''
    child.stderr.on('data', (d) => (stderr += d))
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
    // The helper has both fingers down: the gesture is under way on the device.
    for (
      let i = 0;
      i < 500 && !device.inputEvents.slice(before).some((e) => e.type === 'touch' && e.action === 'POINTER_DOWN');
      i++
    )
      await sleep(20)
    expect(device.inputEvents.slice(before).map((e) => (e.type === 'touch' ? e.action : e.type))).to.deep.equal([
      'DOWN',
      'POINTER_DOWN',
    ])
    child.kill('SIGINT')
    expect(await exited, stderr).to.equal(130)
    for (let i = 0; i < 500 && h.emu.runningShells().length > 0; i++) await sleep(20)
    expect(h.emu.runningShells()).to.deep.equal([])
    // arc did not wait for the gesture's own 8 s: no finger lifted (no UP), the helper saw arc's stream end and
    // cancelled the fingers still down (one ACTION_CANCEL, as the helper's Server.java does), then ended. Read once the
    // helper's shell has ended: the cancel is recorded when it sees the stream end, which may come after arc exits.
    expect(device.inputEvents.slice(before).map((e) => (e.type === 'touch' ? e.action : e.type))).to.deep.equal([
      'DOWN',
      'POINTER_DOWN',
      'CANCEL',
    ])
  })
})
