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
