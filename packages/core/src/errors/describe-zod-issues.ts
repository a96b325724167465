import type {z} from 'zod'

/**
 * One line for a failed zod validation, naming each key as it is written in the file:
 * `adb.port: Too big…; devise: Unrecognized key`. `prefix` is the path of the section validated
 * (`annotate` for a plugin's config section); an issue at the root is `(top level)`.
 */
export function describeZodIssues(error: z.ZodError, prefix: string[] = []): string {
  return error.issues
    .map((issue) => {
      const key = [...prefix, ...issue.path.map(String)].join('.') || '(top level)'
      return `${key}: ${issue.message}`
    })
    .join('; ')
}
