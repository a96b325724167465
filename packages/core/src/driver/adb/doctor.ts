/**
 * `arc doctor`'s probes: what this device lets arc do over ADB, found without changing anything a user would
 * notice (reads, `command -v`, `cmd -l`, `ime list`, a UI dump, and a lone SYN_REPORT written to the
 * touchscreen, which moves nothing). Each capability says what arc does when it is missing.
 */
import type {Capability, CapabilityReport, ScreenCapture} from '../device-driver.js'
import {ADB_KEYBOARD, ADB_KEYBOARD_URL, imeIds, isAdbKeyboard} from './adb-keyboard.js'
import {clipboardReason} from './clipboard.js'
import type {DeviceShell} from './device-shell.js'
import {findTouchscreen, parseGetevent} from './getevent.js'
import {raw} from './shell-quote.js'

const PROGRAMS = ['input', 'uiautomator', 'screencap', 'screenrecord', 'getevent', 'sendevent', 'realpath', 'cmd'] as const

function parseProps(output: string): Map<string, string> {
  const props = new Map<string, string>()
  for (const m of output.matchAll(/^\[([^\]]+)\]: \[(.*)\]\s*$/gm)) props.set(m[1] as string, m[2] as string)
  return props
}

export async function probe(dev: DeviceShell, capture: () => Promise<ScreenCapture>): Promise<CapabilityReport> {
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
      .filter((name) => (PROGRAMS as readonly string[]).includes(name)),
  )
  const serviceList = new Set(services.split(/\r?\n/).map((s) => s.trim()).filter((s) => /^[\w.-]+$/.test(s)))
  const caps: Capability[] = []
  const add = (id: string, ok: boolean | 'partial', detail: string, fallback: string) =>
    caps.push({id, status: ok === 'partial' ? 'partial' : ok ? 'yes' : 'no', detail, fallback: ok === true ? '' : fallback})

  // UI dump with every window.
  let dump: ScreenCapture | undefined
  let dumpError = ''
  try {
    dump = await capture()
  } catch (error) {
    dumpError = error instanceof Error ? error.message : String(error)
  }
  if (!dump) add('ui-dump', false, `uiautomator dump failed: ${dumpError.slice(0, 200)}`, 'screen-state, annotate and element tools cannot work')
  else if (dump.allWindows) add('ui-dump', true, 'uiautomator dump --windows: every on-screen window', '')
  else add('ui-dump', 'partial', 'uiautomator dumps the active window only', 'screen-state prints a note that other windows (keyboard, dialogs) are missing')

  add(
    'input',
    has.has('input'),
    has.has('input') ? `input tap/swipe/keyevent/text${(sdk ?? 0) >= 31 ? ' (in system_server: fast)' : ' (a new VM per call: 0.3-1 s each)'}` : 'no input program',
    'touch, keys and typing cannot work',
  )
  const adbKeyboard = imeIds(imeList).some(isAdbKeyboard)
  add(
    'text-input',
    has.has('input') ? (adbKeyboard ? true : 'partial') : false,
    adbKeyboard
      ? `input text for printable ASCII; other text through ADBKeyBoard (${ADB_KEYBOARD}, switched to for each such text)`
      : 'input text types printable ASCII only; no ADBKeyBoard among the input methods (ime list -a -s)',
    `non-ASCII text fails with UNSUPPORTED: install ADBKeyBoard (${ADB_KEYBOARD_URL}) with arc app install`,
  )
  const motion = has.has('input') && (sdk ?? 0) >= 29
  add('single-finger-gesture', motion ? true : 'partial', motion ? 'input motionevent (Android 10+)' : 'no input motionevent before Android 10', 'custom_gesture with one path is sent as one swipe per segment (the finger lifts between segments)')

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
  add('multi-touch', multitouch, multiDetail, 'pinch and custom_gesture with several paths fail with UNSUPPORTED')

  add('clipboard-read', false, clipboardReason(sdk, 'read'), 'get_clipboard fails with UNSUPPORTED (never an empty clipboard that may be a denied read)')
  add('clipboard-write', false, clipboardReason(sdk, 'write'), 'set_clipboard fails with UNSUPPORTED')
  add('screenshot', has.has('screencap'), has.has('screencap') ? 'screencap -p' : 'no screencap program', 'screenshots and annotate cannot work')
  add('screenrecord', has.has('screenrecord'), has.has('screenrecord') ? 'screenrecord is present' : 'no screenrecord program', 'arc does not record video (no tool uses it yet)')
  add(
    'statusbar-service',
    serviceList.has('statusbar'),
    serviceList.has('statusbar') ? 'cmd statusbar expand-notifications / expand-settings' : 'cmd -l does not list statusbar',
    'notifications and quick-settings swipe down from the top edge instead',
  )
  add(
    'package-service',
    serviceList.has('package'),
    serviceList.has('package') ? 'cmd package resolve-activity / query-activities' : 'cmd -l does not list package',
    'apps are launched with monkey and listed with pm',
  )
  add('realpath', has.has('realpath'), has.has('realpath') ? 'toybox realpath' : 'no realpath program', 'file tools fall back to readlink -f')
  return {
    serial: dev.serial,
    android: {release: release ?? null, sdk: sdk ?? null, model: props.get('ro.product.model') ?? null, buildType: props.get('ro.build.type') ?? null},
    capabilities: caps,
  }
}
