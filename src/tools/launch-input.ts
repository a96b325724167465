/**
 * The CLI's inputs of `app open` that start a named activity with an intent (`am start -n PKG/ACTIVITY -a … -d …
 * --es/--ei/--ez …`), and their checks. CLI-only: the MCP tools/list budget has no room for them.
 */
import {deviceStringProblem, InvalidInputError, type IntentExtra, type LaunchOptions, z} from '@arc-cli/core'

/** A Java identifier as a class or package name segment (`$` for nested classes). */
const SEGMENT = String.raw`[A-Za-z_$][\w$]*`
/** `.ui.Settings`, `com.example.ui.Settings`, or either after `com.example/`. */
export const ACTIVITY_PATTERN = new RegExp(
  String.raw`^(?:[A-Za-z][\w.]*\/)?(?:\.${SEGMENT}(?:\.${SEGMENT})*|${SEGMENT}(?:\.${SEGMENT})+)$`
)
const ACTIVITY_FORMS =
  'expected .Name (in the package), a full class name like com.example.app.ui.Name, or com.example.app/.Name'

/** What a device shell argument cannot carry byte for byte (deviceStringProblem): refused naming the field. */
export const SENDABLE = [
  (text: string) => deviceStringProblem(text) === undefined,
  'cannot contain a NUL character or a lone surrogate (half of a UTF-16 pair)',
] as const

const extras = (what: string, pattern: RegExp, forms: string) =>
  z
    .array(
      z
        .string()
        .regex(pattern, `expected ${forms}`)
        .refine(...SENDABLE)
    )
    .optional()
    .describe(what)

/** An Android user id (`pm list users` names them): 0 the owner, 10 and up a work profile or another user. */
export const androidUser = (what: string) =>
  z.number().int().min(0, 'must be a user id, 0 or more').optional().describe(what)

export const launchInput = z.object({
  activity: z
    .string()
    .trim()
    .regex(ACTIVITY_PATTERN, ACTIVITY_FORMS)
    .optional()
    .describe("Activity to start instead of the launcher's: .Name, a full class name, or PKG/.Name (am start -n)"),
  action: z
    .string()
    .min(1)
    .refine(...SENDABLE)
    .refine((text) => !/[\r\n]/.test(text), 'cannot contain a line break')
    .optional()
    .describe('Intent action, with --activity (am start -a)'),
  data: z
    .string()
    .min(1)
    .refine(...SENDABLE)
    .refine((text) => !/[\r\n]/.test(text), 'cannot contain a line break')
    .optional()
    .describe('Intent data URI, with --activity (am start -d)'),
  extra: extras('String extra KEY=VALUE (am start --es)', /^[^=]+=/s, 'KEY=VALUE with a non-empty key'),
  extra_int: extras(
    'Integer extra KEY=N (am start --ei)',
    /^[^=]+=[+-]?\d+$/,
    'KEY=N with a non-empty key and a whole number'
  ),
  extra_bool: extras(
    'Boolean extra KEY=true|false (am start --ez)',
    /^[^=]+=(?:true|false)$/,
    'KEY=true or KEY=false with a non-empty key'
  ),
  user: androidUser(
    'Android user to start it for: 10 is often a work profile (am start --user); default: the current user'
  ),
})

type LaunchInput = Partial<z.output<typeof launchInput>>

const INT_MIN = -(2 ** 31)
const INT_MAX = 2 ** 31 - 1

function split(pair: string): [string, string] {
  const at = pair.indexOf('=')
  return [pair.slice(0, at), pair.slice(at + 1)]
}

/** The driver's launch options from the CLI's flags; refuses what am would misread, before anything is sent. */
export function launchOptions(packageId: string, input: LaunchInput): LaunchOptions {
  let activity = input.activity
  const slash = activity?.indexOf('/') ?? -1
  if (activity !== undefined && slash >= 0) {
    const owner = activity.slice(0, slash)
    if (owner !== packageId) {
      throw new InvalidInputError(`--activity: ${activity} names package ${owner}, not ${packageId}`, {
        details: {activity, package_id: packageId},
        actions: [`Give the activity of ${packageId} (.Name or ${packageId}/.Name), or open ${owner} instead.`],
      })
    }
    activity = activity.slice(slash + 1)
  }
  if (activity === undefined && (input.action !== undefined || input.data !== undefined)) {
    const flag = input.action === undefined ? '--data' : '--action'
    throw new InvalidInputError(`${flag} needs --activity: the launcher is started with its own intent`, {
      details: {package_id: packageId},
      actions: [
        'Name the activity (--activity .Name), or open a link with whatever app handles it: `arc app open-url URL`.',
      ],
    })
  }
  const list: IntentExtra[] = [
    ...(input.extra ?? []).map((pair): IntentExtra => {
      const [key, value] = split(pair)
      return {key, type: 'string', value}
    }),
    ...(input.extra_int ?? []).map((pair): IntentExtra => {
      const [key, value] = split(pair)
      const n = Number(value)
      if (n < INT_MIN || n > INT_MAX) {
        throw new InvalidInputError(
          `--extra-int: ${key}=${value} is outside an int's range (${INT_MIN} to ${INT_MAX})`,
          {details: {key, value}}
        )
      }
      return {key, type: 'int', value: n}
    }),
    ...(input.extra_bool ?? []).map((pair): IntentExtra => {
      const [key, value] = split(pair)
      return {key, type: 'bool', value: value === 'true'}
    }),
  ]
  return {
    ...(activity === undefined ? {} : {activity}),
    ...(input.action === undefined ? {} : {action: input.action}),
    ...(input.data === undefined ? {} : {data: input.data}),
    ...(list.length === 0 ? {} : {extras: list}),
    ...(input.user === undefined ? {} : {user: input.user}),
  }
}
