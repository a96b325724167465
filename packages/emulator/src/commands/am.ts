import {fullActivity, shortActivity} from '../activity-names.js'
import {installedFor, userArg} from '../virtual-device.js'
import {ADB_KEYBOARD_IME, ADB_KEYBOARD_PACKAGE} from '../input-methods.js'
import type {CommandContext} from './types.js'

/** Options of `am start` that take a value (so their value is not mistaken for the intent's data). */
const WITH_VALUE = new Set([
  '-a',
  '-d',
  '-t',
  '-c',
  '-n',
  '-f',
  '--user',
  '--es',
  '--ei',
  '--ez',
  '--el',
  '--ef',
  '--eu',
  '--esn',
  '--ecn',
  '--display',
  '--windowingMode',
  '--activityType',
  '-p',
])

/** The pid the am process reports itself by in a Permission Denial. */
const AM_PID = 5123

/** Options of `am start` that take a key and a value. */
const EXTRAS = new Set(['--es', '--ei', '--ez', '--el', '--ef', '--eu', '--ecn'])

function start(ctx: CommandContext, args: string[]): number {
  let component: string | undefined
  let action: string | undefined
  let data: string | undefined
  let wait = false
  let extras = false
  const parts: string[] = []
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string
    if (a === '-W') wait = true
    else if (a === '-n') component = args[++i]
    else if (a === '-a') action = args[++i]
    else if (a === '-d') data = args[++i]
    else if (EXTRAS.has(a)) {
      extras = true
      i += 2
    } else if (a === '--esn') {
      extras = true
      i += 1
    } else if (WITH_VALUE.has(a)) i += 1
  }
  const slash = component?.indexOf('/') ?? -1
  const name = component === undefined ? undefined : slash < 0 ? component : component.slice(0, slash)
  const activity = component === undefined || slash < 0 ? undefined : component.slice(slash + 1)
  // Intent.toString: the component in its short form (`pkg/.Main`), `(has extras)` for a bundle.
  const shown = name !== undefined && activity ? `${name}/${shortActivity(name, activity)}` : component
  if (action) parts.push(`act=${action}`)
  if (data) parts.push(`dat=${data}`)
  if (shown) parts.push(`cmp=${shown}`)
  if (extras) parts.push('(has extras)')
  const intent = `Intent { ${parts.join(' ')} }`
  ctx.out(`Starting: ${intent}\n`)
  if (!component || name === undefined) {
    if (!data && !action) {
      ctx.err('Error: Intent does not match any activities\n')
      return 1
    }
    if (action === 'android.intent.action.VIEW' && data !== undefined) return view(ctx, data, wait)
    return 0
  }
  // am starts for the current user (the owner) unless --user names another: an app installed only in a work
  // profile or for a second user is not found without it (AOSP ActivityManagerShellCommand, mUserId).
  const listed = ctx.device.findPackage(name)
  const pkg = listed && installedFor(listed, userArg(args)) ? listed : undefined
  const found = pkg && activity ? ctx.device.findActivity(pkg, activity) : undefined
  if (!pkg || !activity || !found) {
    // am's result for START_CLASS_NOT_FOUND goes where the wait's report goes: stdout with -W, else stderr.
    const say = wait ? ctx.out.bind(ctx) : ctx.err.bind(ctx)
    say('Error type 3\n')
    say(`Error: Activity class {${name}/${activity ? fullActivity(name, activity) : ''}} does not exist.\n`)
    return 1
  }
  if (!found.exported) {
    // adb's shell user (uid 2000) may start exported activities only: the SecurityException the activity starter
    // throws, as Android 11+ print it (ShellCommand's report of an uncaught exception, exit status 255).
    const uid = 10_000 + ctx.device.packages.indexOf(pkg)
    ctx.err(
      [
        '',
        "Exception occurred while executing 'start':",
        `java.lang.SecurityException: Permission Denial: starting Intent { ${['flg=0x10000000', ...parts.filter((p) => !p.startsWith('('))].join(' ')}${extras ? ' (has extras)' : ''} } from null (pid=${AM_PID}, uid=2000) not exported from uid ${uid}`,
        '\tat com.android.server.wm.ActivityTaskSupervisor.checkStartAnyActivityPermission(ActivityTaskSupervisor.java:1136)',
        '\tat com.android.server.wm.ActivityStarter.executeRequest(ActivityStarter.java:1074)',
        '\tat com.android.server.wm.ActivityStarter.execute(ActivityStarter.java:742)',
        '',
      ].join('\n')
    )
    return 255
  }
  const hot = ctx.device.running.has(pkg.name)
  const user = userArg(args)
  ctx.device.launch(pkg, activity, found.screen, user === 'all' ? 0 : user)
  if (wait) {
    ctx.out(
      `Status: ok\nLaunchState: ${hot ? 'HOT' : 'COLD'}\nActivity: ${pkg.name}/${shortActivity(pkg.name, activity)}\nTotalTime: 412\nWaitTime: 415\nComplete\n`
    )
  }
  return 0
}

/** ACTION_VIEW of a URL: the first package whose `links` prefix matches comes to the front. */
function view(ctx: CommandContext, data: string, wait: boolean): number {
  const pkg = ctx.device.packages.find((p) => (p.links ?? []).some((prefix) => data.startsWith(prefix)))
  if (!pkg) {
    ctx.err(
      `Error: Activity not started, unable to resolve Intent { act=android.intent.action.VIEW dat=${data} flg=0x10000000 }\n`
    )
    return 1
  }
  const activity = pkg.launcher ?? '.MainActivity'
  ctx.device.launch(pkg, activity)
  if (wait)
    ctx.out(
      `Status: ok\nLaunchState: COLD\nActivity: ${pkg.name}/${shortActivity(pkg.name, activity)}\nTotalTime: 300\nWaitTime: 302\nComplete\n`
    )
  return 0
}

/**
 * `am broadcast [-a ACTION] [-p PKG] [--es KEY VALUE]…`: waits for the receivers, as `am` does, and says so. The
 * one receiver emulated is ADBKeyBoard's (input-methods.ts), registered only while it is the bound input method:
 * ADB_INPUT_B64 (`msg`: base64 of UTF-8) and ADB_INPUT_TEXT (`msg`: the text) commit text into the focused
 * field, ADB_CLEAR_TEXT empties it. Any other broadcast reaches no one; either way the result is 0.
 */
function broadcast(ctx: CommandContext, args: string[]): number {
  let action: string | undefined
  let pkg: string | undefined
  const extras = new Map<string, string>()
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string
    if (a === '-a') action = args[++i]
    else if (a === '-p') pkg = args[++i]
    else if (a === '--es') {
      extras.set(args[i + 1] ?? '', args[i + 2] ?? '')
      i += 2
    } else if (WITH_VALUE.has(a)) i += a.startsWith('--e') ? 2 : 1
  }
  const parts = [
    action && `act=${action}`,
    'flg=0x400000',
    pkg && `pkg=${pkg}`,
    extras.size > 0 && '(has extras)',
  ].filter(Boolean)
  ctx.out(`Broadcasting: Intent { ${parts.join(' ')} }\n`)
  const device = ctx.device
  const methods = device.inputMethods
  const toAdbKeyboard =
    (pkg === undefined || pkg === ADB_KEYBOARD_PACKAGE) && methods.current === ADB_KEYBOARD_IME && methods.bound()
  if (toAdbKeyboard && action === 'ADB_INPUT_B64' && extras.has('msg')) {
    device.recordInput({type: 'commit', text: Buffer.from(extras.get('msg') as string, 'base64').toString('utf8')})
  } else if (toAdbKeyboard && action === 'ADB_INPUT_TEXT' && extras.has('msg')) {
    device.recordInput({type: 'commit', text: extras.get('msg') as string})
  } else if (toAdbKeyboard && action === 'ADB_CLEAR_TEXT') device.recordInput({type: 'clear-text'})
  ctx.out('Broadcast completed: result=0\n')
  return 0
}

/** `am start [-W] [-n PKG/ACT] [-a ACTION] [-d URI] …`, `am force-stop PKG`, `am kill PKG`. */
export function am(ctx: CommandContext): number {
  const [, sub, ...rest] = ctx.argv
  if (sub === 'start' || sub === 'start-activity') return start(ctx, rest)
  if (sub === 'force-stop' || sub === 'kill' || sub === 'stop-app') {
    const name = rest.filter((a, i) => !a.startsWith('-') && rest[i - 1] !== '--user').pop()
    // Every user's copy unless --user names one (AOSP ActivityManagerShellCommand.runForceStop: USER_ALL).
    const user = rest.includes('--user') ? userArg(rest) : 'all'
    if (name) ctx.device.forceStop(name, user === 'all' ? undefined : user)
    return 0
  }
  if (sub === 'broadcast') return broadcast(ctx, rest)
  ctx.err(`Error: Unknown command: ${sub ?? ''}\n`)
  return 255
}
