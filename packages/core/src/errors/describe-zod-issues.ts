import type {z} from 'zod'

import {printable, printableLine} from '../tools/human-text.js'

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

/**
 * Parse options under which an issue can tell a missing input from a wrong one: zod then keeps the value it
 * read (`input`) on each issue. Only for tool inputs, whose issues are turned into a message and dropped.
 */
export const REPORT_INPUT = {reportInput: true} as const

/** A top-level input that was not given at all (parsed with REPORT_INPUT): zod's "expected X, received undefined". */
export function isMissingInput(issue: z.ZodError['issues'][number]): boolean {
  return issue.code === 'invalid_type' && issue.path.length === 1 && 'input' in issue && issue.input === undefined
}

/**
 * `--timeout is required: How long to wait in milliseconds (1-30000)`: the input as the caller names it, and what
 * is allowed, from the field's own description in the schema.
 */
export function requiredInputText(label: string, schema: z.ZodObject | undefined, key: string): string {
  const field = schema?.shape[key] as z.ZodType | undefined
  const description = field?.description
  return description ? `${label} is required: ${description}` : `${label} is required`
}
