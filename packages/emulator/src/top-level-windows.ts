/**
 * The screen XML's top-level elements (one per window in uiautomator's plain `--windows` dump), and the dump a
 * BACK that closed the keyboard leaves. Part of the device model: the virtual device serves its dump through
 * withoutKeyboard, and `uiautomator dump --windows` (commands/windows-dump.ts) cuts its trees with topLevelElements.
 */
import {isKeyboardRoot, type ScreenDump} from './screen-dump.js'

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
