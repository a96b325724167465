/**
 * Deadlines that grow with the work asked: typing paced over many `input` calls, on a device whose every call starts
 * a VM (the android-11 profile), and gestures that play for a while. A short whole-command limit (adb.timeoutMs
 * 1000: 3 s for the command) stands for the 60 s one that 500 characters at typing_speed 3000 used to hit.
 */
import {mkdtemp, rm, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

import {expect} from 'chai'

import {DEMO_DIR, useEmulator} from '@arc-cli/test-support/emulator-support'
import {runArc} from '@arc-cli/test-support/run-arc'

const FIELD = 'dev.arc.demo.groceries:id/new_item'

describe('deadlines grow with the work asked (typing pace, slow input calls, gesture length)', () => {
  const h = useEmulator({
    devices: [],
    scenario: {
      devices: {
        paced: {snapshot: DEMO_DIR},
        // Android 11 whose every `input` starts a VM: 300 ms a call under the tests' time scale (30000 x 0.01).
        slow: {snapshot: DEMO_DIR, profile: 'android-11', timing: {vmStartMs: 30_000}},
      },
    },
  })
  let cwd: string
  before(async () => {
    cwd = await mkdtemp(path.join(os.tmpdir(), 'arc-deadline-'))
    // The whole-command limit becomes 3 x 1000 ms.
    await writeFile(path.join(cwd, '.arcrc.json'), JSON.stringify({adb: {timeoutMs: 1000}}))
  })
  after(() => rm(cwd, {recursive: true, force: true}))

  const run = (serial: string, args: string[]) => runArc(args, {cwd, env: {...h.env, ANDROID_SERIAL: serial}})

  it('typing whose pauses alone outlast the base limit finishes, and the field holds every character', async () => {
    const text = 'p'.repeat(200)
    const r = await run('paced', [
      'type',
      'append',
      '--res-id',
      FIELD,
      text,
      '--typing-speed',
      '400',
      '--typing-speed-variance',
      '0',
      '--json',
    ])
    expect(r.stderr).to.not.match(/TIMEOUT/)
    expect(r.code).to.equal(0)
    expect(JSON.parse(r.stdout)).to.include({typed: 200, content: text})
  })

  it('typing on a device whose every input call is slow finishes: each chunk sent moves the deadline out', async () => {
    // adb.timeoutMs 2000 here: each call's own limit stays well above the 300 ms a call costs, on a loaded machine
    // too (1000 failed there once), and the whole-command limit (6 s) well above the calls before the first chunk
    // ends. 20 chunks of 300 ms and more outlast that limit, so only each chunk's report keeps the command alive.
    const slowCwd = await mkdtemp(path.join(os.tmpdir(), 'arc-deadline-slow-'))
    const text = 's'.repeat(400)
    try {
      await writeFile(path.join(slowCwd, '.arcrc.json'), JSON.stringify({adb: {timeoutMs: 2000}}))
      const r = await runArc(['type', 'append', '--res-id', FIELD, text, '--typing-speed', '10', '--json'], {
        cwd: slowCwd,
        env: {...h.env, ANDROID_SERIAL: 'slow'},
      })
      expect(r.stderr).to.not.match(/TIMEOUT/)
      expect(r.code, r.stdout + r.stderr).to.equal(0)
      expect(JSON.parse(r.stdout)).to.include({typed: 400, content: text})
    } finally {
      await rm(slowCwd, {recursive: true, force: true})
    }
  })

  it('a custom gesture longer than the base limit plays to its end', async () => {
    const paths = JSON.stringify([
      {x: 500, y: 1500, time: 0},
      {x: 500, y: 900, time: 3500},
    ])
    const from = h.emu.commands.length
    const r = await run('paced', ['gesture', '--paths', paths])
    expect(r.stderr).to.not.match(/TIMEOUT/)
    expect(r.code).to.equal(0)
    expect(
      h
        .argvSince(from)
        .filter((a) => a[0] === 'input' && a[1] === 'motionevent')
        .at(-1)?.[2]
    ).to.equal('UP')
  })

  it('a gesture on a device whose input starts a VM per call: few calls, each given a VM start of time', async () => {
    const driver = await h.driver('slow', 1000)
    try {
      const from = h.emu.commands.length
      const method = await driver.gesture([
        [
          {x: 500, y: 1500, time: 0},
          {x: 500, y: 900, time: 1500},
        ],
      ])
      expect(method).to.equal('motionevent')
      const calls = h.argvSince(from).filter((a) => a[0] === 'input' && a[1] === 'motionevent')
      expect(calls.length).to.be.within(2, 11)
      expect(calls.at(-1)?.[2]).to.equal('UP')
    } finally {
      await driver.close()
    }
  })
})
