import {createHash} from 'node:crypto'

import {MAIN_DISPLAY_ID, OTHER_DISPLAY_ID} from '../displays.js'
import {fullActivity, shortActivity} from '../activity-names.js'
import {type VirtualDevice} from '../virtual-device.js'
import {packageDump, packagesDump} from './package-dump.js'
import type {CommandContext} from './types.js'
import {deviceWindows, focusedTitle, windowListText, windowListText9} from '../window-list.js'

/**
 * The API level from which `dumpsys window` prints the Android 10+ layout (focus and rotation in the displays
 * section); below it the device prints Android 9's, where the windows section closes with them.
 */
const FOCUS_IN_DISPLAYS_SDK = 29

const sdkOf = (device: VirtualDevice) => Number(device.properties.get('ro.build.version.sdk') ?? '34')

/** A stable 7-hex-digit object id, like the identity hashes dumpsys prints. */
function oid(seed: string): string {
  return createHash('sha1').update(seed).digest('hex').slice(0, 7)
}

const ROTATION_NAMES = ['ROTATION_0', 'ROTATION_90', 'ROTATION_180', 'ROTATION_270']

/** The focused window and activity record; `pkg` and its task id when an app is in front. */
type Focus = {window: string; record: string} & ({pkg: string; task: number} | {pkg?: undefined; task?: undefined})

function focus(device: VirtualDevice): Focus {
  const {package: pkg, activity} = device.foreground
  if (!pkg) return {window: 'null', record: 'null'}
  const act = activity ?? '.MainActivity'
  const task = (pkg.length % 50) + 10
  return {
    pkg,
    task,
    window: `Window{${oid(`w${pkg}${act}`)} u0 ${pkg}/${fullActivity(pkg, act)}}`,
    record: `ActivityRecord{${oid(`a${pkg}${act}`)} u0 ${pkg}/${shortActivity(pkg, act)} t${task}}`,
  }
}

/**
 * The default display as the window manager holds it (Android's `DisplayContent`): the natural physical size and
 * density (what `wm size`/`wm density` print as Physical), the size and density in force (`wm size`/`wm density`
 * overrides win, as they print them as Override) and the size in force turned to the current rotation.
 */
function displaySizes(device: VirtualDevice) {
  const physical = device.physicalSize
  const base = device.wmSize ?? physical
  const density = device.wmDensity ?? device.screen.density
  const overridden =
    base.width !== physical.width || base.height !== physical.height || density !== device.screen.density
  const current = device.screen.rotation % 2 === 1 ? {width: base.height, height: base.width} : base
  return {physical, base, density, overridden, current}
}

/**
 * Android 13's size line: `init=` physical, `base=` only while an override is set (then both values in force),
 * `cur=` the current size (app and range taken as the whole screen).
 */
function displayLine(device: VirtualDevice): string {
  const {physical, base, density, overridden, current} = displaySizes(device)
  const [short, long] = [Math.min(current.width, current.height), Math.max(current.width, current.height)]
  return (
    `    init=${physical.width}x${physical.height} ${device.screen.density}dpi mMinSizeOfResizeableTaskDp=220` +
    (overridden ? ` base=${base.width}x${base.height} ${density}dpi` : '') +
    ` cur=${current.width}x${current.height} app=${current.width}x${current.height} rng=${short}x${short}-${long}x${long}`
  )
}

/** `dumpsys window displays`: the display's sizes, rotation and focus (Android 10+ keep the focus lines here). */
function displaysSection(device: VirtualDevice): string[] {
  if (sdkOf(device) < FOCUS_IN_DISPLAYS_SDK) return displaysSection9(device)
  const f = focus(device)
  const title = focusedTitle(device)
  const currentFocus = title === undefined ? 'null' : `Window{${oid(`w${title}`)} u0 ${title}}`
  const s = device.screen
  const rotation = ROTATION_NAMES[s.rotation] as string
  const {density, current} = displaySizes(device)
  return [
    'WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)',
    `  Display: mDisplayId=0 rootTasks=4`,
    displayLine(device),
    `    mCurrentRotation=${rotation}`,
    `    mLastOrientation=${s.rotation % 2 === 1 ? 0 : 1}`,
    // Display 0's DisplayPolicy power line (dumpsys-window/pixel-sailfish-android10.txt, mtk-tb8168-tablet-android13.txt).
    '  DisplayPolicy',
    `    mAwake=${device.awake} mScreenOnEarly=${device.awake} mScreenOnFully=${device.awake}`,
    `  mCurrentFocus=${currentFocus}`,
    `  mFocusedApp=${f.record}`,
    '',
    `  mGlobalConfiguration={1.0 310mcc260mnc [en_US] ldltr sw411dp w411dp h843dp ${density}dpi nrml long port finger qwerty/v/v -nav/h winConfig={ mBounds=Rect(0, 0 - ${current.width}, ${current.height}) mRotation=${rotation}}}`,
    `  mCurrentFocus=${currentFocus}`,
    `  mFocusedApp=${f.record}`,
    '',
  ]
}

/**
 * Android 9's `dumpsys window displays` (../shared/fixtures/device-output/dumpsys-window/emulator-sdk_gphone_x86-android9.txt):
 * the size line without Android 10's `mMinSizeOfResizeableTaskDp`, the display frames (`r=` the rotation) and
 * DisplayInfo, and neither `mCurrentRotation=` nor the focus, which the windows section prints.
 */
function displaysSection9(device: VirtualDevice): string[] {
  const {physical, base, density, overridden, current} = displaySizes(device)
  const [short, long] = [Math.min(current.width, current.height), Math.max(current.width, current.height)]
  const {width: w, height: h} = current
  const rotation = device.screen.rotation
  return [
    'WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)',
    '  Display: mDisplayId=0',
    `    init=${physical.width}x${physical.height} ${device.screen.density}dpi` +
      (overridden ? ` base=${base.width}x${base.height} ${density}dpi` : '') +
      ` cur=${w}x${h} app=${w}x${h} rng=${short}x${short}-${long}x${long}`,
    `    deferred=false mLayoutNeeded=false mTouchExcludeRegion=SkRegion((0,0,${w},${h}))`,
    '',
    '  mLayoutSeq=166',
    '',
    `   mDisplayInfo=DisplayInfo{"Built-in Screen", uniqueId "local:0", app ${w} x ${h}, real ${w} x ${h}, rotation ${rotation}, density ${density} (${density}.0 x ${density}.0) dpi, layerStack 0, type BUILT_IN, state ${device.awake ? 'ON' : 'OFF'}, FLAG_SECURE, FLAG_SUPPORTS_PROTECTED_BUFFERS, removeMode 0}`,
    '',
    `  DisplayFrames w=${w} h=${h} r=${rotation}`,
    `    mStable=[0,0][${w},${h}]`,
    `    mSystem=[0,0][${w},${h}]`,
    '',
  ]
}

/** `dumpsys window windows`: the window list only (Android 10+ print the focus in the displays section). */
function windowsSection(device: VirtualDevice, dumpAll = true): string[] {
  if (sdkOf(device) < FOCUS_IN_DISPLAYS_SDK) return windowsSection9(device)
  return ['WINDOW MANAGER WINDOWS (dumpsys window windows)', ...windowListText(device, dumpAll), '']
}

/**
 * Android 9's `dumpsys window windows`: the window list, then the global configuration, the focus
 * (`mFocusedApp=AppWindowToken{… token=Token{… ActivityRecord{…}}}`) and `mRotation=` (the capture named above).
 */
function windowsSection9(device: VirtualDevice): string[] {
  const f = focus(device)
  const title = focusedTitle(device)
  const currentFocus = title === undefined ? 'null' : `Window{${oid(`w${title}`)} u0 ${title}}`
  const focusedApp = f.pkg ? `AppWindowToken{${oid(`k${f.pkg}`)} token=Token{${oid(`o${f.pkg}`)} ${f.record}}}` : 'null'
  const {density, current} = displaySizes(device)
  return [
    'WINDOW MANAGER WINDOWS (dumpsys window windows)',
    ...windowListText9(device),
    '',
    `  mGlobalConfiguration={1.0 310mcc260mnc [en_US] ldltr sw411dp w411dp h659dp ${density}dpi nrml ${current.width > current.height ? 'land' : 'port'} finger qwerty/v/v -nav/h winConfig={ mBounds=Rect(0, 0 - ${current.width}, ${current.height}) mAppBounds=Rect(0, 0 - ${current.width}, ${current.height}) mWindowingMode=fullscreen mActivityType=undefined} s.6}`,
    '  mHasPermanentDpad=false',
    `  mCurrentFocus=${currentFocus}`,
    `  mFocusedApp=${focusedApp}`,
    '  mInTouchMode=true',
    `  mSystemBooted=true mDisplayEnabled=true`,
    `  mRotation=${device.screen.rotation} mAltOrientation=false`,
    '  mLastWindowForcedOrientation=-1 mLastOrientation=-1',
    '  Animation settings: disabled=false window=1.0 transition=1.0 animator=1.0',
    '',
  ]
}

const SEPARATOR = '-'.repeat(79)

/**
 * Every section of the whole dump, in Android 13's order and headers (shared/fixtures/device-output/dumpsys-window):
 * last ANR, policy, animator, sessions, display contents, tokens, windows, trace, logging, refresh-rate denylist,
 * constants. With `-a` (`dumpAll`) each section follows a line of dashes and the windows carry every line; without
 * it the sections follow a blank line and the windows lack the `-a`-only lines, as AOSP's `doDump` prints them.
 */
function wholeDump(device: VirtualDevice, dumpAll: boolean): string {
  const windows = deviceWindows(device)
  const text = (lines: string[]) => `${lines.join('\n')}\n`
  // Each section as `dumpsys window <name>` prints it alone; the first seven are followed by a blank line.
  const sections: Array<[string, boolean]> = [
    [text(['WINDOW MANAGER LAST ANR (dumpsys window lastanr)', '  <no ANR has occurred since boot>']), true],
    [windowPolicy(device), true],
    [
      text([
        'WINDOW MANAGER ANIMATOR STATE (dumpsys window animator)',
        '    DisplayContentsAnimator #0:',
        ...windows.map((w, i) => `      Window #${i}: WindowStateAnimator{${oid(`a${w.title}${i}`)} ${w.title}}`),
      ]),
      true,
    ],
    [
      text([
        'WINDOW MANAGER SESSIONS (dumpsys window sessions)',
        ...[...new Set(windows.map((w) => w.package ?? 'android'))].flatMap((pkg) => [
          `  Session Session{${oid(`s${pkg}`)} 1234:u0a10080}:`,
          '    mNumWindow=1 mCanAddInternalSystemWindow=false mAppOverlaySurfaces={} mAlertWindowSurfaces={} mClientDead=false',
          `    mPackageName=${pkg}`,
        ]),
      ]),
      true,
    ],
    [displaysSection(device).join('\n'), true],
    [
      text([
        'WINDOW MANAGER TOKENS (dumpsys window tokens)',
        '  All tokens:',
        '  Display #0',
        ...windows.flatMap((w, i) => [
          `  WindowToken{${oid(`t${i}`)} type=${w.type} android.os.BinderProxy@${oid(`b${i}`)}}:`,
          `    windows=[Window{${oid(`w${w.title}${i}`)} u0 ${w.title}}]`,
        ]),
      ]),
      true,
    ],
    [windowsSection(device, dumpAll).join('\n'), true],
    // Android 9's whole dump ends with the windows; Android 13's goes on with these.
    [
      text([
        'WINDOW MANAGER TRACE (dumpsys window trace)',
        'Status: Disabled',
        'Log level: 1',
        'Buffer size: 10485760 bytes',
        'Buffer usage: 0 bytes',
        'Elements in the buffer: 0',
      ]),
      false,
    ],
    [
      text([
        'WINDOW MANAGER LOGGING (dumpsys window logging)',
        'ProtoLog status: Disabled',
        'Logging definitions loaded: 0',
      ]),
      false,
    ],
    [
      text([
        'WINDOW MANAGER HIGH REFRESH RATE BLACKLIST (dumpsys window refresh)',
        'High Refresh Rate Denylist',
        '  Packages:',
      ]),
      false,
    ],
    [
      text([
        'WINDOW MANAGER CONSTANTS (dumpsys window constants):',
        '  system_gesture_exclusion_log_debounce_millis=0',
        '  system_gesture_exclusion_limit_dp=200',
      ]),
      false,
    ],
  ]
  if (sdkOf(device) < FOCUS_IN_DISPLAYS_SDK) {
    // Android 9 (the capture named at displaysSection9): an empty section between the sessions and the displays
    // (two lines of dashes in a row), and nothing after the windows.
    sections.splice(7)
    sections.splice(4, 0, ['', false])
  }
  return `\n${sections.map(([section, blank]) => `${dumpAll ? `${SEPARATOR}\n` : ''}${section}${blank ? '\n' : ''}`).join('')}`
}

/**
 * `dumpsys window [-a] [displays|windows|policy]`: one section (printed with every detail, as AOSP's `doDump` does
 * for a named section), or with none named the whole dump, every detail only with `-a`.
 */
function window(device: VirtualDevice, args: string[]): string {
  const dumpAll = args.includes('-a')
  const section = args.find((a) => !a.startsWith('-'))
  if (section === 'policy') return windowPolicy(device)
  if (section === 'displays') return displaysSection(device).join('\n')
  if (section === 'windows') return windowsSection(device).join('\n')
  return wholeDump(device, dumpAll)
}

function activity(device: VirtualDevice): string {
  const f = focus(device)
  return [
    'ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)',
    'Display #0 (activities from top to bottom):',
    ...(f.pkg
      ? [
          `  * Task{${oid(`t${f.pkg}`)} #${f.task} type=standard A=10123:${f.pkg} U=0 visible=true mode=fullscreen translucent=false sz=1}`,
          `    topResumedActivity=${f.record}`,
          `      * Hist  #0: ${f.record}`,
          '',
          `  ResumedActivity: ${f.record}`,
          `  mResumedActivity: ${f.record}`,
          `  mFocusedApp=${f.record}`,
        ]
      : ['  ResumedActivity: null']),
    '',
  ].join('\n')
}

function input(device: VirtualDevice): string {
  const s = device.screen
  const p = device.physicalSize
  return [
    'INPUT MANAGER (dumpsys input)',
    '',
    'Input Reader State:',
    '  Device 3: virtio_input_multi_touch_2',
    '    Sources: TOUCHSCREEN',
    '    Touch Input Mapper (mode - DIRECT):',
    `      Viewport INTERNAL: displayId=0, uniqueId=local:${MAIN_DISPLAY_ID}, port=0, ` +
      `orientation=${s.rotation}, logicalFrame=[0, 0, ${s.width}, ${s.height}], physicalFrame=[0, 0, ${s.width}, ${s.height}], ` +
      `deviceSize=[${p.width}, ${p.height}], isActive=[1]`,
    `      SurfaceWidth: ${s.width}px`,
    `      SurfaceHeight: ${s.height}px`,
    `      SurfaceOrientation: ${s.rotation}`,
    '',
  ].join('\n')
}

/** `dumpsys display`: display 0's viewport and device; with `otherDisplay`, that display's (inactive, off) first. */
function display(device: VirtualDevice): string {
  const s = device.screen
  const p = device.physicalSize
  const o = device.otherDisplay
  const main = `DisplayViewport{type=INTERNAL, valid=true, isActive=true, displayId=0, uniqueId='local:${MAIN_DISPLAY_ID}', physicalPort=0, orientation=${s.rotation}, logicalFrame=Rect(0, 0 - ${s.width}, ${s.height}), physicalFrame=Rect(0, 0 - ${s.width}, ${s.height}), deviceWidth=${s.width}, deviceHeight=${s.height}}`
  const viewports = o
    ? [
        `DisplayViewport{type=INTERNAL, valid=true, isActive=false, displayId=3, uniqueId='local:${OTHER_DISPLAY_ID}', physicalPort=1, orientation=0, logicalFrame=Rect(0, 0 - ${o.width}, ${o.height}), physicalFrame=Rect(0, 0 - ${o.width}, ${o.height}), deviceWidth=${o.width}, deviceHeight=${o.height}}`,
        main,
      ]
    : [main]
  return [
    'DISPLAY MANAGER (dumpsys display)',
    '  mOnlyCode=false',
    `  mViewports=[${viewports.join(', ')}]`,
    `Display Devices: size=${o ? 2 : 1}`,
    ...(o
      ? [
          `  DisplayDeviceInfo{"Built-in Screen": uniqueId="local:${OTHER_DISPLAY_ID}", ${o.width} x ${o.height}, modeId 2, density ${s.density}, state OFF}`,
        ]
      : []),
    `  DisplayDeviceInfo{"Built-in Screen": uniqueId="local:${MAIN_DISPLAY_ID}", ${p.width} x ${p.height}, modeId 1, density ${s.density}, state ON}`,
    `    mCurrentOrientation=${s.rotation}`,
    '',
  ].join('\n')
}

/** `dumpsys SurfaceFlinger --display-id`: the physical displays, the other display (scenario `otherDisplay`) first. */
function surfaceFlingerDisplays(device: VirtualDevice): string {
  const lines = [`Display ${MAIN_DISPLAY_ID} (HWC display 0): port=0 pnpId=GGL displayName="EMU_display_0"`]
  if (device.otherDisplay)
    lines.unshift(`Display ${OTHER_DISPLAY_ID} (HWC display 1): port=1 pnpId=GGL displayName="EMU_display_1"`)
  return `${lines.join('\n')}\n`
}

/**
 * `dumpsys input_method`: the service's lines around its show state, in the layout of the device's release (Android
 * 7-13 print mInputShown on the flags line, 14+ on its own line); further down, the IME's own `mIsInputViewShown=`,
 * which real devices leave true after the keyboard is hidden (shared/fixtures/device-output/dumpsys-input-method).
 */
function inputMethod(device: VirtualDevice): string {
  const shown = device.keyboardShown
  const sdk = Number(device.properties.get('ro.build.version.sdk') ?? '34')
  const state =
    sdk >= 34
      ? [
          ' mRequestedShowExplicitly=false mShowForced=false',
          '  mImeHiddenByDisplayPolicy=false',
          `  mInputShown=${shown}`,
        ]
      : [`  mShowRequested=${shown} mShowExplicitlyRequested=false mShowForced=false mInputShown=${shown}`]
  return [
    'Current Input Method Manager state:',
    ...device.inputMethods.dumpLines().trimEnd().split('\n'),
    ...state,
    '  mInFullscreenMode=false',
    '  mSystemReady=true mInteractive=true',
    '',
    'Input method service state for com.android.inputmethod.latin.LatinIME@6c69bbc:',
    `  mWindowVisible=${shown} mWindowWasVisible=${shown} mInShowWindow=false`,
    `  mIsInputViewShown=${shown || device.screenHasKeyboard}`,
    '',
  ].join('\n')
}

/**
 * `dumpsys power`: the wakefulness lines (Android 10+ wording). mWakefulness is
 * PowerManagerInternal.wakefulnessToString: Asleep, Awake, Dreaming (a screensaver shows; the display is on) or Dozing.
 */
function power(device: VirtualDevice): string {
  return [
    'POWER MANAGER (dumpsys power)',
    '',
    'Power Manager State:',
    `  mWakefulness=${!device.awake ? 'Asleep' : device.dreaming ? 'Dreaming' : 'Awake'}`,
    `  mWakefulnessChanging=false`,
    `  mIsPowered=${device.battery.ac || device.battery.usb}`,
    `  mBatteryLevel=${device.battery.level}`,
    `Display Power: state=${device.awake ? 'ON' : 'OFF'}`,
    '',
  ].join('\n')
}

/** `dumpsys window policy`: the keyguard delegate block of Android 9+. */
function windowPolicy(device: VirtualDevice): string {
  const showing = device.keyguardShowing
  return [
    'WINDOW MANAGER POLICY STATE (dumpsys window policy)',
    `    mSystemReady=true mSystemBooted=true`,
    `    mLidState=LID_ABSENT mCameraLensCoverState=LENS_COVER_ABSENT`,
    // The power line up to Android 9 (emulator-sdk_gphone_x86-android9.txt: `mAwake=truemScreenOnEarly=true`, the
    // first two glued); from Android 10 it moved to each display's DisplayPolicy (displaysSection).
    ...(sdkOf(device) < FOCUS_IN_DISPLAYS_SDK
      ? [`    mAwake=${device.awake}mScreenOnEarly=${device.awake} mScreenOnFully=${device.awake}`]
      : []),
    '    KeyguardServiceDelegate',
    `      showing=${showing}`,
    `      showingAndNotOccluded=${showing}`,
    `      inputRestricted=${showing}`,
    '      occluded=false',
    `      secure=${device.lock === 'secure'}`,
    `      dreaming=${device.dreaming}`,
    '      systemIsReady=true',
    `      deviceHasKeyguard=${device.lock !== 'none'}`,
    '      enabled=true',
    `      interactiveState=${device.awake ? 'INTERACTIVE_STATE_AWAKE' : 'INTERACTIVE_STATE_SLEEP'}`,
    '      KeyguardStateMonitor',
    `        mIsShowing=${showing}`,
    `        mSimSecure=false`,
    `        mInputRestricted=${showing}`,
    '        mTrusted=false',
    '',
  ].join('\n')
}

/** `dumpsys battery`: the BatteryService state block. */
function battery(device: VirtualDevice): string {
  const b = device.battery
  return [
    'Current Battery Service state:',
    `  AC powered: ${b.ac}`,
    `  USB powered: ${b.usb}`,
    '  Wireless powered: false',
    '  Dock powered: false',
    '  Max charging current: 500000',
    '  Max charging voltage: 5000000',
    '  Charge counter: 10000',
    `  status: ${b.status}`,
    '  health: 2',
    '  present: true',
    `  level: ${b.level}`,
    `  scale: ${b.scale}`,
    '  voltage: 4200',
    '  temperature: 250',
    '  technology: Li-ion',
    '',
  ].join('\n')
}

/** `dumpsys window|activity|input|display|input_method|package [packages|PKG]`: the lines clients parse, real formats. */
export function dumpsys(ctx: CommandContext): number {
  const [, service, ...rest] = ctx.argv
  const device = ctx.device
  switch (service) {
    case 'window':
      ctx.out(window(device, rest))
      return 0
    case 'power':
      ctx.out(power(device))
      return 0
    case 'battery':
      ctx.out(battery(device))
      return 0
    case 'activity':
      ctx.out(activity(device))
      return 0
    case 'input':
      ctx.out(input(device))
      return 0
    case 'display':
      ctx.out(display(device))
      return 0
    case 'input_method':
      ctx.out(inputMethod(device))
      return 0
    case 'SurfaceFlinger':
      ctx.out(
        rest.includes('--display-id')
          ? surfaceFlingerDisplays(device)
          : 'SurfaceFlinger: only --display-id is emulated\n'
      )
      return 0
    case 'package': {
      const what = rest.find((a) => !a.startsWith('-'))
      if (what === undefined || what === 'packages' || what === 'p') ctx.out(packagesDump(device))
      else ctx.out(packageDump(device, what) ?? 'Dump for package not found\n')
      return 0
    }
    case undefined:
      ctx.out(
        'Currently running services:\n  SurfaceFlinger\n  activity\n  battery\n  display\n  input\n  input_method\n  package\n  power\n  window\n'
      )
      return 0
    default:
      ctx.out(`Can't find service: ${service}\n`)
      return 0
  }
}
