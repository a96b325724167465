// Mocha's settings for every run of the suite. The files are a tier's (scripts/test-tiers.cjs): ARC_TEST_TIER,
// set by `node scripts/run-mocha.js --tier fast|e2e|device` (npm test runs fast, then e2e; npm run test:device the
// device tier); unset, fast and e2e together. The device tier runs one file at a time: a phone serves one
// UiAutomation at a time.
const {tierFiles} = require('./scripts/test-tiers.cjs')

const tier = process.env.ARC_TEST_TIER || 'all'

module.exports = {
  spec: tierFiles(tier),
  extension: ['ts'],
  'node-option': ['import=tsx', 'conditions=arc-source'],
  // Builds dist and proves it current for the tests that spawn arc; the fast tier spawns nothing.
  ...(tier === 'fast' ? {} : {require: ['./packages/test-support/src/built-cli.ts']}),
  parallel: tier !== 'device',
  jobs: 2,
  timeout: tier === 'device' ? 120_000 : 30_000,
  'forbid-only': true,
  reporter: './packages/test-support/src/summary-reporter.cjs',
}
