/**
 * `uiautomator dump --windows` on a build whose uiautomator has the flag: the `<displays>` document AOSP's
 * `AccessibilityNodeInfoDumper.dumpWindowsToFile` writes, one `<window>` per window with its accessibility
 * metadata around that window's `<hierarchy>` (adb.md §3.2). The trees are the screen's own top-level elements,
 * cut from the XML the plain dump serves (typed text included); the metadata comes from the window list
 * `dumpsys window` serves (window-list.ts), so the two reads agree as on a device.
 */
import type {ScreenDump} from '../screen-dump.js'
import {escapeAttribute} from '../text-fields.js'
import type {VirtualDevice} from '../virtual-device.js'
import {deviceWindows, focusedTitle, isKeyboardRoot, oid, type DeviceWindow} from './window-list.js'

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
  if (wmType.includes('APPLICATION') || wmType === 'PHONE' || wmType === 'PRIORITY_PHONE' || wmType === 'TOAST') return 'APPLICATION'
  return 'SYSTEM'
}

/** Where the tag starting at `at` (its `<`) ends, just past its `>`; quoted values may hold `>`. */
function tagEnd(xml: string, at: number): number {
  let quote = ''
  for (let i = at + 1; i < xml.length; i++) {
    const c = xml[i] as string
    if (quote) {
      if (c === quote) quote = ''
    } else if (c === '"' || c === "'") {
      quote = c
    } else if (c === '>') {
      return i + 1
    }
  }
  throw new Error('unterminated tag in the screen XML')
}

/** The text of each element directly under the document element, in order, and the document element's open tag. */
export function topLevelElements(xml: string): {rootTag: string; elements: string[]} {
  let i = xml.search(/<[A-Za-z_]/)
  if (i === -1) throw new Error('the screen XML has no document element')
  const rootEnd = tagEnd(xml, i)
  const rootTag = xml.slice(i, rootEnd)
  const elements: string[] = []
  let depth = 0
  let start = -1
  i = rootEnd
  for (;;) {
    i = xml.indexOf('<', i)
    if (i === -1) throw new Error('the screen XML ends before its document element closes')
    if (xml.startsWith('<!--', i)) {
      i = xml.indexOf('-->', i) + 3
      continue
    }
    const end = tagEnd(xml, i)
    if (xml[i + 1] === '/') {
      if (depth === 0) return {rootTag, elements}
      if (--depth === 0) elements.push(xml.slice(start, end))
    } else if (xml[end - 2] === '/') {
      if (depth === 0) elements.push(xml.slice(i, end))
    } else {
      if (depth === 0) start = i
      depth++
    }
    i = end
  }
}

/**
 * The plain dump without the keyboard's windows: what uiautomator dumps once a BACK closed the keyboard. A
 * recorded `<displays>` document is served as recorded.
 */
export function withoutKeyboard(xml: string, dump: ScreenDump): string {
  const roots = dump.windows
  if (dump.listedWindows || !roots.some(isKeyboardRoot)) return xml
  const {elements} = topLevelElements(xml)
  if (elements.length !== roots.length) return xml
  let out = ''
  let cursor = 0
  elements.forEach((element, i) => {
    const at = xml.indexOf(element, cursor)
    out += xml.slice(cursor, at)
    if (!isKeyboardRoot(roots[i]!)) out += element
    cursor = at + element.length
  })
  return out + xml.slice(cursor)
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
  const closed = (i: number) => device.keyboardDismissed && (byRoot[i]?.type === 'INPUT_METHOD' || isKeyboardRoot(dump.windows[i]!))
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
        `<hierarchy rotation="${rotation}">${elements[i] as string}</hierarchy></window>`,
    )
  })
  const body = [...displays.entries()]
    .sort(([a], [b]) => a - b)
    .map(([id, windows]) => `<display id="${id}">${windows.join('')}</display>`)
    .join('')
  return `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><displays>${body}</displays>`
}
