import {readdirSync} from 'node:fs'
import path from 'node:path'

import {DEMO_DIR} from '@arc-cli/core'
import {expect} from 'chai'

import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {ROOT} from '@arc-cli/test-support/paths'
import {runProgram} from '@arc-cli/test-support/run-arc'

function phoneCheck(args: string[], env: NodeJS.ProcessEnv) {
  return runProgram(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/phone-check.ts'), ...args], {
    cwd: ROOT,
    env: {...process.env, NODE_OPTIONS: '', ...env},
  })
}

/** `npm run phone-check` against `arc emulate`: the report a person pastes into an issue, made from a virtual phone. */
describe('npm run phone-check against arc emulate', function () {
  this.timeout(120_000)
  const h = useEmulator({
    devices: [],
    scenario: {devices: {pixel: {snapshot: DEMO_DIR}, redmi: {snapshot: DEMO_DIR, profile: 'xiaomi'}}},
  })

  it('reports version, costs, backends, a timed read, two reads at once, power, screenshot, tap, typing, noise and users', async () => {
    const run = await phoneCheck(['--device', 'pixel'], h.env)
    expect(run.code, run.stderr).to.equal(0)
    const report = run.stdout
    expect(report).to.match(/^## arc phone check: arc emulated device, Android 14 \(API 34\)\n/)
    for (const check of [
      /^\| input accepted \(`arc doctor` presses left Shift\) \| yes: /m,
      /^\| per-call costs \(`arc doctor`\) \| screen read \d+ ms, one input call \d+ ms \|$/m,
      /^\| backends \| ui-dump: uiautomator dump --windows; input: input \(cmd input, in system_server\);/m,
      /^\| screen read \(`arc screen-state`, whole process\) \| \d+ ms, ok, \d+ windows \|$/m,
      /^\| on-device helper \(`arc doctor`\) \| no: arc's on-device helper is off/m,
      /^\| screen read over uiautomator \(`--helper off`, whole process\) \| \d+ ms, ok \|$/m,
      /^\| two screen reads at once \| first ok \(\d+ ms\); second ok \(\d+ ms\) \|$/m,
      /^\| display power \(`dumpsys power`\) \| Awake \|$/m,
      /^\| annotated screenshot \| not black \|$/m,
      /^\| plain screenshot \(`arc screenshot`, whole process\) \| \d+ ms, ok, \d+x\d+ \|$/m,
      /^\| tap at \(0, 0\) \(whole process\) \| \d+ ms, ok \|$/m,
      /^\| typing 50 letters \(`input text`, whole process\) \| \d+ ms, ok \|$/m,
      /^\| output of a silent `input keyevent` \| none \|$/m,
      /^\| users \(`pm list users`\) \| /m,
    ]) {
      expect(report).to.match(check)
    }
    expect(h.emu.device('pixel').inputEvents.filter((e) => e.type === 'tap')).to.deep.equal([{type: 'tap', x: 0, y: 0}])
    // The annotated screenshot it takes is not left behind in the clone (it once was, as <device>_<time>.jpg).
    expect(readdirSync(ROOT).filter((f) => f.startsWith('pixel_') && f.endsWith('.jpg'))).to.deep.equal([])
  })

  it('with the helper on, reports that it runs, one read through it, and the read over uiautomator beside it', async () => {
    const run = await phoneCheck(['--device', 'pixel'], {...h.env, ARC_HELPER: 'auto'})
    expect(run.code, run.stderr).to.equal(0)
    expect(run.stdout).to.match(
      /^\| on-device helper \(`arc doctor`\) \| yes: arc's on-device helper runs \(app_process, API 34; started in \d+ ms/m
    )
    expect(run.stdout).to.match(
      /^\| one read through the helper \(`arc doctor`\) \| yes: every window through UiAutomation in \d+ ms, no idle wait \(it waits after an action\) \|$/m
    )
    expect(run.stdout).to.match(/^\| screen read over uiautomator \(`--helper off`, whole process\) \| \d+ ms, ok \|$/m)
    // Which backend served the read and the plain screenshot, from their --json `backend`.
    expect(run.stdout).to.match(
      /^\| screen read \(`arc screen-state`, whole process\) \| \d+ ms, ok, \d+ windows; served by the on-device helper in \d+ ms \|$/m
    )
    expect(run.stdout).to.match(
      /^\| plain screenshot \(`arc screenshot`, whole process\) \| \d+ ms, ok, \d+x\d+; served by the on-device helper in \d+ ms \|$/m
    )
  })

  it('on a Xiaomi phone that refuses input the report names the setting, and the tap and typing failures', async () => {
    const run = await phoneCheck(['--device', 'redmi'], h.env)
    expect(run.code, run.stderr).to.equal(0)
    expect(run.stdout).to.match(
      /^\| input accepted .*\| no: input is refused: .*INJECT_EVENTS.*USB debugging \(Security settings\)/m
    )
    expect(run.stdout).to.match(
      /^\| tap at \(0, 0\) \(whole process\) \| \d+ ms, exit 8: Error \[DEVICE_COMMAND_FAILED\]: input tap 0 0 was refused on redmi/m
    )
    expect(run.stdout).to.match(/^\| per-call costs .*one input call failed ms|one input call failed/m)
  })

  it('a device arc cannot reach: exit 1 with the reason; a bad argument: exit 2', async () => {
    const gone = await phoneCheck(['--device', 'nope'], h.env)
    expect(gone.code).to.equal(1)
    expect(gone.stderr).to.match(/^phone-check: arc doctor failed \(exit 4: /)
    const bad = await phoneCheck(['--wat'], h.env)
    expect(bad.code).to.equal(2)
    expect(bad.stderr).to.include('unknown argument "--wat" (allowed: --device SERIAL)')
  })
})
