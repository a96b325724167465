/**
 * `arc test`'s JUnit report (src/flow/report.ts), from results made here: what its totals say about the run.
 */
import {expect} from 'chai'

import {junitXml, type FlowResult} from '../../src/flow/report.js'

const result = (device: string, flow: string, ms: number): FlowResult => ({
  flow,
  file: `${flow}.flow`,
  device,
  passed: true,
  attempts: 1,
  ms,
  steps: [{line: 1, text: 'tap 1 1', status: 0, ms}],
  artifacts: [],
})

/** The `time` attribute of each element named `tag`, in seconds. */
const times = (xml: string, tag: string) =>
  [...xml.matchAll(new RegExp(`<${tag} [^>]*time="([^"]*)"`, 'g'))].map((m) => m[1])

describe("arc test's JUnit report", () => {
  // Three devices ran in parallel for 3 s each: <testsuites time> said 9 s, the sum of the suites, and a CI dashboard
  // showed the run as three times longer than it took.
  it('<testsuites time> is the run’s wall time, not the sum of devices that ran in parallel', () => {
    const results = ['a', 'b', 'c'].flatMap((device) => [result(device, 'login', 1000), result(device, 'add', 2000)])
    const xml = junitXml(results, new Date('2026-11-27T10:00:00Z'), 3250)
    expect(times(xml, 'testsuites')).to.deep.equal(['3.250'])
    // Each device's suite: the time of its own flows, one after the other.
    expect(times(xml, 'testsuite')).to.deep.equal(['3.000', '3.000', '3.000'])
  })
})
