/**
 * `uiautomator dump --windows` on a build whose uiautomator has the flag: the `<displays>` document AOSP's
 * `AccessibilityNodeInfoDumper.dumpWindowsToFile` writes, one `<window>` per window with its accessibility
 * metadata around that window's `<hierarchy>` (adb.md §3.2). The trees are the screen's own top-level elements,
 * cut from the XML the plain dump serves (typed text included); the metadata comes from the window list
 * `dumpsys window` serves (window-list.ts), so the two reads agree as on a device.
 */
import {isKeyboardRoot} from '../screen-dump.js'
import {escapeAttribute} from '../text-fields.js'
import {topLevelElements} from '../top-level-windows.js'
import type {VirtualDevice} from '../virtual-device.js'
import {deviceWindows, focusedTitle, oid, type DeviceWindow} from '../window-list.js'

/**
 * The accessibility type of a window manager type, as AOSP's AccessibilityWindowManager
 * (`getTypeForWindowManagerWindowType`, services/accessibility) maps them: the application types (and the phone and
 * toast windows) are applications, the input method's windows the input method, the docked divider and the
 * accessibility overlay their own; the bars, the shade, the keyguard, alerts and overlays are system windows.
 */
function accessibilityWindowType(wmType: string): string {
  if (wmType === 'INPUT_METHOD' || wmType === 'INPUT_METHOD_DIALOG') return 'INPUT_METHOD'
  if (wmType === 'DOCK_DIVIDER') return 'SPLIT_SCREEN_DIVIDER'
  if (wmType === 'ACCESSIBILITY_OVERLAY') return 'ACCESSIBILITY_OVERLAY'
  if (wmType === 'APPLICATION_OVERLAY') return 'SYSTEM'
  if (wmType.includes('APPLICATION') || wmType === 'PHONE' || wmType === 'PRIORITY_PHONE' || wmType === 'TOAST')
    return 'APPLICATION'
  return 'SYSTEM'
}

function windowId(title: string, z: number): number {
  return Number.parseInt(oid(`${title}#${z}`).slice(0, 4), 16)
}

/** The `<displays>` document for the screen the device shows now. */
export function windowsDocument(device: VirtualDevice): string {
  const xml = device.fields.xml(device.screen)
  const {dump} = device.screen
  if (dump.listedWindows) return xml
  const {rootTag, elements} = topLevelElements(xml)
  if (elements.length !== dump.windows.length) {
    throw new Error(`the screen XML has ${elements.length} top-level elements but ${dump.windows.length} windows`)
  }
  const listed = deviceWindows(device)
  const byRoot: Array<DeviceWindow | undefined> = dump.windows.map((root) => listed.find((w) => w.root === root.index))
  const focus = focusedTitle(device)
  const rotation = /\srotation="(\d)"/.exec(rootTag)?.[1] ?? '0'
  // Topmost first, by the window list's order (a root it lacks keeps its place in the dump).
  // A keyboard a BACK closed is left out, as from the plain dump.
  const closed = (i: number) =>
    device.keyboardDismissed && (byRoot[i]?.type === 'INPUT_METHOD' || isKeyboardRoot(dump.windows[i]!))
  const order = dump.windows
    .map((_, i) => i)
    .filter((i) => !closed(i))
    .sort((a, b) => (byRoot[a]?.z ?? a) - (byRoot[b]?.z ?? b))
  const displays = new Map<number, string[]>()
  order.forEach((i, rank) => {
    const root = dump.windows[i]!
    const window = byRoot[i]
    const title = window?.title ?? root.package
    const [l, t, r, b] = window?.frame ?? root.bounds
    const focused = window !== undefined && window.title === focus
    const type = `TYPE_${accessibilityWindowType(window?.type ?? 'APPLICATION')}`
    const displayId = root.displayId
    const list = displays.get(displayId) ?? []
    displays.set(displayId, list)
    list.push(
      `<window index="${list.length}" title="${escapeAttribute(title)}" bounds="[${l},${t}][${r},${b}]" active="${focused}" focused="${focused}" ` +
        `accessibility-focused="false" id="${windowId(title, window?.z ?? i)}" layer="${order.length - 1 - rank}" type="${type}">` +
        `<hierarchy rotation="${rotation}">${elements[i] as string}</hierarchy></window>`
    )
  })
  const body = [...displays.entries()]
    .sort(([a], [b]) => a - b)
    .map(([id, windows]) => `<display id="${id}">${windows.join('')}</display>`)
    .join('')
  return `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><displays>${body}</displays>`
}
