import type {ScreenCapture} from '@arc-cli/core'

export interface NodeSpec {
  cls?: string
  text?: string
  desc?: string
  res?: string
  pkg?: string
  bounds?: [number, number, number, number]
  attrs?: Record<string, string>
  children?: NodeSpec[]
}

function esc(v: string): string {
  return v.replace(
    /[&<>"\n\t\r]/g,
    (c) =>
      ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\n': '&#10;', '\t': '&#9;', '\r': '&#13;'})[c] as string
  )
}

function nodeXml(n: NodeSpec, index: number): string {
  const b = n.bounds ?? [0, 0, 100, 100]
  const attrs: Record<string, string> = {
    index: String(index),
    text: n.text ?? '',
    'resource-id': n.res ?? '',
    class: n.cls ?? 'android.widget.FrameLayout',
    package: n.pkg ?? 'com.example',
    'content-desc': n.desc ?? '',
    clickable: 'false',
    enabled: 'true',
    focusable: 'false',
    focused: 'false',
    scrollable: 'false',
    'long-clickable': 'false',
    password: 'false',
    ...n.attrs,
    bounds: `[${b[0]},${b[1]}][${b[2]},${b[3]}]`,
  }
  const open = `<node ${Object.entries(attrs)
    .map(([k, v]) => `${k}="${esc(v)}"`)
    .join(' ')}`
  return n.children?.length ? `${open}>${n.children.map(nodeXml).join('')}</node>` : `${open} />`
}

/** Builds a uiautomator-style dump from a compact spec, for unit tests. */
export function dumpXml(windows: NodeSpec[], rotation = 0): string {
  return `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="${rotation}">${windows.map(nodeXml).join('')}</hierarchy>`
}

/** One `<window>` of a `uiautomator dump --windows` document; `attrs` replace or add the window's attributes. */
export interface WindowSpec {
  type: string
  title?: string
  layer: number
  focused?: boolean
  bounds?: [number, number, number, number]
  attrs?: Record<string, string>
  /** The window's tree; none: uiautomator wrote no `<hierarchy>` for it. */
  tree?: NodeSpec
  rotation?: number
  children?: WindowSpec[]
}

function windowXml(w: WindowSpec, index: number): string {
  const b = w.bounds ?? w.tree?.bounds ?? [0, 0, 1080, 2400]
  const attrs: Record<string, string> = {
    index: String(index),
    title: w.title ?? '',
    bounds: `[${b[0]},${b[1]}][${b[2]},${b[3]}]`,
    active: String(w.focused ?? false),
    focused: String(w.focused ?? false),
    'accessibility-focused': 'false',
    id: String(100 + index),
    layer: String(w.layer),
    type: w.type,
    ...w.attrs,
  }
  const open = `<window ${Object.entries(attrs)
    .map(([k, v]) => `${k}="${esc(v)}"`)
    .join(' ')}>`
  const tree = w.tree ? `<hierarchy rotation="${w.rotation ?? 0}">${nodeXml(w.tree, 0)}</hierarchy>` : ''
  return `${open}${(w.children ?? []).map(windowXml).join('')}${tree}</window>`
}

/** Builds the `<displays>` document `uiautomator dump --windows` writes, from display id to its windows (topmost first). */
export function displaysXml(displays: Record<number, WindowSpec[]>): string {
  const body = Object.entries(displays)
    .map(([id, windows]) => `<display id="${id}">${windows.map(windowXml).join('')}</display>`)
    .join('')
  return `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><displays>${body}</displays>`
}

export function capture(
  xml: string,
  screen = {width: 1080, height: 2400},
  extra: Partial<ScreenCapture> = {}
): ScreenCapture {
  return {xml, screen: {...screen, density: 420, rotation: 0}, foreground: {}, allWindows: true, ...extra}
}

/** A clickable `android.widget.Button` showing `text`. */
export const button = (text: string, bounds: [number, number, number, number]): NodeSpec => ({
  cls: 'android.widget.Button',
  text,
  bounds,
  attrs: {clickable: 'true'},
})

/** A focusable, clickable `android.widget.EditText` with resource-id `res` holding `text` (not focused). */
export const editText = (
  res: string,
  text: string,
  bounds: [number, number, number, number],
  attrs: Record<string, string> = {}
): NodeSpec => ({
  cls: 'android.widget.EditText',
  res,
  text,
  attrs: {clickable: 'true', focusable: 'true', ...attrs},
  bounds,
})

/**
 * A window of the window manager's list (`dumpsys window windows`) as a snapshot's meta.json records it: shown, on
 * display 0, in the application layer; `z` 0 is the topmost. `touchable: false` marks a FLAG_NOT_TOUCHABLE window.
 */
export const recordedWindow = (
  title: string,
  pkg: string,
  type: string,
  z: number,
  frame: [number, number, number, number],
  touchable = true
) => ({
  title,
  package: pkg,
  type,
  z,
  layer: 21000,
  displayId: 0,
  visible: true,
  frame,
  ...(touchable ? {} : {touchable: false}),
})
