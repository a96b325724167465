/**
 * Edit fields of the emulated screen: a tap focuses the edit field under it, `input text` types at the cursor,
 * and cursor and delete keys move and delete, so the dump the device serves shows what was typed. As on a device, a
 * field that is empty shows its hint as its text, and only Android 16+ (API 36) write the `hint` attribute: the
 * shell `uiautomator dump` of Android 7-15 leaves it out, so its dump cannot tell an empty field from one holding
 * its hint's words. A scenario's `fields` rules can make a field drop or alter input, so a tool's read-back has
 * something to catch.
 */
import type {FieldRule} from './scenario.js'
import {contains, isTextEditor as isEditable, type ScreenNode as UiNode} from './screen-dump.js'
import type {LoadedScreen} from './snapshot-screen.js'

interface Focus {
  screen: string
  index: number
  cursor: number
}

const KEY = {DPAD_LEFT: 21, DPAD_RIGHT: 22, SPACE: 62, DEL: 67, FORWARD_DEL: 112, MOVE_HOME: 122, MOVE_END: 123} as const

/** The first API level whose `uiautomator dump` writes the `hint` attribute (android-16.0.0). */
export const HINT_ATTRIBUTE_SDK = 36

/** An attribute value as uiautomator's serializer writes it (`&`, `<`, `>`, `"` and the line breaks as references). */
export const escapeAttribute = (v: string): string => v.replace(/[&<>"\n\t\r]/g, (c) => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\n': '&#10;', '\t': '&#9;', '\r': '&#13;'})[c] as string)

export class TextFields {
  /** Text typed so far, per screen and node (pre-order index). */
  private readonly edits = new Map<string, Map<number, string>>()
  private focus?: Focus

  /** `sdk()` is the device's API level now (its `ro.build.version.sdk`): it decides whether dumps carry `hint`. */
  constructor(
    private readonly rules: FieldRule[] = [],
    private readonly sdk: () => number = () => 34,
  ) {}

  private nodes(screen: LoadedScreen): UiNode[] {
    return screen.dump.nodes
  }

  /** What the field holds: what was typed, else its recorded text (unless that is only its hint). */
  textOf(screen: LoadedScreen, index: number): string {
    const typed = this.edits.get(screen.name)?.get(index)
    if (typed !== undefined) return typed
    const node = this.nodes(screen)[index] as UiNode
    return node.hint !== undefined && node.text === node.hint ? '' : node.text
  }

  /** The focused field on this screen: the one tapped last, else the one the dump marks focused. */
  focused(screen: LoadedScreen): Focus | undefined {
    if (this.focus?.screen === screen.name) return this.focus
    const index = this.nodes(screen).findIndex((n) => n.focused && isEditable(n))
    if (index === -1) return undefined
    this.focus = {screen: screen.name, index, cursor: this.textOf(screen, index).length}
    return this.focus
  }

  /**
   * A tap that the dump's window `window` took (the topmost window under the point, touch.ts): on an edit field of
   * that window it focuses the field with the cursor at the end; on another clickable view of it, the focus goes. A
   * tap no window of the dump took (undefined), or one the keyboard took, leaves the focus where it is: the
   * keyboard's keys are its own views, and the field under the keyboard never sees the touch.
   */
  tap(screen: LoadedScreen, x: number, y: number, window: number | undefined): void {
    if (window === undefined) return
    const nodes = (screen.dump.windows[window]?.nodes ?? []).filter((n) => contains(n.bounds, x, y))
    let hit = -1
    for (const n of nodes) if (isEditable(n) && n.enabled) hit = n.index
    if (hit === -1) {
      if (nodes.some((n) => n.clickable)) this.focus = undefined
      return
    }
    this.focus = {screen: screen.name, index: hit, cursor: this.textOf(screen, hit).length}
  }

  private set(screen: LoadedScreen, focus: Focus, text: string, cursor: number): void {
    let edits = this.edits.get(screen.name)
    if (!edits) this.edits.set(screen.name, (edits = new Map()))
    edits.set(focus.index, text)
    focus.cursor = Math.max(0, Math.min(cursor, text.length))
  }

  private rule(screen: LoadedScreen, focus: Focus): FieldRule | undefined {
    const node = this.nodes(screen)[focus.index] as UiNode
    return this.rules.find((r) => r.resourceId === node.resourceId)
  }

  /** Types at the cursor, through the field's rule. */
  type(screen: LoadedScreen, typed: string): void {
    const focus = this.focused(screen)
    if (!focus) return
    const rule = this.rule(screen, focus)
    if (rule?.refuse) return
    let text = typed
    if (rule?.transform === 'upper') text = text.toUpperCase()
    if (rule?.transform === 'lower') text = text.toLowerCase()
    if (rule?.transform === 'digits') text = text.replace(/\D/g, '')
    const now = this.textOf(screen, focus.index)
    if (rule?.maxLength !== undefined) text = text.slice(0, Math.max(0, rule.maxLength - now.length))
    const cursor = Math.min(focus.cursor, now.length)
    this.set(screen, focus, now.slice(0, cursor) + text + now.slice(cursor), cursor + text.length)
  }

  /** Empties the focused field (ADBKeyBoard's ADB_CLEAR_TEXT), unless its rule refuses input. */
  clear(screen: LoadedScreen): void {
    const focus = this.focused(screen)
    if (!focus || this.rule(screen, focus)?.refuse) return
    this.set(screen, focus, '', 0)
  }

  /** Cursor and delete keys act on the focused field (HOME/END within the cursor's line, as TextView does). */
  key(screen: LoadedScreen, code: number): void {
    const focus = this.focused(screen)
    if (!focus) return
    if (this.rule(screen, focus)?.refuse && (code === KEY.DEL || code === KEY.FORWARD_DEL)) return
    const now = this.textOf(screen, focus.index)
    const c = Math.min(focus.cursor, now.length)
    switch (code) {
      case KEY.DPAD_LEFT:
        return this.set(screen, focus, now, c - 1)
      case KEY.DPAD_RIGHT:
        return this.set(screen, focus, now, c + 1)
      case KEY.MOVE_HOME:
        return this.set(screen, focus, now, now.lastIndexOf('\n', c - 1) + 1)
      case KEY.MOVE_END: {
        const end = now.indexOf('\n', c)
        return this.set(screen, focus, now, end === -1 ? now.length : end)
      }
      case KEY.DEL:
        if (c > 0) this.set(screen, focus, now.slice(0, c - 1) + now.slice(c), c - 1)
        return
      case KEY.FORWARD_DEL:
        if (c < now.length) this.set(screen, focus, now.slice(0, c) + now.slice(c + 1), c)
        return
      case KEY.SPACE:
        return this.type(screen, ' ')
    }
  }

  /**
   * The screen's XML with typed text and focus written in, an empty field showing its hint as its text, and the
   * `hint` attribute only from API 36 on (the recorded XML when none of that changes anything).
   */
  xml(screen: LoadedScreen): string {
    const edits = this.edits.get(screen.name)
    const focus = this.focus?.screen === screen.name ? this.focus : undefined
    const nodes = this.nodes(screen)
    const hintAttribute = this.sdk() >= HINT_ATTRIBUTE_SDK
    const hinted = nodes.some((n) => n.hint !== undefined && isEditable(n)) || (!hintAttribute && /\shint="/.test(screen.xml))
    if (!edits?.size && !focus && !hinted) return screen.xml
    let out = ''
    let at = 0
    for (const node of nodes) {
      const [start, end] = node.tag
      let tag = screen.xml.slice(start, end)
      if (!hintAttribute) tag = tag.replace(/\s+hint="[^"]*"/, '')
      if (isEditable(node)) {
        const typed = edits?.get(node.index)
        if (typed !== undefined || node.hint !== undefined) {
          const content = this.textOf(screen, node.index)
          tag = tag.replace(/\btext="[^"]*"/, `text="${escapeAttribute(content === '' && node.hint !== undefined ? node.hint : content)}"`)
        }
        if (focus) tag = tag.replace(/\bfocused="[^"]*"/, `focused="${focus.index === node.index}"`)
      }
      out += screen.xml.slice(at, start) + tag
      at = end
    }
    return out + screen.xml.slice(at)
  }

  /** A new screen: nothing is focused until the dump or a tap says so. */
  screenChanged(): void {
    this.focus = undefined
  }
}
