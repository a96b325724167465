/**
 * The demo app's screen as uiautomator writes it (`window_dump.xml`), and the bundled snapshot's meta.json: the
 * same text for the bundled `demo` snapshot (scripts/make-demo.ts) and for `arc emulate`'s live demo app, so an id
 * read on one holds on the other.
 */
import {escapeAttribute} from '../text-fields.js'
import {
  ACTIVITY,
  APP,
  DENSITY,
  HEIGHT,
  WIDTH,
  demoWindows,
  initialDemoState,
  type DemoNode,
  type DemoState,
} from './demo-screen.js'

function nodeXml(node: DemoNode, index: number, pkg: string): string {
  const p = node.pkg ?? pkg
  const attrs: Array<[string, string]> = [
    ['index', String(index)],
    ['text', node.text ?? ''],
    ['resource-id', node.res ?? ''],
    ['class', node.cls],
    ['package', p],
    ['content-desc', node.desc ?? ''],
    ['checkable', String(node.checkable ?? false)],
    ['checked', String(node.checked ?? false)],
    ['clickable', String(node.clickable ?? false)],
    ['enabled', 'true'],
    ['focusable', String(node.focusable ?? false)],
    ['focused', String(node.focused ?? false)],
    ['scrollable', String(node.scrollable ?? false)],
    ['long-clickable', String(node.longClickable ?? false)],
    ['password', 'false'],
    ['selected', 'false'],
    ...(node.hint ? ([['hint', node.hint]] as Array<[string, string]>) : []),
    ['visible-to-user', String(node.visible ?? true)],
    ['bounds', `[${node.bounds[0]},${node.bounds[1]}][${node.bounds[2]},${node.bounds[3]}]`],
  ]
  const open = `<node ${attrs.map(([k, v]) => `${k}="${escapeAttribute(v)}"`).join(' ')}`
  // A child not visible to the user is left out, its own children with it, and the next keeps its place among all
  // the children as its index: AOSP AccessibilityNodeInfoDumper.dumpNodeRec (frameworks/base cmds/uiautomator, what
  // `uiautomator dump` and --compressed run; androidx.test.uiautomator's the same) recurses only into a child whose
  // isVisibleToUser() is true ("Skipping invisible child"). So no phone's dump holds visible-to-user="false".
  const children = (node.children ?? []).map((c, i) => (c.visible === false ? '' : nodeXml(c, i, p))).join('')
  if (children === '') return `${open} />`
  return `${open}>${children}</node>`
}

/** The uiautomator XML of the demo app in `state` (default: as it starts, the bundled snapshot's). */
export function demoXml(state: DemoState = initialDemoState()): string {
  const body = demoWindows(state)
    .map((w, i) => nodeXml(w, i, w.pkg ?? APP))
    .join('')
  return `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">${body}</hierarchy>`
}

/** The bundled snapshot's meta.json. */
export function demoMeta(): string {
  const meta = {
    format: 'arc-snapshot/1',
    serial: 'demo',
    width: WIDTH,
    height: HEIGHT,
    density: DENSITY,
    rotation: 0,
    package: APP,
    activity: ACTIVITY,
    allWindows: true,
    capturedAt: '2026-11-21T12:00:00.000Z',
  }
  return `${JSON.stringify(meta, null, 2)}\n`
}
