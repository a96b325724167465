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

  // An attribute's line breaks, written as they were, are read back as spaces (XML's attribute-value
  // normalisation): the message's 'Try:' line ran into its error. A message holding ``` ended summary.md's code block
  // early, and the rest of the page (later failures, their pictures) was read as Markdown of the app's making.
  it('line breaks in attributes survive a parser; a message with ``` stays inside its code block', async () => {
    const file = path.join(h.dir, 'fence.flow')
    await writeFile(file, "assert visible --text 'a ```` b' --exact-match\n")
    const report = path.join(h.dir, 'report-fence')
    const run = await runArc(['test', file, '-d', 'emu-1', '--report-dir', report], {env: h.env})
    expect(run.code, run.stderr).to.equal(23)
    const xml = await readFile(path.join(report, 'junit.xml'), 'utf8')
    expect(junitSchemaProblems(xml)).to.deep.equal([])
    const message = /<failure message="([^"]*)"/.exec(xml)?.[1] ?? ''
    expect(message)
      .to.include('&#10;Try: ')
      .and.not.match(/[\n\r]/)
    const summary = await readFile(path.join(report, 'summary.md'), 'utf8')
    // The block's fence is longer than any run of backticks inside it (CommonMark), so the block holds the message.
    const block = /\n(`{5,})\n([\s\S]*?)\n\1\n/.exec(summary)
    expect(block?.[2], summary).to.include('a ```` b')
  })

  // A retried flow's report held its last attempt alone: a flow that failed, then passed, showed a clean pass (the
  // flakiness a CI team must see, gone), and one that failed twice showed only the second failure, not the first,
  // whose line and error differed. A capture that failed printed nothing on stderr either: just 'FAILED …, line 3'.
  it('retries: every failed attempt is in the report (flakyFailure, rerunFailure), and a failed capture says why', async () => {
    const write = async (name: string, text: string) => {
      const file = path.join(h.dir, name)
      await writeFile(file, text)
      return file
    }
    // The second Kiwi row exists only after the second attempt's ADD: attempt 1 fails at line 3, attempt 2 passes.
    const flaky = await write(
      'flaky.flow',
      'type append --res-id new_item Kiwi\nclick --text ADD --exact-match\ncapture SECOND elements.1.id find text Kiwi --exact-match\n'
    )
    // Attempt 1 fails at line 4 (after adding a Lime row), attempt 2 already at line 1 (the row is there).
    const twice = await write(
      'twice.flow',
      'assert gone --text Lime --exact-match\ntype append --res-id new_item Lime\nclick --text ADD --exact-match\nassert visible --text NOPE\n'
    )
    const report = path.join(h.dir, 'report-retries')
    const run = await runArc(['test', flaky, twice, '-d', 'emu-1', '--retries', '1', '--report-dir', report], {
      env: h.env,
    })
    expect(run.code, run.stderr).to.equal(23)
    expect(run.stderr).to.include(`Error [INVALID_INPUT]: ${flaky}:3: capture: the result has nothing at elements.1.id`)
    const xml = await readFile(path.join(report, 'junit.xml'), 'utf8')
    expect(junitSchemaProblems(xml)).to.deep.equal([])
    const testcase = (name: string) =>
      new RegExp(`<testcase name="${name}"[^>]*>([\\s\\S]*?)</testcase>`).exec(xml)?.[1] ?? ''
    expect(testcase('flaky')).to.match(
      /<flakyFailure message="attempt 1 of 2: [^"]*flaky\.flow:3: [^"]*capture[^"]*" type="INVALID_INPUT">/
    )
    expect(testcase('flaky')).to.not.include('<failure')
    expect(testcase('twice')).to.match(/<failure message="[^"]*twice\.flow:1: [^"]*" type="ASSERTION_FAILED">/)
    expect(testcase('twice')).to.match(
      /<rerunFailure message="attempt 1 of 2: [^"]*twice\.flow:4: [^"]*NOPE[^"]*" type="ASSERTION_FAILED">/
    )
    // The step log has both attempts.
    expect(testcase('twice')).to.match(
      /attempt 1 of 2[\s\S]*twice\.flow:4 exit 23[\s\S]*attempt 2 of 2[\s\S]*twice\.flow:1 exit 23/
    )
    const summary = await readFile(path.join(report, 'summary.md'), 'utf8')
    expect(summary).to.include('passed on attempt 2 of 2').and.include('Attempt 1 of 2 failed at line 3')
  })
})
