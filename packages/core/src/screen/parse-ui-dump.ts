import {InvalidDumpError} from '../errors/arc-error.js'
import type {UiHierarchy, UiNode} from './ui-node.js'
import {dumpHierarchy, NodeReader} from './dump-node.js'
import {readPlainDump} from './fast-dump.js'
import {readDisplays} from './displays-dump.js'
import {parseXml, type XmlElement} from './xml.js'

/** Known uiautomator failure messages, which devices print instead of XML. */
const DEVICE_FAILURES: Array<[RegExp, string]> = [
  [/could not get idle state/i, 'the screen never became idle (an animation or video kept changing it)'],
  [/null root node/i, 'the device returned no window to dump (screen off, locked or switching)'],
  [/killed/i, 'uiautomator was killed while dumping'],
]

const PASS_A_DUMP = 'Pass the window_dump.xml written by `uiautomator dump`, or a snapshot folder.'

/**
 * Cuts the XML document out of what a device or a tool printed: real devices print
 * "UI hierchary dumped to: /dev/tty" after the XML, and some tools print log lines before it. The document ends
 * at the last `</hierarchy>`, or `</displays>` for the `<displays>` form of `uiautomator dump --windows`.
 * Input may be a Buffer (checked for binary junk) or a string. `notADump` is the advice where the input is no dump at
 * all: by default for a file arc was given; a live device's reader passes its own.
 */
export function sliceDump(raw: string | Buffer, what = 'UI dump', notADump = PASS_A_DUMP): string {
  let text: string
  if (Buffer.isBuffer(raw)) {
    if (raw.length === 0) throw emptyDump(what)
    if (raw.includes(0)) {
      throw new InvalidDumpError(`${what} is binary data, not a uiautomator XML dump`, {
        actions: [notADump],
      })
    }
    text = decodeUtf8(raw, what)
  } else {
    text = raw
  }
  if (text.trim() === '') throw emptyDump(what)
  const start = text.search(/<\?xml|<hierarchy[\s>]|<displays[\s>]/)
  if (start === -1) {
    for (const [pattern, meaning] of DEVICE_FAILURES) {
      if (pattern.test(text)) {
        throw new InvalidDumpError(`${what} failed on the device: ${meaning} (${firstLine(text)})`, {
          actions: ['Try again in a moment; wait for animations to settle or wake and unlock the screen.'],
        })
      }
    }
    throw new InvalidDumpError(
      `${what} is not a uiautomator XML dump: it starts with ${JSON.stringify(firstLine(text))}`,
      {
        actions: [notADump],
      }
    )
  }
  const root = documentElement(text, start)
  const closing = root?.name === 'displays' ? '</displays>' : '</hierarchy>'
  const close = text.lastIndexOf(closing)
  // An element with nothing in it is written closed at once: `<displays />` when `--windows` found no window.
  const end = close !== -1 ? close + closing.length : (root?.emptyEnd ?? text.length)
  return text.slice(start, end)
}

/**
 * The name of the first element from `start` (past the XML declaration, comments and a DOCTYPE) and, when that
 * element is empty (`<displays />`), where its tag ends.
 */
function documentElement(text: string, start: number): {name: string; emptyEnd?: number} | undefined {
  const tag = /<([A-Za-z_][\w.:-]*)(?:[^>"']|"[^"]*"|'[^']*')*?(\/)?>/g
  tag.lastIndex = start
  const m = tag.exec(text)
  if (!m) return undefined
  return m[2] ? {name: m[1] as string, emptyEnd: m.index + m[0].length} : {name: m[1] as string}
}

const UTF8 = new TextDecoder('utf-8', {fatal: true})

/**
 * uiautomator writes UTF-8. Bytes that are not UTF-8 mean another tool re-encoded the dump (a Windows console
 * code page, for one); guessing the encoding back would print wrong text, so arc refuses and says where.
 */
function decodeUtf8(raw: Buffer, what: string): string {
  try {
    return UTF8.decode(raw)
  } catch {
    const text = raw.toString('utf8')
    const bad = text.indexOf('\uFFFD')
    const line = text.slice(0, Math.max(bad, 0)).split('\n').length
    throw new InvalidDumpError(
      `${what} is not valid UTF-8 (first bad byte on line ${line}); uiautomator writes UTF-8, so the file was re-encoded by another tool`,
      {actions: ['Capture the dump again with `adb exec-out uiautomator dump /dev/tty`, or re-save the file as UTF-8.']}
    )
  }
}

function emptyDump(what: string): InvalidDumpError {
  return new InvalidDumpError(`${what} is empty`, {
    actions: ['Capture the screen again; an empty dump usually means uiautomator was interrupted.'],
  })
}

function firstLine(text: string): string {
  const line = text.trim().split(/\r?\n/, 1)[0] ?? ''
  return line.length > 80 ? `${line.slice(0, 80)}…` : line
}

/**
 * Parses a uiautomator dump (any of the three header variants, single-line or pretty-printed, several top-level
 * windows, or the `<displays>` form of `--windows` with each window's metadata: displays-dump.ts) into UiNodes. Appium-style dumps whose tags are class names are read too: the tag is the class when
 * there is no `class` attribute.
 */
export function parseUiDump(raw: string | Buffer, what = 'UI dump'): UiHierarchy {
  const xml = sliceDump(raw, what)
  return readPlainDump(xml) ?? readDumpTree(xml, what)
}

/**
 * The general reading of a dump that sliceDump cut out: the XML reader's element tree, then a UiNode per element,
 * with every error the XML reader and the bounds check give. parseUiDump takes the plain reading (fast-dump.ts)
 * where the document is in uiautomator's plain form, which gives the same hierarchy for less work.
 */
export function readDumpTree(xml: string, what = 'UI dump'): UiHierarchy {
  const root = parseXml(xml, what)
  if (root.name !== 'hierarchy' && root.name !== 'displays') {
    throw new InvalidDumpError(
      `${what} has an unsupported dump format: the document element is <${root.name}>, expected <hierarchy> or <displays>`,
      {
        actions: [
          'arc reads `uiautomator dump` output (`--windows` included) and Appium-style page sources rooted at <hierarchy>.',
        ],
      }
    )
  }
  let format: UiHierarchy['format'] = 'uiautomator'
  let count = 0
  const reader = new NodeReader()
  const toNode = (el: XmlElement, parent: UiNode | undefined): UiNode => {
    if (el.name !== 'node') format = 'classname-tags'
    reader.start(parent)
    // The XML reader refuses a repeated attribute, so every one is taken.
    for (const name in el.attrs) reader.take(name, el.attrs[name] as string)
    const node = reader.finish(el.name === 'node' ? '' : el.name)
    if (!node) {
      throw new InvalidDumpError(
        `${what} has a node with unreadable bounds ${JSON.stringify(el.attrs.bounds ?? '')} at line ${el.line}; expected [left,top][right,bottom]`
      )
    }
    count++
    node.children = el.children.map((child) => toNode(child, node))
    return node
  }
  if (root.name === 'displays') {
    const read = readDisplays(root, what, (el) => toNode(el, undefined))
    const rotation = read.rotation
    return {
      ...dumpHierarchy((name) => (name === 'rotation' ? rotation : undefined), read.roots, format, count),
      listedWindows: read.listed,
    }
  }
  const windows = root.children.map((child) => toNode(child, undefined))
  return dumpHierarchy((name) => root.attrs[name], windows, format, count)
}

/** Depth-first, document order. */
export function* walkNodes(nodes: UiNode[]): Generator<UiNode> {
  for (const node of nodes) {
    yield node
    yield* walkNodes(node.children)
  }
}
