import {readFileSync} from 'node:fs'
import path from 'node:path'

import {ConfigError, DEMO_DIR, describeZodIssues, unreachableSerial, z} from '@arc-cli/core'

/**
 * The scenario file (JSON): what each emulated device shows and how it reacts. Documented in docs/emulate.md.
 * Paths (snapshots) are relative to the scenario file.
 */
const selectorSchema = z
  .object({
    resourceId: z.string().optional().describe('resource-id of the element, exactly.'),
    text: z.string().optional().describe('text of the element, exactly.'),
    contentDesc: z.string().optional().describe('content-desc of the element, exactly.'),
  })
  .strict()
  .refine((s) => s.resourceId !== undefined || s.text !== undefined || s.contentDesc !== undefined, {
    message: 'an element selector needs resourceId, text or contentDesc',
  })

export const SWIPE_DIRECTIONS = ['up', 'down', 'left', 'right'] as const

const swipeTriggerSchema = z
  .object({
    direction: z
      .enum(SWIPE_DIRECTIONS)
      .describe('Which way the finger moves (its longer axis): "up" is what `arc scroll down` sends.'),
    inside: selectorSchema
      .optional()
      .describe('The swipe must start inside the bounds of the matching element (default: anywhere).'),
  })
  .strict()

export const STATUSBAR_ACTIONS = ['expand-notifications', 'expand-settings', 'collapse'] as const

const transitionSchema = z
  .object({
    from: z.string().optional().describe('Screen the transition applies on; omitted or "*" = any screen.'),
    tap: selectorSchema.optional().describe('A tap inside the bounds of the matching element triggers it.'),
    keyevent: z.union([z.string(), z.number().int()]).optional().describe('A key (KEYCODE_BACK, BACK or 4).'),
    statusbar: z.enum(STATUSBAR_ACTIONS).optional().describe('A `cmd statusbar` action.'),
    editorAction: z
      .literal(true)
      .optional()
      .describe(
        "The focused field's editor action (the keyboard's action key: search, send, done), as an app's OnEditorActionListener takes it; KEYCODE_ENTER does not trigger it."
      ),
    swipe: swipeTriggerSchema
      .optional()
      .describe('An `input swipe` in this direction (a list scrolled to its next screen).'),
    to: z.string().describe('Screen to switch to.'),
  })
  .strict()
  .refine(
    (t) => [t.tap, t.keyevent, t.statusbar, t.swipe, t.editorAction].filter((x) => x !== undefined).length === 1,
    {message: 'a transition needs exactly one trigger: tap, keyevent, statusbar or swipe (or editorAction)'}
  )

const screenSchema = z.union([
  z.string().describe('Snapshot folder or .xml file.'),
  z
    .object({
      snapshot: z.string().describe('Snapshot folder or .xml file.'),
      package: z.string().optional().describe('Foreground package while this screen shows (default: meta.json).'),
      activity: z.string().optional().describe('Foreground activity while this screen shows.'),
      animated: z
        .boolean()
        .optional()
        .describe(
          'The screen never goes idle (a video, a spinner): `uiautomator dump` waits out its idle timeout and fails.'
        ),
      secure: z
        .boolean()
        .optional()
        .describe("The app's window has FLAG_SECURE (a password or banking screen): `screencap` captures it black."),
    })
    .strict(),
])

const activitySchema = z.union([
  z.string().describe('An exported activity (.Name or fully qualified).'),
  z
    .object({
      name: z.string().describe('.Name or fully qualified.'),
      exported: z.boolean().default(true).describe('false: `am start -n` from adb is refused with Permission Denial.'),
      screen: z.string().optional().describe("Screen shown when it is started (default: the package's screen)."),
    })
    .strict(),
])

const packageSchema = z
  .object({
    name: z.string().regex(/^[A-Za-z][\w]*(\.[A-Za-z_][\w]*)+$/, 'not a package name like com.example.app'),
    system: z.boolean().default(false),
    versionCode: z.number().int().nonnegative().default(1),
    versionName: z
      .string()
      .nullable()
      .default('1.0')
      .describe('null: the manifest declares none (dumpsys prints `versionName=null`).'),
    factoryVersionName: z
      .string()
      .optional()
      .describe(
        'A system app updated over its factory copy: dumpsys also lists that copy, with this version, under `Hidden system packages:`.'
      ),
    launcher: z.string().optional().describe('Launcher activity (.Main or fully qualified); none = not launchable.'),
    moreLaunchers: z
      .array(z.string())
      .default([])
      .describe(
        "Further launcher activities (a second icon, a debug build's leak viewer): resolve-activity then answers the chooser."
      ),
    screen: z.string().optional().describe('Screen shown when the app is launched.'),
    activities: z
      .array(activitySchema)
      .default([])
      .describe(
        'Activities `am start -n` starts besides the launchers and those the screens name; any other is `does not exist`.'
      ),
    permissions: z
      .array(z.string())
      .default([])
      .describe('Runtime permissions the app declares (pm grant/revoke accept only these).'),
    links: z.array(z.string()).default([]).describe('URL prefixes the app opens (`myapp://`, `https://example.com/`).'),
    users: z
      .array(z.number().int().min(0))
      .default([0])
      .describe('The users it is installed for: 0 the owner, 10 a work profile or second user (scenario `users`).'),
  })
  .strict()
  .refine((p) => p.factoryVersionName === undefined || p.system, {
    message: 'factoryVersionName needs system: true (only a system app has a factory copy)',
    path: ['factoryVersionName'],
  })

export const FAULT_KINDS = ['idle-timeout', 'null-root', 'hang', 'disconnect', 'garbage', 'error'] as const

const faultSchema = z
  .object({
    command: z
      .string()
      .describe('Matches a device command by its leading words, e.g. "uiautomator dump"; "" matches any command.'),
    kind: z.enum(FAULT_KINDS),
    times: z.number().int().positive().default(1).describe('How many matching commands it affects.'),
    output: z.string().optional().describe('garbage: the bytes to print; disconnect: what to print first.'),
    exitCode: z.number().int().min(0).max(255).optional().describe('error: the exit status (default 1).'),
    message: z.string().optional().describe('error: the stderr text.'),
    after: z
      .boolean()
      .default(false)
      .describe(
        'The program runs to its end first (its output dropped), then the fault plays: a `mv` whose rename was done but whose answer never arrives.'
      ),
  })
  .strict()

const logEntrySchema = z.union([
  z.string().describe('A threadtime line: `01-26 20:52:41.820  1234  1256 I Tag: message`.'),
  z
    .object({
      time: z.string().optional().describe('MM-DD hh:mm:ss.mmm, or YYYY-MM-DD hh:mm:ss.mmm (default year: this year)'),
      pid: z.number().int().optional(),
      tid: z.number().int().optional(),
      level: z.enum(['V', 'D', 'I', 'W', 'E', 'F']).default('I'),
      tag: z.string(),
      message: z.string(),
      package: z.string().optional().describe('Gives the line the pid of this package.'),
    })
    .strict(),
])

const fieldSchema = z
  .object({
    resourceId: z.string().describe('resource-id of the edit field the rule applies to.'),
    refuse: z.boolean().default(false).describe('Typed text and delete keys are dropped (a field that ignores input).'),
    maxLength: z.number().int().nonnegative().optional().describe('Text past this length is dropped.'),
    transform: z
      .enum(['upper', 'lower', 'digits'])
      .optional()
      .describe('Typed text is altered: upper/lower case, or digits only.'),
    format: z
      .enum(['group-digits'])
      .optional()
      .describe(
        'After every edit the app reformats what the field holds, as a TextWatcher does: group-digits writes its digits in groups of three with commas (an amount field), the cursor kept behind the same digit (field-watchers.ts).'
      ),
    keepsText: z
      .boolean()
      .default(false)
      .describe(
        'Delete keys are dropped, typed text is taken: an InputFilter that gives back the range a delete would remove (field-watchers.ts).'
      ),
    focusNext: z
      .object({
        after: z.number().int().positive().describe('How many characters the field holds when the focus moves on.'),
        to: z
          .string()
          .describe(
            'resource-id of the focusable control on the same screen that takes the focus (a field, a button).'
          ),
      })
      .strict()
      .optional()
      .describe(
        'Once the field holds `after` characters, the app moves the focus to control `to` (a TextWatcher calling requestFocus: PIN and OTP boxes, a form that jumps on when a field is full); the keys after go there (field-watchers.ts).'
      ),
    multiLine: z
      .boolean()
      .default(false)
      .describe(
        "The field is a multi-line EditText: its text wraps to the field's width (bounds less 24 px each side) and breaks at line feeds, and HOME/END, the arrows and a tap go by those visual lines. Otherwise it is single-line: one line whatever its text."
      ),
    advancePx: z
      .number()
      .positive()
      .default(24)
      .describe("Width in px of each grapheme cluster in the field's text layout (every character is as wide)."),
    lineHeightPx: z
      .number()
      .positive()
      .default(48)
      .describe("Height in px of each line of a multi-line field, its first line 12 px below the field's top."),
  })
  .strict()

/** Device profiles: an Android version with the costs that come with it (docs/emulate.md, "Profiles"). */
export const PROFILES = ['android-14', 'android-11', 'xiaomi'] as const

const timingSchema = z
  .object({
    scale: z
      .number()
      .min(0)
      .max(100)
      .optional()
      .describe(
        'Multiplies every emulated wait (idle waits, VM starts); tests use 0.01. Default: EmulatorOptions.timeScale, else ARC_EMULATE_TIME_SCALE, else 1.'
      ),
    vmStartMs: z
      .number()
      .int()
      .min(0)
      .max(60_000)
      .optional()
      .describe(
        "What starting an app_process VM costs (uiautomator always; `input` up to Android 11). Default: the profile's."
      ),
    idleMs: z
      .number()
      .int()
      .min(0)
      .max(60_000)
      .optional()
      .describe(
        'Quiet time `uiautomator dump` waits for (default 1000: AOSP DumpCommand calls waitForIdle(1000, 10000)).'
      ),
    idleTimeoutMs: z
      .number()
      .int()
      .min(0)
      .max(600_000)
      .optional()
      .describe(
        'How long `uiautomator dump` waits for idle before `ERROR: could not get idle state.` (default 10000).'
      ),
    transitionMs: z
      .number()
      .int()
      .min(0)
      .max(60_000)
      .optional()
      .describe(
        'How long a screen change an input starts (a transition) takes to show; the old screen shows meanwhile (default 300: input dispatch, the click, the activity start and its config_activityDefaultDur 220 ms window animation). 0 switches at once.'
      ),
  })
  .strict()

const deviceSchema = z
  .object({
    profile: z
      .enum(PROFILES)
      .default('android-14')
      .describe(
        'android-14 (default); android-11: sdk 30, and `input` starts a VM per call (timing.vmStartMs 1000); xiaomi: a Redmi on MIUI 14 (Android 13) that refuses every `input` until "USB debugging (Security settings)" is on (usbDebuggingSecurity).'
      ),
    users: z
      .array(
        z
          .object({
            id: z.number().int().min(1).describe('The user id (10 and up on phones).'),
            name: z.string().min(1).describe('Its name, as `pm list users` prints it.'),
            workProfile: z
              .boolean()
              .default(false)
              .describe('A managed (work) profile of the owner, not a second user.'),
          })
          .strict()
      )
      .optional()
      .describe(
        'Users besides the owner (0): a work profile or a second user, whose apps `pm` lists only with --user.'
      ),
    usbDebuggingSecurity: z
      .boolean()
      .optional()
      .describe(
        'MIUI/HyperOS\'s "USB debugging (Security settings)": while off, every `input` fails with SecurityException (INJECT_EVENTS). Default: off on the xiaomi profile, on (no such switch) elsewhere.'
      ),
    timing: timingSchema
      .optional()
      .describe('Emulated waits: idle waits of uiautomator dump, VM starts, and a scale for all of them.'),
    uiAutomationHeldBy: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Another tool (Appium, uiautomator2, Maestro) holds UiAutomation: every `uiautomator dump` dies at connect.'
      ),
    snapshot: z.string().optional().describe('Single-screen shorthand for screens: {main: snapshot}.'),
    state: z.enum(['device', 'offline', 'unauthorized', 'no permissions']).optional(),
    screens: z.record(z.string(), screenSchema).optional(),
    initialScreen: z.string().optional(),
    homeScreen: z.string().optional().describe('Screen shown after HOME or when the foreground app is stopped.'),
    transitions: z.array(transitionSchema).optional(),
    packages: z.array(packageSchema).optional(),
    defaultPackages: z.boolean().default(true).describe('Also list a stock set of system packages.'),
    properties: z.record(z.string(), z.string()).optional(),
    wm: z
      .object({
        size: z
          .string()
          .regex(/^\d+x\d+$/, 'expected WIDTHxHEIGHT like 720x1600')
          .optional(),
        density: z.number().int().positive().optional(),
      })
      .strict()
      .optional(),
    logcat: z.array(logEntrySchema).optional(),
    touchscreen: z
      .object({
        name: z.string().min(1).default('virtio_input_multi_touch_1').describe('Name `getevent -pl` shows.'),
        maxX: z.number().int().positive().default(32767).describe('ABS_MT_POSITION_X maximum (minimum 0).'),
        maxY: z.number().int().positive().default(32767).describe('ABS_MT_POSITION_Y maximum (minimum 0).'),
        slots: z.number().int().min(1).max(32).default(10).describe('Fingers it tracks (ABS_MT_SLOT 0..slots-1).'),
        writable: z
          .boolean()
          .optional()
          .describe('Whether the shell may write /dev/input/event1 (default: only below Android 10, sdk < 29).'),
      })
      .strict()
      .optional()
      .describe('The touchscreen `getevent -pl` lists and `sendevent` writes to.'),
    windowsDump: z
      .boolean()
      .default(false)
      .describe(
        'uiautomator knows `dump --windows` and writes every window with its metadata (<displays>), as some builds do.'
      ),
    flock: z
      .boolean()
      .default(true)
      .describe(
        "The shell has toybox's `flock`; false: a build without it (Android before 6.0 ran toolbox, which has none), where `flock` is not found (status 127)."
      ),
    otherDisplay: z
      .object({width: z.number().int().positive(), height: z.number().int().positive()})
      .strict()
      .optional()
      .describe(
        "A second physical display, off (a folded phone's other screen), that SurfaceFlinger lists first: `screencap` without `-d` warns and captures it."
      ),
    faults: z.array(faultSchema).optional(),
    files: z.record(z.string(), z.string()).optional().describe('Device path → text content, created at start.'),
    fields: z
      .array(fieldSchema)
      .optional()
      .describe('Edit fields that refuse or alter what is typed into them, or that are multi-line.'),
    outputNoise: z
      .array(z.string())
      .optional()
      .describe(
        'Lines `input`, `am`, `pm` and `screencap` print on stderr before their own output, as some builds do (waydroid: `Failed to create //.cache for shader cache (Read-only file system)---disabling.`).'
      ),
    adbKeyboard: z
      .boolean()
      .default(false)
      .describe(
        'ADBKeyBoard (com.android.adbkeyboard/.AdbIME) is installed, not yet enabled: its broadcasts type any text.'
      ),
  })
  .strict()

export const scenarioSchema = z.object({devices: z.record(z.string(), deviceSchema)}).strict()

export type Scenario = z.input<typeof scenarioSchema>
export type ParsedScenario = z.output<typeof scenarioSchema>
export type DeviceScenario = z.output<typeof deviceSchema>
export type FaultSpec = z.output<typeof faultSchema>
export type PackageSpec = z.output<typeof packageSchema>
export type ActivitySpec = z.output<typeof activitySchema>
export type TransitionSpec = z.output<typeof transitionSchema>
export type FieldRule = z.output<typeof fieldSchema>
export type LogEntrySpec = z.output<typeof logEntrySchema>

/**
 * Validates a scenario object and checks its cross-references (screens named by initialScreen, transitions
 * and packages exist); snapshot paths are made absolute against `baseDir`. Errors are ConfigErrors naming
 * the key.
 */
export function parseScenario(input: unknown, what: string, baseDir: string): ParsedScenario {
  const parsed = scenarioSchema.safeParse(input)
  if (!parsed.success) {
    throw new ConfigError(`scenario ${what} is invalid: ${describeZodIssues(parsed.error)}`, {
      details: {scenario: what},
      actions: ['See docs/emulate.md for the scenario format.'],
    })
  }
  const scenario = parsed.data
  for (const [serial, device] of Object.entries(scenario.devices)) {
    const at = `devices.${serial}`
    const bad = (key: string, message: string): never => {
      throw new ConfigError(`scenario ${what} is invalid: ${at}.${key}: ${message}`, {details: {scenario: what}})
    }
    const unreachable = unreachableSerial(serial)
    if (unreachable) {
      throw new ConfigError(
        `scenario ${what} is invalid: ${at}: the serial could not be reached by --device: ${unreachable}`,
        {
          details: {scenario: what},
          actions: ['Rename the device (devices.<serial>), e.g. "phone".'],
        }
      )
    }
    if (device.snapshot !== undefined) {
      if (device.screens !== undefined) bad('snapshot', 'give either snapshot or screens, not both')
      device.screens = {main: device.snapshot}
    }
    const screens = device.screens ?? {}
    // `demo` is the bundled demo snapshot, as for `--device demo` and `--serial NAME=demo` (`./demo` is a folder).
    const snapshotPath = (snapshot: string) => (snapshot === 'demo' ? DEMO_DIR : path.resolve(baseDir, snapshot))
    for (const [name, screen] of Object.entries(screens)) {
      screens[name] =
        typeof screen === 'string' ? snapshotPath(screen) : {...screen, snapshot: snapshotPath(screen.snapshot)}
    }
    const names = Object.keys(screens)
    const known = (key: string, name: string | undefined) => {
      if (name !== undefined && name !== '*' && !names.includes(name)) {
        bad(key, `unknown screen "${name}" (screens: ${names.join(', ') || 'none'})`)
      }
    }
    known('initialScreen', device.initialScreen)
    known('homeScreen', device.homeScreen)
    device.transitions?.forEach((t, i) => {
      known(`transitions.${i}.from`, t.from)
      known(`transitions.${i}.to`, t.to)
    })
    device.packages?.forEach((p, i) => {
      known(`packages.${i}.screen`, p.screen)
      p.activities.forEach((a, j) =>
        known(`packages.${i}.activities.${j}.screen`, typeof a === 'string' ? undefined : a.screen)
      )
    })
    for (const file of Object.keys(device.files ?? {})) {
      if (!file.startsWith('/')) bad(`files.${file}`, 'device paths must be absolute, like /sdcard/notes.txt')
    }
  }
  return scenario
}

/** Reads and validates a scenario file (JSON). */
export function loadScenarioFile(file: string): ParsedScenario {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new ConfigError(`cannot read scenario ${file}: ${(error as Error).message}`, {
      details: {scenario: file},
      cause: error,
    })
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new ConfigError(`scenario ${file} is not valid JSON: ${(error as Error).message}`, {
      details: {scenario: file},
      actions: ['The scenario is a JSON file; see docs/emulate.md.'],
    })
  }
  return parseScenario(json, file, path.dirname(path.resolve(file)))
}
