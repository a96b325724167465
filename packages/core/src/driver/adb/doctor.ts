/**
 * `arc doctor`'s probes: what this device lets arc do over ADB, found without changing anything a user would
 * notice (reads, `command -v`, `cmd -l`, `ime list`, a UI dump, one press of a key that does nothing on its own
 * (left Shift: a modifier no view acts on alone) to prove input is really accepted, and a lone SYN_REPORT written to
 * the touchscreen, which moves nothing). Each capability says what serves it and what arc does when it is missing;
 * the report gives what a screen read and an input call cost, as measured while probing.
 */
import type {Capability, CapabilityReport, ScreenCapture} from '../device-driver.js'
import {ADB_KEYBOARD, ADB_KEYBOARD_URL, imeIds, isAdbKeyboard} from './adb-keyboard.js'
import {clipboardReason} from './clipboard.js'
import {INPUT_REFUSED_ACTIONS, XIAOMI_INPUT_SETTING, type DeviceShell} from './device-shell.js'
import {findTouchscreen, parseGetevent} from './getevent.js'
import type {HelperBackend} from './helper-backend.js'
import {HelperFailure, type HelperSession} from './helper-session.js'
import {raw} from './shell-quote.js'

/** The key doctor presses to prove input works: a modifier alone, which no view acts on (KEYCODE_SHIFT_LEFT). */
export const HARMLESS_KEY = 'KEYCODE_SHIFT_LEFT'

const PROGRAMS = [
  'input',
  'uiautomator',
  'screencap',
  'screenrecord',
  'getevent',
  'sendevent',
  'realpath',
  'cmd',
] as const

function parseProps(output: string): Map<string, string> {
  const props = new Map<string, string>()
  for (const m of output.matchAll(/^\[([^\]]+)\]: \[(.*)\]\s*$/gm)) props.set(m[1] as string, m[2] as string)
  return props
}

/**
 * What the on-device helper gives this device: whether it starts (and how long that took, with or without a push),
 * what its release lacks, and how long one read of every window takes through it. Undefined where the mode is off.
 */
async function probeHelper(
  dev: DeviceShell,
  helper: HelperBackend
): Promise<{session?: HelperSession; row: Capability; dumpRow?: Capability}> {
  if (helper.mode === 'off') {
    return {
      row: {
        id: 'helper',
        status: 'no',
        detail: "arc's on-device helper is off (adb.helper, ARC_HELPER or --helper)",
        fallback: 'every capability goes over plain ADB',
        backend: 'none',
      },
    }
  }
  let session: HelperSession
  try {
    session = await helper.session()
  } catch (error) {
    const why = error instanceof HelperFailure ? `${error.code}: ${error.message}` : String(error)
    return {
      row: {
        id: 'helper',
        status: 'no',
        detail: `arc's on-device helper did not start: ${why.slice(0, 300)}`,
        fallback: 'every capability goes over plain ADB',
        backend: 'none',
      },
    }
  }
  const {hello, start} = session
  const missing = hello.missing.length > 0 ? `; this release lacks ${hello.missing.join(', ')}` : ''
  const row: Capability = {
    id: 'helper',
    status: hello.missing.length > 0 ? 'partial' : 'yes',
    detail: `arc's on-device helper runs (app_process, API ${hello.sdk ?? '?'}; started in ${Math.round(start.ms)} ms, ${start.pushed ? 'pushed first' : 'already on the device'})${missing}`,
    fallback: hello.missing.length > 0 ? 'what needs the missing parts goes over plain ADB' : '',
    backend: 'app_process arc.helper.Main',
  }
  const began = performance.now()
  try {
    await helper.dump(session)
    const ms = Math.round(performance.now() - began)
    return {
      session,
      row,
      dumpRow: {
        id: 'helper-dump',
        status: 'yes',
        detail: `every window through UiAutomation in ${ms} ms, no idle wait (it waits after an action)`,
        fallback: '',
        backend: 'arc helper (UiAutomation)',
      },
    }
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error)
    return {
      session,
      row,
      dumpRow: {
        id: 'helper-dump',
        status: 'no',
        detail: `the helper's read failed: ${why.slice(0, 200)}`,
        fallback: 'screen reads use uiautomator dump',
        backend: 'none',
      },
    }
  }
}

export async function probe(
  dev: DeviceShell,
  capture: () => Promise<ScreenCapture>,
  helper?: HelperBackend
): Promise<CapabilityReport> {
  const [propsText, found, services, listing, imeList] = await Promise.all([
    dev.text(['getprop']),
    // `command -v` prints the path of a program it finds (a shell builtin: runs nothing); one name per call,
    // as some shells read only the first.
    dev.text([raw(`for p in ${PROGRAMS.join(' ')}; do command -v "$p"; done`)]),
    dev.text(['cmd', '-l']),
    dev.text(['getevent', '-pl']),
    dev.text(['ime', 'list', '-a', '-s']),
  ])
  const props = parseProps(propsText)
  const sdk = Number(props.get('ro.build.version.sdk')) || undefined
  const release = props.get('ro.build.version.release')
  const has = new Set(
    found
      .split(/\r?\n/)
      .map((line) => line.trim().split('/').at(-1) ?? '')
      .filter((name) => (PROGRAMS as readonly string[]).includes(name))
  )
  const serviceList = new Set(
    services
      .split(/\r?\n/)
      .map((s) => s.trim())
      .filter((s) => /^[\w.-]+$/.test(s))
  )
  const caps: Capability[] = []
  const add = (id: string, ok: boolean | 'partial', detail: string, fallback: string, backend: string) =>
    caps.push({
      id,
      status: ok === 'partial' ? 'partial' : ok ? 'yes' : 'no',
      detail,
      fallback: ok === true ? '' : fallback,
      backend: backend || 'none',
    })

  // UI dump with every window.
  let dump: ScreenCapture | undefined
  let dumpError = ''
  const readStart = performance.now()
  try {
    dump = await capture()
  } catch (error) {
    dumpError = error instanceof Error ? error.message : String(error)
  }
  const readMs = dump ? Math.round(performance.now() - readStart) : null
  if (!dump)
    add(
      'ui-dump',
      false,
      `uiautomator dump failed: ${dumpError.slice(0, 200)}`,
      'screen-state, annotate and element tools cannot work',
      ''
    )
  else if (dump.allWindows)
    add('ui-dump', true, 'uiautomator dump --windows: every on-screen window', '', 'uiautomator dump --windows')
  else
    add(
      'ui-dump',
      'partial',
      'uiautomator dumps the active window only',
      'screen-state prints a note that other windows (keyboard, dialogs) are missing',
      'uiautomator dump'
    )

  // Input, really tried: `input` may be there and still refuse every event (MIUI/HyperOS without the setting).
  const inputBackend =
    (sdk ?? 0) >= 31 ? 'input (cmd input, in system_server)' : 'input (app_process: a new VM per call)'
  let inputMs: number | null = null
  if (!has.has('input')) add('input', false, 'no input program', 'touch, keys and typing cannot work', '')
  else {
    const inputStart = performance.now()
    const tried = await dev.run(['input', 'keyevent', HARMLESS_KEY])
    const said = tried.output.toString('utf8')
    if (/SecurityException.*INJECT_EVENTS/.test(said)) {
      add(
        'input',
        false,
        `input is refused: ${said
          .split(/\r?\n/)
          .find((l) => /INJECT_EVENTS/.test(l))
          ?.trim()
          .slice(0, 200)}`,
        `touch, keys and typing fail until "${XIAOMI_INPUT_SETTING}" is on. ${INPUT_REFUSED_ACTIONS[0]}`,
        ''
      )
    } else if (tried.exitCode !== 0) {
      add(
        'input',
        false,
        `input keyevent ${HARMLESS_KEY} failed (exit ${tried.exitCode}): ${said.trim().slice(0, 200)}`,
        'touch, keys and typing may not work',
        ''
      )
    } else {
      inputMs = Math.round(performance.now() - inputStart)
      add(
        'input',
        true,
        `input tap/swipe/keyevent/text${(sdk ?? 0) >= 31 ? ' (in system_server: fast)' : ' (a new VM per call: 0.3-1 s each)'}`,
        '',
        inputBackend
      )
    }
  }
  const inputWorks = caps.find((c) => c.id === 'input')?.status === 'yes'
  const helped = helper ? await probeHelper(dev, helper) : undefined
  if (helped) {
    caps.push(helped.row)
    if (helped.dumpRow) caps.push(helped.dumpRow)
  }
  const lacks = (api: string) => !helped?.session || helped.session.hello.missing.includes(api)
  const adbKeyboard = imeIds(imeList).some(isAdbKeyboard)
  const pastes = !lacks('clipboard') && !lacks('input') && !lacks('paste')
  add(
    'text-input',
    inputWorks ? (adbKeyboard || pastes ? true : 'partial') : adbKeyboard || pastes ? 'partial' : false,
    pastes
      ? "input text for printable ASCII; other text by a paste through arc's on-device helper (the clipboard put back after)"
      : adbKeyboard
        ? `input text for printable ASCII; other text through ADBKeyBoard (${ADB_KEYBOARD}, switched to for each such text)`
        : 'input text types printable ASCII only; no ADBKeyBoard among the input methods (ime list -a -s)',
    inputWorks
      ? `non-ASCII text fails with UNSUPPORTED: install ADBKeyBoard (${ADB_KEYBOARD_URL}) with arc app install`
      : 'the cursor and delete keys are input too, so editing a field fails where input is refused',
    [
      inputWorks && 'input text',
      pastes ? 'arc helper (clipboard + KEYCODE_PASTE)' : adbKeyboard && 'ADBKeyBoard (am broadcast)',
    ]
      .filter(Boolean)
      .join('; ')
  )
  const motion = inputWorks && (sdk ?? 0) >= 29
  add(
    'single-finger-gesture',
    motion ? true : inputWorks ? 'partial' : false,
    motion
      ? 'input motionevent (Android 10+)'
      : inputWorks
        ? 'no input motionevent before Android 10'
        : 'input is refused',
    'custom_gesture with one path is sent as one swipe per segment (the finger lifts between segments)',
    motion ? 'input motionevent' : inputWorks ? 'input swipe' : ''
  )

  const touch = findTouchscreen(parseGetevent(listing))
  let multitouch = false
  let multiDetail = 'getevent -pl lists no touchscreen with ABS_MT_POSITION_X/Y'
  if (touch && has.has('sendevent')) {
    // A lone SYN_REPORT: a write the input system accepts and ignores (nothing changed since the last report).
    const result = await dev.run(['sendevent', touch.path, 0, 0, 0])
    multitouch = result.exitCode === 0
    const x = touch.abs.get('ABS_MT_POSITION_X')
    const y = touch.abs.get('ABS_MT_POSITION_Y')
    multiDetail = multitouch
      ? `sendevent to ${touch.path} (${touch.name}, x ${x?.min}..${x?.max}, y ${y?.min}..${y?.max})`
      : `the shell may not write ${touch.path} (${result.output.toString('utf8').trim().slice(0, 120) || `exit ${result.exitCode}`})`
  } else if (touch) multiDetail = 'no sendevent program'
  if (!lacks('input'))
    add(
      'multi-touch',
      true,
      "InputManager.injectInputEvent through arc's on-device helper",
      '',
      'arc helper (injectInputEvent)'
    )
  else
    add(
      'multi-touch',
      multitouch,
      multiDetail,
      'pinch and custom_gesture with several paths fail with UNSUPPORTED',
      multitouch ? `sendevent ${touch?.path}` : ''
    )

  if (!lacks('clipboard')) {
    add(
      'clipboard-read',
      true,
      "IClipboard through arc's on-device helper (app_process as the shell)",
      '',
      'arc helper (IClipboard)'
    )
    add(
      'clipboard-write',
      true,
      "IClipboard through arc's on-device helper (app_process as the shell)",
      '',
      'arc helper (IClipboard)'
    )
  } else {
    add(
      'clipboard-read',
      false,
      clipboardReason(sdk, 'read'),
      'get_clipboard fails with UNSUPPORTED (never an empty clipboard that may be a denied read)',
      ''
    )
    add('clipboard-write', false, clipboardReason(sdk, 'write'), 'set_clipboard fails with UNSUPPORTED', '')
  }
  add(
    'screenshot',
    has.has('screencap'),
    has.has('screencap') ? 'screencap -p' : 'no screencap program',
    'screenshots and annotate cannot work',
    has.has('screencap') ? 'screencap -p' : ''
  )
  add(
    'screenrecord',
    has.has('screenrecord'),
    has.has('screenrecord') ? 'screenrecord is present' : 'no screenrecord program',
    'arc does not record video (no tool uses it yet)',
    has.has('screenrecord') ? 'screenrecord' : ''
  )
  add(
    'statusbar-service',
    serviceList.has('statusbar'),
    serviceList.has('statusbar')
      ? 'cmd statusbar expand-notifications / expand-settings'
      : 'cmd -l does not list statusbar',
    'notifications and quick-settings swipe down from the top edge instead',
    serviceList.has('statusbar') ? 'cmd statusbar' : inputWorks ? 'input swipe' : ''
  )
  add(
    'package-service',
    serviceList.has('package'),
    serviceList.has('package') ? 'cmd package resolve-activity / query-activities' : 'cmd -l does not list package',
    'apps are launched with monkey and listed with pm',
    serviceList.has('package') ? 'cmd package' : 'monkey, pm'
  )
  add(
    'realpath',
    has.has('realpath'),
    has.has('realpath') ? 'toybox realpath' : 'no realpath program',
    'file tools fall back to readlink -f',
    has.has('realpath') ? 'realpath' : 'readlink -f'
  )
  return {
    serial: dev.serial,
    android: {
      release: release ?? null,
      sdk: sdk ?? null,
      model: props.get('ro.product.model') ?? null,
      build_type: props.get('ro.build.type') ?? null,
    },
    capabilities: caps,
    costs: {read_ms: readMs, input_ms: inputMs},
  }
}
