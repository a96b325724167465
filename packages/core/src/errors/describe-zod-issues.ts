import type {z} from 'zod'

import {printable, printableLine} from '../printable.js'

/**
 * One line for a failed zod validation, naming each key as it is written in the file:
 * `adb.port: Too big…; devise: Unrecognized key`. `prefix` is the path of the section validated
 * (`annotate` for a plugin's config section); an issue at the root is `(top level)`. Keys come from the user's
 * file and zod's messages may quote them: control characters in either are written out (`\x1b`), never sent to a
 * terminal.
 */
export function describeZodIssues(error: z.ZodError, prefix: string[] = []): string {
  return error.issues
    .map((issue) => {
      const key = [...prefix, ...issue.path.map((p) => printable(String(p)))].join('.') || '(top level)'
      return `${key}: ${printableLine(issue.message)}`
    })
    .join('; ')
}

/** What a tool-input issue's message is when the schema gave none of its own: arc words it (`issueWording`). */
const ARC_WORDS = '\u0000arc words this issue'

/**
 * Parse options for tool inputs: zod keeps the value it read (`input`) on each issue, so a missing input can be
 * told from a wrong one and the value named, and an issue whose schema set no message of its own is marked for arc
 * to word. Only for tool inputs, whose issues are turned into a message here and dropped.
 */
export const REPORT_INPUT = {reportInput: true, error: () => ARC_WORDS} as const

type Issue = z.ZodError['issues'][number]

/** A top-level input that was not given at all (parsed with REPORT_INPUT): zod's "expected X, received undefined". */
export function isMissingInput(issue: Issue): boolean {
  return issue.code === 'invalid_type' && issue.path.length === 1 && 'input' in issue && issue.input === undefined
}

/**
 * `--timeout is required: How long to wait in milliseconds (1-30000)`: the input as the caller names it, and what
 * is allowed, from the field's own description in the schema.
 */
export function requiredInputText(label: string, schema: z.ZodObject | undefined, key: string): string {
  const description = descriptionOf(schema, key)
  return description ? `${label} is required: ${description}` : `${label} is required`
}

function descriptionOf(schema: z.ZodObject | undefined, key: string): string | undefined {
  return (schema?.shape[key] as z.ZodType | undefined)?.description
}

/** A value as an error quotes it: numbers and booleans as they are, text quoted and cut, anything else by its kind. */
function shown(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value)
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value)
  if (Array.isArray(value)) return 'a list'
  return value === undefined ? 'nothing' : `${typeof value === 'object' ? 'an' : 'a'} ${typeof value}`
}

const got = (issue: Issue) => ('input' in issue ? ` (got ${shown(issue.input)})` : '')
const count = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`
/** `(got 12 characters)`: the length of what was given, for a string or list that is too short or too long. */
function gotLength(issue: Issue, unit: string): string {
  const input = 'input' in issue ? issue.input : undefined
  return typeof input === 'string' || Array.isArray(input) ? ` (got ${count(input.length, unit)})` : ''
}

const TYPE_WORDS: Record<string, string> = {
  int: 'a whole number',
  number: 'a number',
  string: 'text',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
}

/** One bound of a too_small / too_big issue, as what is allowed: `at least 0`, `at most 2000 characters`. */
function bound(issue: Extract<Issue, {code: 'too_small' | 'too_big'}>): string {
  const small = issue.code === 'too_small'
  const limit = Number(small ? issue.minimum : issue.maximum)
  const unit =
    issue.origin === 'string' ? 'character' : issue.origin === 'array' || issue.origin === 'set' ? 'item' : undefined
  if (unit) {
    if (issue.exact) return `must have exactly ${count(limit, unit)}${gotLength(issue, unit)}`
    if (small && limit === 1 && issue.inclusive !== false) return 'must not be empty'
    const edge = issue.inclusive === false ? (small ? limit + 1 : limit - 1) : limit
    return `must have at ${small ? 'least' : 'most'} ${count(edge, unit)}${gotLength(issue, unit)}`
  }
  const words = issue.inclusive === false ? (small ? 'greater than' : 'less than') : small ? 'at least' : 'at most'
  return `must be ${words} ${limit}${got(issue)}`
}

/** What is wrong, in arc's words, after the input's name: `must be at least 0 (got -1)`, `must be one of a, b`. */
function issueWording(issue: Issue): string {
  switch (issue.code) {
    case 'too_small':
    case 'too_big':
      return bound(issue)
    case 'invalid_type':
      return `must be ${TYPE_WORDS[issue.expected] ?? issue.expected}${got(issue)}`
    case 'invalid_value': {
      if (issue.values.length === 1)
        return `must be ${JSON.stringify(issue.values[0]) ?? String(issue.values[0])}${got(issue)}`
      return `must be one of ${issue.values.map(String).join(', ')}${got(issue)}`
    }
    case 'invalid_format': {
      const format = issue as typeof issue & {prefix?: string; suffix?: string; includes?: string; pattern?: string}
      if (format.format === 'starts_with') return `must start with ${JSON.stringify(format.prefix)}${got(issue)}`
      if (format.format === 'ends_with') return `must end with ${JSON.stringify(format.suffix)}${got(issue)}`
      if (format.format === 'includes') return `must contain ${JSON.stringify(format.includes)}${got(issue)}`
      if (format.format === 'regex') return `must match ${format.pattern}${got(issue)}`
      return `must be a valid ${format.format}${got(issue)}`
    }
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}${got(issue)}`
    case 'unrecognized_keys':
      return `has ${issue.keys.length === 1 ? 'a key' : 'keys'} it does not take: ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`
    case 'invalid_union': {
      // Each form the input could take, as the first reason it did not: `must be auto or must be a number`.
      const reasons = issue.errors.flatMap((branch) => (branch[0] ? [ownOrArcWords(branch[0])] : []))
      return reasons.length > 0 ? [...new Set(reasons)].join(' or ') : 'is not valid'
    }
    default:
      return 'is not valid'
  }
}

/** The issue's own message (a schema's `.min(1, '…')`, a refinement's), else arc's words for it. */
function ownOrArcWords(issue: Issue): string {
  return issue.message === ARC_WORDS ? issueWording(issue) : issue.message
}

/** `[0][1].x`: where below the input the issue is (an array item's index, an object's key). */
function below(path: PropertyKey[]): string {
  return path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')
}

/**
 * One message for a failed tool-input validation (parsed with REPORT_INPUT), each issue naming the input as the
 * caller does (`name`: `--offset` or `argument <text>` on the CLI, the field itself over MCP) and saying what is
 * allowed: `--offset must be at least 0 (got -1): 0-based character offset…`; a missing one is `is required: …`;
 * a message the schema words itself (a refinement's) follows the name: `--package-name: expected a package id…`,
 * or `--quality must be 1 to 100` when it is worded to.
 */
export function describeInputIssues(
  error: z.ZodError,
  schema: z.ZodObject | undefined,
  name: (key: string) => string
): string {
  return error.issues
    .map((issue) => {
      const [first, ...rest] = issue.path
      if (first === undefined) return `input ${ownOrArcWords(issue)}`
      const key = String(first)
      const label = `${name(key)}${below(rest)}`
      if (isMissingInput(issue)) return requiredInputText(label, schema, key)
      // A schema's own words: `must be 1 to 100` reads on from the name, as arc's do; a sentence of its own follows a colon.
      if (issue.message !== ARC_WORDS)
        return /^must /.test(issue.message) ? `${label} ${issue.message}` : `${label}: ${issue.message}`
      // What the field allows, from its description, when the issue is the field's own (not an item's).
      const description = rest.length === 0 ? descriptionOf(schema, key) : undefined
      return `${label} ${issueWording(issue)}${description ? `: ${description}` : ''}`
    })
    .join('; ')
}
