import {InvalidDumpError} from '../errors/arc-error.js'
import type {DumpWindow, UiNode} from './ui-node.js'
import type {XmlElement} from './xml.js'

/**
 * The `<displays>` document `uiautomator dump --windows` writes on builds whose uiautomator has the flag (AOSP
 * `AccessibilityNodeInfoDumper.dumpWindowsToFile`, seen in decompiled device builds; adb.md §3.2):
 *
 *     <displays><display id="0"><window index title bounds active focused accessibility-focused id layer type>
 *       <hierarchy rotation="0"><node …>…</node></hierarchy>
 *     </window>…</display></displays>
 *
 * Each display lists its windows as `UiAutomation.getWindowsOnAllDisplays()` returns them, topmost first. A
 * window's child windows come as `<window>` elements inside it, before its tree; a window whose root the
 * accessibility layer did not give has no `<hierarchy>`.
 */

const BOUNDS = /^\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]$/

export interface DisplaysDump {
  /** Every window's root node, in document order. */
  roots: UiNode[]
  /** Every window listed, with its root where it has one. */
  listed: DumpWindow[]
  /** The `rotation` of the first tree on display 0 (else of the first tree). */
  rotation: string | undefined
}

function integer(value: string | undefined): number | undefined {
  return value !== undefined && /^-?\d+$/.test(value) ? Number(value) : undefined
}

/** Reads a `<displays>` document element; `readTree` makes a window's top-level `<node>` into a UiNode. */
export function readDisplays(root: XmlElement, what: string, readTree: (el: XmlElement) => UiNode): DisplaysDump {
  const out: DisplaysDump = {roots: [], listed: [], rotation: undefined}
  let rotationDisplay: number | undefined
  const unexpected = (el: XmlElement, inside: string): InvalidDumpError =>
    new InvalidDumpError(
      `${what} has <${el.name}> at line ${el.line} inside <${inside}>; a uiautomator --windows dump has ${inside === 'displays' ? '<display>' : inside === 'display' ? '<window>' : '<window> and <hierarchy>'} there`
    )

  const readWindow = (el: XmlElement, displayId: number): void => {
    const a = el.attrs
    const box = BOUNDS.exec(a.bounds ?? '')
    const window: DumpWindow = {
      type: a.type ?? '',
      title: a.title ?? '',
      layer: integer(a.layer) ?? 0,
      active: a.active === 'true',
      focused: a.focused === 'true',
      displayId,
    }
    const id = integer(a.id)
    if (id !== undefined) window.id = id
    if (box) window.bounds = [Number(box[1]), Number(box[2]), Number(box[3]), Number(box[4])]
    out.listed.push(window)
    let trees = 0
    for (const child of el.children) {
      if (child.name === 'window') {
        readWindow(child, displayId)
        continue
      }
      if (child.name !== 'hierarchy') throw unexpected(child, 'window')
      if (++trees > 1 || child.children.length > 1) {
        throw new InvalidDumpError(
          `${what} gives the window at line ${el.line} more than one tree; uiautomator writes one root per window`
        )
      }
      const node = child.children[0]
      if (!node) continue
      const tree = readTree(node)
      if (displayId !== 0) setDisplay(tree, displayId)
      window.root = tree
      out.roots.push(tree)
      if (out.rotation === undefined || (rotationDisplay !== 0 && displayId === 0)) {
        out.rotation = child.attrs.rotation
        rotationDisplay = displayId
      }
    }
  }

  for (const display of root.children) {
    if (display.name !== 'display') throw unexpected(display, 'displays')
    const displayId = integer(display.attrs.id)
    if (displayId === undefined || displayId < 0) {
      throw new InvalidDumpError(
        `${what} has a <display> at line ${display.line} without a display number (id=${JSON.stringify(display.attrs.id ?? '')})`
      )
    }
    for (const window of display.children) {
      if (window.name !== 'window') throw unexpected(window, 'display')
      readWindow(window, displayId)
    }
  }
  return out
}

/** Nodes of a window on another display than 0 carry that display, unless the dump gave each its own. */
function setDisplay(node: UiNode, displayId: number): void {
  node.displayId ??= displayId
  for (const child of node.children) setDisplay(child, displayId)
}
