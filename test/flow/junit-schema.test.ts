import {readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'

import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {junitSchemaProblems} from '@arc-cli/test-support/junit-schema'
import {runArc} from '@arc-cli/test-support/run-arc'
import {expect} from 'chai'

const VALID = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<testsuites name="x" tests="1" failures="1" errors="0" time="1.250">',
  '  <testsuite name="emu" tests="1" failures="1" errors="0" skipped="0" time="1,234.5" timestamp="2026-11-26T12:00:00">',
  '    <testcase name="a" classname="emu.a" time="0.1"><failure message="m &amp; &lt;x&gt;" type="T">text</failure>',
  '      <system-out>one &#10; two</system-out></testcase>',
  '  </testsuite>',
  '</testsuites>',
].join('\n')

describe('JUnit report: the schema CI systems validate with (Jenkins xUnit junit-10.xsd)', function () {
  this.timeout(120_000)

  it('the checker accepts a valid report and names each thing the schema refuses', () => {
    expect(junitSchemaProblems(VALID)).to.deep.equal([])
    const bad = (from: string, to: string) => junitSchemaProblems(VALID.replace(from, to))
    expect(bad('classname="emu.a"', 'classname="emu.a" file="a.flow"')).to.deep.equal([
      '/testsuites/testsuite/testcase: attribute file is not in the schema',
    ])
    expect(bad('<testcase name="a"', '<testcase')).to.deep.equal([
      '/testsuites/testsuite/testcase: missing the required attribute name',
    ])
    expect(bad('time="1,234.5"', 'time="1.2s"')).to.deep.equal([
      '/testsuites/testsuite@time: "1.2s" does not match SUREFIRE_TIME',
    ])
    expect(bad('<system-out>', '<step/><system-out>')).to.deep.equal([
      '/testsuites/testsuite/testcase/step: not allowed inside testcase',
    ])
    expect(bad('errors="0" time="1.250">', 'errors="0" skipped="0" time="1.250">')).to.deep.equal([
      '/testsuites: attribute skipped is not in the schema',
    ])
    expect(bad('m &amp; ', 'm & ')).to.deep.equal([
      "/testsuites/testsuite/testcase/failure@message: a '&' that starts no reference",
    ])
    expect(bad('</testsuite>', '</testsuites>')[0]).to.equal('/testsuites/testsuite: closed by </testsuites>')
    expect(bad('one', 'one \u0001')).to.include('document: holds characters XML 1.0 does not allow')
  })

  const h = useEmulator({
    devices: [
      {serial: 'emu-1', app: 'demo'},
      {serial: 'emu-2', app: 'demo'},
    ],
  })

  it('arc test writes junit.xml the schema accepts: passes, failures with hostile text, several devices', async () => {
    const write = async (name: string, text: string) => {
      const file = path.join(h.dir, name)
      await writeFile(file, text)
      return file
    }
    const pass = await write('adds a row.flow', 'type append --res-id new_item Milk\nclick --text ADD --exact-match\n')
    const fail = await write('ugly <&"\'>.flow', `assert visible --text '<&"\\x01 ]]> 👍' --exact-match\n`)
    const report = path.join(h.dir, 'report')
    const run = await runArc(['test', pass, fail, '-d', 'emu-1', '-d', 'emu-2', '--report-dir', report], {env: h.env})
    expect(run.code).to.equal(23)
    const xml = await readFile(path.join(report, 'junit.xml'), 'utf8')
    expect(xml).to.include('<failure')
    expect(junitSchemaProblems(xml)).to.deep.equal([])
  })
})
