/**
 * The virtual device's own reading of a recorded `uiautomator dump`: what a phone needs to know about the screen it
 * shows (which views exist, where, which of them are text editors, which window each belongs to), and nothing of
 * arc's reading of it. arc's parser, keep-filter and window matching are what the device is there to test: if the
 * device read its screens through them, a misreading in arc would be agreed with, never caught
 * (../shared/docs/real-phone.md, last paragraph). A lint test (packages/emulator/test/independence.test.ts) keeps it so.
 *
 * It reads both forms `uiautomator dump` writes: `<hierarchy>` with one top-level `<node>` per window (AOSP
 * `AccessibilityNodeInfoDumper.dumpWindowToFile`), and the `<displays><display><window>…` form of builds that know
 * `--windows` (`dumpWindowsToFile`), whose `<window>` elements carry the window's type and layer. Variants that
 * name each element by its class (Appium's page source) are read the same way, the tag standing for the class.
 */

export type Bounds = [number, number, number, number]

/** One view of the dump, in document (pre-order) order. */
export interface ScreenNode {
  /** Position among the dump's views, document order. */
  index: number
  /** The top-level window (ScreenDump.windows) it belongs to. */
  window: number
  className: string
  text: string
  contentDesc: string
  resourceId: string
  package: string
  /** uiautomator writes `hint` from Android 16 (API 36) on; recordings made there carry it. */
  hint?: string
  bounds: Bounds
  enabled: boolean
  clickable: boolean
  /** Whether the view can take focus (a DPAD move lands only on such views). */
  focusable: boolean
  focused: boolean
  password: boolean
  displayId: number
  /** Where the view's open tag sits in the XML: [start, end) (for rewriting its attributes). */
  tag: [number, number]
}

/** A window of the dump, as its top-level view (and, in the `<displays>` form, its `<window>` element) shows it. */
export interface ScreenWindow {
  index: number
  /** The top-level view's package. */
  package: string
  /** The top-level view's bounds (the `<window>`'s where it has no view). */
  bounds: Bounds
  displayId: number
  /** The window's views, document order (the first is its top-level view). */
  nodes: ScreenNode[]
  /** What a `<window>` element says of it: accessibility type (`TYPE_INPUT_METHOD`…), title and layer. */
  listed?: {type: string; title: string; layer: number}
}

export interface ScreenDump {
  rotation: 0 | 1 | 2 | 3
  nodes: ScreenNode[]
  windows: ScreenWindow[]
  /** The `<displays>` form: every window is listed with its metadata. */
  listedWindows: boolean
}

const CONTAINERS = new Set(['hierarchy', 'displays', 'display', 'window'])

const NAMED: Record<string, string> = {amp: '&', lt: '<', gt: '>', quot: '"', apos: "'"}

/** An XML attribute value with its references resolved (`&amp;`, `&#10;`, `&#x1F44D;`). */
export function decodeAttribute(value: string): string {
  return value.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, ref: string) => {
    if (ref.startsWith('#x')) return String.fromCodePoint(Number.parseInt(ref.slice(2), 16))
    if (ref.startsWith('#')) return String.fromCodePoint(Number(ref.slice(1)))
    return NAMED[ref] ?? whole
  })
}

function attributes(source: string): Map<string, string> {
  const out = new Map<string, string>()
  for (const m of source.matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    out.set(m[1] as string, decodeAttribute(m[2] ?? m[3] ?? ''))
  }
  return out
}

function parseBounds(value: string | undefined): Bounds | undefined {
  const m = /^\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]$/.exec(value ?? '')
  return m ? [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])] : undefined
}

/** Reads a dump; throws an Error naming what is wrong when it holds no readable document. */
export function readScreenDump(xml: string): ScreenDump {
  const nodes: ScreenNode[] = []
  const windows: ScreenWindow[] = []
  let rotation: ScreenDump['rotation'] = 0
  let listedWindows = false
  let sawDocument = false
  let depth = 0
  let displayId = 0
  let listed: {attrs: Map<string, string>; used: boolean} | undefined
  const open =
    /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!\[CDATA\[[\s\S]*?\]\]>|<!DOCTYPE[^>]*>|<\/([\w.$:-]+)\s*>|<([\w.$:-]+)((?:\s+[\w:.-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/g
  for (const m of xml.matchAll(open)) {
    const [whole, closing, name, attrText, selfClosing] = m
    if (closing !== undefined) {
      if (!CONTAINERS.has(closing)) depth--
      else if (closing === 'window') {
        // A window uiautomator wrote no tree for is still listed.
        if (listed && !listed.used)
          windows.push({
            index: windows.length,
            package: '',
            bounds: parseBounds(listed.attrs.get('bounds')) ?? [0, 0, 0, 0],
            displayId,
            nodes: [],
            listed: listedOf(listed.attrs),
          })
        listed = undefined
      }
      continue
    }
    if (name === undefined) continue
    sawDocument = true
    const attrs = attributes(attrText ?? '')
    if (CONTAINERS.has(name)) {
      if (name === 'hierarchy') {
        const r = Number(attrs.get('rotation') ?? 0)
        if (r === 1 || r === 2 || r === 3) rotation = r
      } else if (name === 'displays') listedWindows = true
      else if (name === 'display') displayId = Number(attrs.get('id') ?? 0)
      else if (name === 'window') {
        listed = {attrs, used: false}
        if (selfClosing) {
          windows.push({
            index: windows.length,
            package: '',
            bounds: parseBounds(attrs.get('bounds')) ?? [0, 0, 0, 0],
            displayId,
            nodes: [],
            listed: listedOf(attrs),
          })
          listed = undefined
        }
      }
      continue
    }
    const at = m.index as number
    if (depth === 0) {
      if (listed) listed.used = true
      const bounds = parseBounds(attrs.get('bounds')) ?? [0, 0, 0, 0]
      windows.push({
        index: windows.length,
        package: attrs.get('package') ?? '',
        bounds: listed ? (parseBounds(listed.attrs.get('bounds')) ?? bounds) : bounds,
        displayId: Number(attrs.get('display-id') ?? displayId),
        nodes: [],
        ...(listed ? {listed: listedOf(listed.attrs)} : {}),
      })
    }
    const window = windows[windows.length - 1] as ScreenWindow
    const node: ScreenNode = {
      index: nodes.length,
      window: window.index,
      className: attrs.get('class') ?? (name === 'node' ? '' : name),
      text: attrs.get('text') ?? '',
      contentDesc: attrs.get('content-desc') ?? '',
      resourceId: attrs.get('resource-id') ?? '',
      package: attrs.get('package') ?? '',
      ...(attrs.has('hint') ? {hint: attrs.get('hint') as string} : {}),
      bounds: parseBounds(attrs.get('bounds')) ?? [0, 0, 0, 0],
      enabled: attrs.get('enabled') !== 'false',
      clickable: attrs.get('clickable') === 'true',
      focusable: attrs.get('focusable') === 'true',
      focused: attrs.get('focused') === 'true',
      password: attrs.get('password') === 'true',
      displayId: Number(attrs.get('display-id') ?? window.displayId),
      tag: [at, at + whole.length],
    }
    nodes.push(node)
    window.nodes.push(node)
    if (!selfClosing) depth++
  }
  if (!sawDocument) throw new Error('the dump holds no XML element')
  return {rotation, nodes, windows, listedWindows}
}

function listedOf(attrs: Map<string, string>): {type: string; title: string; layer: number} {
  return {type: attrs.get('type') ?? '', title: attrs.get('title') ?? '', layer: Number(attrs.get('layer') ?? 0)}
}

/**
 * Classes that are text editors: `EditText` and its framework subclasses (`AutoCompleteTextView`,
 * `MultiAutoCompleteTextView`, `SearchView$SearchAutoComplete`, `ExtractEditText`), whose `getDefaultEditable()`
 * is true (AOSP frameworks/base/core/java/android/widget/EditText.java); Jetpack Compose reports its text fields
 * as `android.widget.EditText` to accessibility. Apps' own subclasses keep the `…EditText` name by convention.
 */
const EDITOR_CLASSES = new Set([
  'AutoCompleteTextView',
  'MultiAutoCompleteTextView',
  'SearchAutoComplete',
  'ExtractEditText',
])

export function isTextEditor(node: ScreenNode): boolean {
  const simple = node.className.slice(Math.max(node.className.lastIndexOf('.'), node.className.lastIndexOf('$')) + 1)
  return simple.endsWith('EditText') || EDITOR_CLASSES.has(simple)
}

export const contains = (b: Bounds, x: number, y: number): boolean => x >= b[0] && x < b[2] && y >= b[1] && y < b[3]

/** The screen's extent from its views: the largest right and bottom edges (a dump without meta.json or PNG). */
export function dumpExtent(dump: ScreenDump): {width: number; height: number} {
  let width = 0
  let height = 0
  for (const w of dump.windows) {
    width = Math.max(width, w.bounds[2])
    height = Math.max(height, w.bounds[3])
  }
  return {width, height}
}

const IME = /inputmethod|keyboard|\.ime\b/i
/** A top-level window of the dump that is an input method's: the keyboard. */
export const isKeyboardRoot = (root: ScreenWindow): boolean =>
  root.listed ? root.listed.type === 'TYPE_INPUT_METHOD' : IME.test(root.package)
