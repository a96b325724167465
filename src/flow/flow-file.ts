/**
 * `arc test` flow files: arc command lines, as `arc batch` reads them, plus variables. One step per line:
 *
 *   tap 540 1200                                 any arc command, without the leading `arc`
 *   set USER alice                               a variable (the value may use other variables)
 *   capture ID elements.0.id find text Submit    a variable from the command's JSON result (the path into it)
 *   click ${ID}                                  ${NAME}: a variable, else the environment
 *
 * `${NAME}` is expanded where a shell would (not inside '…', not after a backslash). The whole file is checked
 * before any step runs: every command must exist, every variable must be set on an earlier line or be in the
 * environment, and nested flows (`test`, `batch`) are refused.
 */
import {InvalidInputError} from '@arc-cli/core'

import {splitWords, type Expand} from '../batch-lines.js'

export type FlowStep =
  | {line: number; kind: 'command'; text: string}
  | {line: number; kind: 'set'; name: string; text: string}
  | {line: number; kind: 'capture'; name: string; path: string[]; text: string}

export interface Flow {
  /** The file as named on the command line. */
  file: string
  /** Its name without folders and extension (`login` for flows/login.flow): the JUnit test case's name. */
  name: string
  steps: FlowStep[]
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

/** Commands a flow may not run: they run flows themselves, or never end. */
const REFUSED = new Set(['test', 'batch', 'emulate', 'mcp:serve'])

function flowError(file: string, line: number, message: string, actions: string[] = []): InvalidInputError {
  return new InvalidInputError(`${file}:${line}: ${message}`, {details: {file, line}, actions})
}

/** The words of a step's text with variables expanded by `expand`; a quoting error is said with the flow's line. */
export function stepWords(file: string, line: number, text: string, expand: Expand): string[] {
  try {
    return splitWords(text, line, expand)
  } catch (error) {
    // An error `expand` threw already names the flow's place (flowError): said once, not `FILE:2: FILE:2: …`.
    if (error instanceof InvalidInputError && !error.message.startsWith(`${file}:${line}: `))
      throw flowError(file, line, error.message.replace(/^batch line \d+: /, ''), error.actions)
    throw error
  }
}

/** A path into a JSON result: `elements.0.id`, `windows.1.pkg`. */
function parsePath(file: string, line: number, path: string): string[] {
  const parts = path.split('.')
  if (path === '' || parts.some((p) => p === '')) {
    throw flowError(
      file,
      line,
      `capture: ${JSON.stringify(path)} is not a path into the result; write keys and indexes joined by dots, as elements.0.id`
    )
  }
  return parts
}

/**
 * Reads a flow file's text into steps and checks it whole: `commandExists` says whether words name an arc command
 * (and which id: the longest run of leading words), `env` is the environment the flow will see.
 */
export function parseFlow(
  file: string,
  text: string,
  commandId: (words: string[]) => string | undefined,
  env: NodeJS.ProcessEnv
): Flow {
  const defined = new Set<string>()
  const steps: FlowStep[] = []
  const lines = text.replace(/^\uFEFF/, '').split('\n')
  for (const [i, raw] of lines.entries()) {
    const line = i + 1
    // Checking pass: every ${NAME} must already be known; the value does not matter yet.
    const check: Expand = (name) => {
      if (!defined.has(name) && env[name] === undefined) {
        throw flowError(
          file,
          line,
          `\${${name}} is not set: no earlier set or capture line names it, and it is not in the environment`,
          [`Add \`set ${name} VALUE\` above line ${line}, or export ${name} before arc test.`]
        )
      }
      return 'x'
    }
    const words = stepWords(file, line, raw, check)
    if (words.length === 0) continue
    const [first] = words as [string, ...string[]]
    // The directive's own words are read without expansion, so `set ${X} 1` is refused as a name, not expanded.
    const plain = stepWords(file, line, raw, (name) => `\${${name}}`)
    if (first === 'set') {
      const name = plain[1]
      if (name === undefined || !NAME.test(name))
        throw flowError(
          file,
          line,
          `set needs a variable name (letters, digits, _; not first a digit), got ${JSON.stringify(name ?? '')}`
        )
      if (words.length < 3)
        throw flowError(file, line, `set ${name} needs a value`, [`set ${name} VALUE (quote a value with spaces)`])
      if (words.length > 3) throw flowError(file, line, `set ${name} takes one value; quote a value with spaces`)
      steps.push({line, kind: 'set', name, text: raw})
      defined.add(name)
      continue
    }
    let commandWords = words
    let capture: {name: string; path: string[]} | undefined
    if (first === 'capture') {
      const name = plain[1]
      if (name === undefined || !NAME.test(name))
        throw flowError(
          file,
          line,
          `capture needs a variable name (letters, digits, _; not first a digit), got ${JSON.stringify(name ?? '')}`
        )
      if (plain[2] === undefined)
        throw flowError(file, line, `capture ${name} needs a path into the command's JSON result, then the command`, [
          `capture ${name} elements.0.id find text Submit`,
        ])
      capture = {name, path: parsePath(file, line, plain[2])}
      commandWords = words.slice(3)
      if (commandWords.length === 0)
        throw flowError(file, line, `capture ${name} ${plain[2]} needs a command to run`, [
          `capture ${name} ${plain[2]} find text Submit`,
        ])
    }
    const id = commandId(commandWords)
    if (id === undefined) {
      throw flowError(file, line, `${JSON.stringify(commandWords.slice(0, 2).join(' '))} is not an arc command`, [
        'Run `arc --help` for the commands.',
      ])
    }
    if (REFUSED.has(id)) throw flowError(file, line, `\`${id.replaceAll(':', ' ')}\` cannot run inside a flow`)
    if (capture) {
      steps.push({line, kind: 'capture', ...capture, text: raw})
      defined.add(capture.name)
    } else steps.push({line, kind: 'command', text: raw})
  }
  if (steps.length === 0)
    throw flowError(file, 1, 'the flow has no steps', ['Write one arc command per line (docs/flows.md).'])
  // Set lines alone act on nothing: such a flow would pass having tested nothing.
  if (steps.every((s) => s.kind === 'set'))
    throw flowError(
      file,
      steps[0]!.line,
      `the flow runs no command (its ${steps.length} line${steps.length === 1 ? '' : 's'} only set variables)`,
      ['Add the arc commands the flow is for, one per line (docs/flows.md).']
    )
  return {file, name: flowName(file), steps}
}

/** A flow's name: its file's without folders and extension (`login` for flows/login.flow). */
export function flowName(file: string): string {
  return file.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '') || file
}

/**
 * The flows' names in a run, each its own: the JUnit test case's name and the failure folder's. Files of one name in
 * different folders (`a/login.flow`, `b/login.flow`) are named by as many of their last folders as tell them apart
 * (`a/login`, `b/login`), and a file named twice gets ` (2)`, ` (3)` after the later ones: a report with two test
 * cases of one name is read as one by CI systems, and the second failure's pictures went over the first's.
 */
export function uniqueFlowNames(files: string[]): string[] {
  const stems = files.map(flowName)
  const parts = files.map((file, i) => [
    ...file
      .replaceAll('\\', '/')
      .split('/')
      .slice(0, -1)
      .filter((p) => p !== '' && p !== '.'),
    stems[i]!,
  ])
  const named = files.map((_, i) => {
    const alike = files.flatMap((__, k) => (stems[k] === stems[i] ? [parts[k]!] : []))
    if (alike.length === 1) return stems[i]!
    const paths = new Set(alike.map((p) => p.join('/')))
    for (let n = 2; ; n++) {
      const tail = (p: string[]) => p.slice(-n).join('/')
      if (new Set(alike.map(tail)).size === paths.size || alike.every((p) => p.length <= n)) return tail(parts[i]!)
    }
  })
  const seen = new Map<string, number>()
  return named.map((name) => {
    const n = (seen.get(name) ?? 0) + 1
    seen.set(name, n)
    return n === 1 ? name : `${name} (${n})`
  })
}

/** The value at `path` in a command's JSON result, as text for a variable; an error naming what is there instead. */
export function valueAt(file: string, line: number, data: unknown, path: string[]): string {
  let value: unknown = data
  for (const [i, key] of path.entries()) {
    const container = value
    value =
      container !== null && typeof container === 'object' && Object.hasOwn(container, key)
        ? (container as Record<string, unknown>)[key]
        : undefined
    if (value === undefined) {
      const here = path.slice(0, i).join('.') || '(the result)'
      const keys =
        container !== null && typeof container === 'object'
          ? Object.keys(container).slice(0, 10).join(', ') || '(empty)'
          : JSON.stringify(container)
      throw flowError(
        file,
        line,
        `capture: the result has nothing at ${path.join('.')}: ${here} holds ${Array.isArray(container) ? `${(container as unknown[]).length} item(s)` : keys}`
      )
    }
  }
  if (value === null || typeof value === 'object') return JSON.stringify(value)
  return String(value)
}
