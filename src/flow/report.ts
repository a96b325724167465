/**
 * What `arc test` reports: each flow's result on each device, as JUnit XML (the format GitHub Actions reporters,
 * GitLab, Jenkins and CircleCI read: `testsuites` > one `testsuite` per device > one `testcase` per flow, a
 * `failure` element for a failed one) and as a Markdown page with the failure pictures.
 */

export interface StepResult {
  line: number
  text: string
  /** 0 when it passed; the arc exit status otherwise. */
  status: number
  ms: number
}

export interface StepFailure {
  line: number
  text: string
  status: number
  code?: string
  message: string
}

export interface FlowResult {
  flow: string
  file: string
  device: string
  passed: boolean
  /** The attempt this result is (1 for the first run; retries add one each). */
  attempts: number
  /** How many attempts the run allowed (--retries + 1). */
  of?: number
  /** Every attempt's time, added up. */
  ms: number
  /** The last attempt's steps. */
  steps: StepResult[]
  failure?: StepFailure
  /** The attempts before the last, each of which failed: a flow that then passed is flaky. */
  earlier?: Array<{failure: StepFailure; steps: StepResult[]; ms: number}>
  /** Not run: the signal that stopped the run before the flow started (SIGINT, SIGTERM). Neither passed nor failed. */
  notRun?: string
  /** Files saved on failure, relative to the report folder. */
  artifacts: string[]
}

/** Text for XML: the five special characters escaped, and characters XML 1.0 cannot hold replaced by U+FFFD. */
export function xmlText(value: string): string {
  return value
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;')
}

/**
 * Text for an attribute value: as xmlText, and line breaks and tabs as character references, which a parser keeps
 * (written as they are, attribute-value normalisation reads each as a space).
 */
export function xmlAttr(value: string): string {
  return xmlText(value).replaceAll('\n', '&#10;').replaceAll('\r', '&#13;').replaceAll('\t', '&#9;')
}

const seconds = (ms: number) => (ms / 1000).toFixed(3)

/** `attempt 2 of 3`, the count being the attempts allowed. */
const attemptWord = (r: FlowResult, n: number) => `attempt ${n} of ${r.of ?? r.attempts}`

function stepLog(result: FlowResult): string {
  const lines = (steps: StepResult[]) =>
    steps
      .map((s) => `${result.file}:${s.line} ${s.status === 0 ? 'ok' : `exit ${s.status}`} ${s.ms} ms  ${s.text.trim()}`)
      .join('\n')
  if (!result.earlier?.length) return lines(result.steps)
  return [...result.earlier.map((t) => t.steps), result.steps]
    .map((steps, i) => `${attemptWord(result, i + 1)}:\n${lines(steps)}`)
    .join('\n')
}

/** A failure's message, led by its file and line. */
function failureMessage(file: string, failure: StepFailure): string {
  const where = `${file}:${failure.line}`
  return failure.message.startsWith(where) ? failure.message : `${where}: ${failure.message}`
}

/** A flow that ran and did not pass (a flow not run is neither). */
export const failed = (r: FlowResult) => !r.passed && r.notRun === undefined

/**
 * The report. `wallMs`: how long the run took, start to report. It is `<testsuites time>`: devices run in parallel, so
 * the sum of their suites' times would show a run on N devices as N times longer than it was. A consumer reads that
 * attribute as the run's overall execution time (jest-junit, utils/buildJsonResults.js, writes it as the time from the
 * run's start to the report, noting it is smaller than the suites' sum when they run in parallel); each `<testsuite
 * time>` stays the time of its device's flows.
 */
export function junitXml(results: FlowResult[], timestamp: Date, wallMs: number): string {
  const devices = [...new Set(results.map((r) => r.device))]
  const out = ['<?xml version="1.0" encoding="UTF-8"?>']
  const failures = results.filter(failed).length
  out.push(
    `<testsuites name="arc test" tests="${results.length}" failures="${failures}" errors="0" time="${seconds(wallMs)}">`
  )
  for (const device of devices) {
    const mine = results.filter((r) => r.device === device)
    const time = mine.reduce((sum, r) => sum + r.ms, 0)
    const skipped = mine.filter((r) => r.notRun !== undefined).length
    out.push(
      `  <testsuite name="${xmlAttr(device)}" tests="${mine.length}" failures="${mine.filter(failed).length}" errors="0" skipped="${skipped}" time="${seconds(time)}" timestamp="${timestamp.toISOString().replace(/\.\d+Z$/, '')}">`
    )
    for (const r of mine) {
      out.push(
        // No `file` attribute: the schema Jenkins' xUnit plugin validates with (junit-10.xsd) allows only name,
        // classname, time and group on a testcase; the file is in the failure message and the step log.
        `    <testcase name="${xmlAttr(r.flow)}" classname="${xmlAttr(`${device}.${r.flow}`)}" time="${seconds(r.ms)}">`
      )
      if (r.notRun !== undefined)
        out.push(`      <skipped message="${xmlAttr(`not run: arc test was stopped by ${r.notRun}`)}"/>`)
      else if (r.failure) {
        const where = `${r.file}:${r.failure.line}`
        const said = failureMessage(r.file, r.failure)
        out.push(
          `      <failure message="${xmlAttr(said)}" type="${xmlAttr(r.failure.code ?? `exit ${r.failure.status}`)}">${xmlText(
            `${where}: ${r.failure.text.trim()}\n${said}\nattempts: ${r.attempts}${r.artifacts.length ? `\nsaved: ${r.artifacts.join(', ')}` : ''}`
          )}</failure>`
        )
      }
      // The attempts before the last: failed ones of a flow that then passed are flakyFailure, of one that failed
      // throughout rerunFailure (the Surefire elements the schema has for them).
      for (const [i, t] of (r.earlier ?? []).entries()) {
        const element = r.passed ? 'flakyFailure' : 'rerunFailure'
        const said = `${attemptWord(r, i + 1)}: ${failureMessage(r.file, t.failure)}`
        out.push(
          `      <${element} message="${xmlAttr(said)}" type="${xmlAttr(t.failure.code ?? `exit ${t.failure.status}`)}">${xmlText(
            `${r.file}:${t.failure.line}: ${t.failure.text.trim()}\n${said}`
          )}</${element}>`
        )
      }
      out.push(`      <system-out>${xmlText(stepLog(r))}</system-out>`)
      out.push('    </testcase>')
    }
    out.push('  </testsuite>')
  }
  out.push('</testsuites>')
  return out.join('\n') + '\n'
}

/** A Markdown path: spaces and parentheses would end the link. */
const mdPath = (p: string) => p.split('/').map(encodeURIComponent).join('/')

/** `N passed, M failed`, and `, K not run` where the run was stopped before some flows. */
export function tally(results: FlowResult[]): string {
  const passed = results.filter((r) => r.passed).length
  const notRun = results.filter((r) => r.notRun !== undefined).length
  return `${passed} passed, ${results.filter(failed).length} failed${notRun ? `, ${notRun} not run` : ''}`
}

/** A flow's result in a word or three: passed, failed at line N, not run (SIGTERM). */
function outcome(r: FlowResult): string {
  if (r.passed) return r.earlier?.length ? `passed on ${attemptWord(r, r.attempts)}` : 'passed'
  if (r.notRun !== undefined) return `not run (${r.notRun})`
  return `failed at line ${r.failure?.line}`
}

export function markdownSummary(results: FlowResult[]): string {
  const lines = [
    '# arc test',
    '',
    tally(results),
    '',
    '| flow | device | result | attempts | time |',
    '| --- | --- | --- | ---: | ---: |',
    ...results.map(
      (r) =>
        `| ${r.file.replaceAll('|', '\\|')} | ${r.device.replaceAll('|', '\\|')} | ${outcome(r)} | ${r.attempts} | ${seconds(r.ms)} s |`
    ),
  ]
  // A fenced block whose fence is longer than any run of backticks in it (CommonMark), so no message ends it early.
  const fenced = (text: string) => {
    const fence = '`'.repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)))
    return [fence, text, fence]
  }
  const code = (text: string) => `\`${text.trim().replaceAll('`', "'")}\``
  // Each failure, and each flow that passed only on a retry, with the failures of its earlier attempts.
  for (const r of results.filter((x) => failed(x) || x.earlier?.length)) {
    lines.push('', `## ${r.file} on ${r.device}${r.passed ? `: flaky, ${outcome(r)}` : ''}`)
    for (const [i, t] of (r.earlier ?? []).entries())
      lines.push(
        '',
        `${attemptWord(r, i + 1).replace(/^a/, 'A')} failed at line ${t.failure.line}: ${code(t.failure.text)}`,
        '',
        ...fenced(t.failure.message)
      )
    if (r.passed) continue
    lines.push(
      '',
      `${r.earlier?.length ? `${attemptWord(r, r.attempts).replace(/^a/, 'A')} failed at line` : 'Line'} ${r.failure?.line}: ${code(r.failure?.text ?? '')}`,
      '',
      ...fenced(r.failure?.message ?? '')
    )
    const picture = r.artifacts.find((a) => a.endsWith('.jpg'))
    if (picture) lines.push('', `![the screen when it failed](${mdPath(picture)})`)
    const others = r.artifacts.filter((a) => a !== picture)
    if (others.length) lines.push('', ...others.map((a) => `- [${a}](${mdPath(a)})`))
  }
  return lines.join('\n') + '\n'
}
