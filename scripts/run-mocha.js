#!/usr/bin/env node
// Runs mocha with TMPDIR set to a folder of this run's own, deleted when mocha ends: whatever temporary folders the
// tests (and the arc processes and emulators they start) make and forget, nothing is left in the system's temp
// folder. The folder is world-writable with the sticky bit, as /tmp is, since some tests run arc as another user.
// Emulated devices run their waits (uiautomator's idle wait, VM starts) at 1/100 of a phone's times
// (ARC_EMULATE_TIME_SCALE, unless set), and arc's on-device helper is off (ARC_HELPER, unless set): the suites test
// the ADB path, and the helper's own suites choose their mode. An `arc server` a test starts serves only the arc
// processes that test points at it (ARC_SERVER=off, unless set: test/cli/server.test.ts unsets it for its own). `--tier fast|e2e|device|all`, first, picks the files
// (ARC_TEST_TIER, read by .mocharc.cjs; scripts/test-tiers.cjs). Other arguments go to mocha as they are; its exit
// status is this script's.
import {spawnSync} from 'node:child_process'
import {chmodSync, mkdtempSync, rmSync} from 'node:fs'
import {createRequire} from 'node:module'
import os from 'node:os'
import path from 'node:path'

const require = createRequire(import.meta.url)
const mocha = require.resolve('mocha/bin/mocha.js')
const {TIERS} = require('./test-tiers.cjs')
let args = process.argv.slice(2)
const tierEnv = {}
if (args[0] === '--tier') {
  if (!TIERS.includes(args[1])) {
    console.error(`run-mocha: --tier must be one of ${TIERS.join(', ')}, not ${JSON.stringify(args[1] ?? '')}`)
    process.exit(2)
  }
  tierEnv.ARC_TEST_TIER = args[1]
  args = args.slice(2)
}
const dir = mkdtempSync(path.join(os.tmpdir(), 'arc-tests-'))
chmodSync(dir, 0o1777)
const run = spawnSync(process.execPath, [mocha, ...args], {
  stdio: 'inherit',
  env: {ARC_EMULATE_TIME_SCALE: '0.01', ARC_HELPER: 'off', ARC_SERVER: 'off', ...process.env, ...tierEnv, TMPDIR: dir},
})
rmSync(dir, {recursive: true, force: true})
if (run.error) throw run.error
process.exit(run.status ?? 1)
