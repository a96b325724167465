import {InvalidDumpError} from '../errors/arc-error.js'

/** An element of the small XML subset uiautomator and its kin write: tags, attributes, entities, comments. */
export interface XmlElement {
  name: string
  attrs: Record<string, string>
  children: XmlElement[]
  /** 1-based line of the opening tag, for error messages. */
  line: number
}

const NAMED_ENTITIES: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>, {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
})

const REFERENCE = /&([^;&\s]{0,32});/g

/**
 * An attribute value with its entity and character references replaced (`&amp;` → `&`, `&#x1F600;` → 😀); a `&`
 * that starts no reference stays as written. A reference to an unknown entity or to no character gives the problem
 * instead, as the error message states it.
 */
export function decodeReferences(raw: string): string | {problem: string} {
  let problem: string | undefined
  const value = raw.replace(REFERENCE, (match, entity: string) => {
    if (entity.startsWith('#')) {
      const hex = entity[1] === 'x' || entity[1] === 'X'
      const code = Number.parseInt(entity.slice(hex ? 2 : 1), hex ? 16 : 10)
      if (!Number.isFinite(code) || code < 0 || code > 0x10ffff) {
        problem ??= `bad character reference ${match}`
        return match
      }
      return String.fromCodePoint(code)
    }
    const named = NAMED_ENTITIES[entity]
    if (named === undefined) {
      problem ??= `unknown entity ${match}`
      return match
    }
    return named
  })
  return problem === undefined ? value : {problem}
}

/**
 * Limits on any document, so work and memory stay bounded whatever arrives: real uiautomator dumps nest
 * about 30 deep and hold a few thousand nodes at most. Past either limit the dump is refused (INVALID_DUMP).
 */
export const XML_LIMITS = {maxDepth: 256, maxElements: 50_000} as const

/**
 * Parses one XML document into elements. Text content is ignored (uiautomator keeps everything in attributes);
 * processing instructions, comments and a DOCTYPE are skipped. Errors name the line and what was expected, and
 * a document that ends early says it was truncated.
 */
export function parseXml(source: string, what = 'UI dump'): XmlElement {
  let pos = 0
  const stack: XmlElement[] = []
  let root: XmlElement | undefined
  let elements = 0

  // Line numbers for messages, counted forward from the last one asked (parsing only moves forward), so
  // numbering every tag stays linear in the size of the document.
  let countedTo = 0
  let countedLine = 1
  const lineAt = (offset: number): number => {
    if (offset < countedTo) {
      countedTo = 0
      countedLine = 1
    }
    const end = Math.min(offset, source.length)
    for (let i = countedTo; i < end; i++) if (source.charCodeAt(i) === 10) countedLine++
    countedTo = end
    return countedLine
  }

  const fail = (message: string, offset = pos): never => {
    throw new InvalidDumpError(`${what} is not valid XML: ${message} (line ${lineAt(offset)})`, {
      details: {line: lineAt(offset)},
    })
  }

  const truncated = (): never => {
    const open = stack.at(-1)
    const where = open ? ` inside <${open.name}> opened at line ${open.line}` : ''
    throw new InvalidDumpError(`${what} is truncated: the XML ends${where} before it is closed`, {
      actions: ['Capture the screen again; a dump cut short usually means the device or the copy was interrupted.'],
    })
  }

  const decode = (raw: string, at: number): string => {
    if (!raw.includes('&')) return raw
    const decoded = decodeReferences(raw)
    return typeof decoded === 'string' ? decoded : fail(decoded.problem, at)
  }

  const isNameChar = (c: number): boolean =>
    (c >= 97 && c <= 122) ||
    (c >= 65 && c <= 90) ||
    (c >= 48 && c <= 57) ||
    c === 45 ||
    c === 95 ||
    c === 46 ||
    c === 58 ||
    c === 36 ||
    c > 127

  const readName = (): string => {
    const start = pos
    while (pos < source.length && isNameChar(source.charCodeAt(pos))) pos++
    if (pos === start) {
      if (pos >= source.length) truncated()
      fail(`expected a name, found ${JSON.stringify(source[pos])}`)
    }
    return source.slice(start, pos)
  }

  const skipSpace = (): void => {
    while (pos < source.length) {
      const c = source.charCodeAt(pos)
      if (c === 32 || c === 9 || c === 10 || c === 13) pos++
      else break
    }
  }

  while (pos < source.length) {
    const lt = source.indexOf('<', pos)
    if (lt === -1) {
      if (source.slice(pos).trim() !== '' && !root) fail('text outside any element')
      pos = source.length
      break
    }
    if (lt > pos && stack.length === 0 && source.slice(pos, lt).trim() !== '') fail('text outside any element', pos)
    pos = lt
    if (source.startsWith('<?', pos)) {
      const end = source.indexOf('?>', pos)
      if (end === -1) truncated()
      pos = end + 2
      continue
    }
    if (source.startsWith('<!--', pos)) {
      const end = source.indexOf('-->', pos)
      if (end === -1) truncated()
      pos = end + 3
      continue
    }
    if (source.startsWith('<![CDATA[', pos)) {
      const end = source.indexOf(']]>', pos)
      if (end === -1) truncated()
      pos = end + 3
      continue
    }
    if (source.startsWith('<!DOCTYPE', pos) || source.startsWith('<!doctype', pos)) {
      const end = source.indexOf('>', pos)
      if (end === -1) truncated()
      const declaration = source.slice(pos, end)
      // An internal subset declares entities (billion laughs); SYSTEM/PUBLIC names an outside file (XXE).
      if (/\[|\bSYSTEM\b|\bPUBLIC\b/i.test(declaration)) {
        throw new InvalidDumpError(
          `${what} is refused: it has a DOCTYPE with entity declarations or an external reference (line ${lineAt(pos)}); arc expands no entities and reads no outside files, and uiautomator dumps never carry one`,
          {details: {line: lineAt(pos), refused: 'DOCTYPE'}}
        )
      }
      pos = end + 1
      continue
    }
    if (source.startsWith('<!', pos)) {
      const end = source.indexOf('>', pos)
      if (end === -1) truncated()
      pos = end + 1
      continue
    }
    if (source.startsWith('</', pos)) {
      const at = pos
      pos += 2
      const name = readName()
      skipSpace()
      if (pos >= source.length) truncated()
      if (source[pos] !== '>') fail(`expected '>' to close </${name}`)
      pos++
      const open = stack.pop()
      if (!open) fail(`closing tag </${name}> without an opening tag`, at)
      else if (open.name !== name) fail(`</${name}> closes <${open.name}> opened at line ${open.line}`, at)
      if (stack.length === 0) {
        // The document element is complete: anything after it but whitespace, comments or PIs is junk.
        skipTrailing()
        break
      }
      continue
    }
    // An opening tag.
    const at = pos
    pos++
    const element: XmlElement = {
      name: readName(),
      attrs: Object.create(null) as Record<string, string>,
      children: [],
      line: lineAt(at),
    }
    if (root && stack.length === 0) fail(`a second document element <${element.name}>`, at)
    if (++elements > XML_LIMITS.maxElements) {
      throw new InvalidDumpError(
        `${what} is too large: more than ${XML_LIMITS.maxElements} elements (line ${lineAt(at)}); arc reads at most that many`,
        {
          details: {line: lineAt(at), limit: XML_LIMITS.maxElements},
        }
      )
    }
    if (stack.length >= XML_LIMITS.maxDepth) {
      throw new InvalidDumpError(
        `${what} nests too deep: more than ${XML_LIMITS.maxDepth} levels (line ${lineAt(at)}); arc reads at most that many`,
        {
          details: {line: lineAt(at), limit: XML_LIMITS.maxDepth},
        }
      )
    }
    for (;;) {
      skipSpace()
      if (pos >= source.length) truncated()
      const c = source[pos]
      if (c === '/') {
        if (source[pos + 1] === undefined) truncated()
        if (source[pos + 1] !== '>') fail(`expected '/>' in <${element.name}>`)
        pos += 2
        attach(element)
        if (stack.length === 0) skipTrailing()
        break
      }
      if (c === '>') {
        pos++
        attach(element)
        stack.push(element)
        break
      }
      const attrAt = pos
      const attr = readName()
      skipSpace()
      if (pos >= source.length) truncated()
      if (source[pos] !== '=') fail(`expected '=' after attribute ${attr} in <${element.name}>`)
      pos++
      skipSpace()
      const quote = source[pos]
      if (quote === undefined) truncated()
      if (quote !== '"' && quote !== "'") fail(`expected a quoted value for attribute ${attr} in <${element.name}>`)
      const end = source.indexOf(quote as string, pos + 1)
      if (end === -1) truncated()
      const raw = source.slice(pos + 1, end)
      if (raw.includes('<')) fail(`'<' inside the value of attribute ${attr}`, attrAt)
      if (Object.hasOwn(element.attrs, attr)) fail(`attribute ${attr} repeated in <${element.name}>`, attrAt)
      element.attrs[attr] = decode(raw, attrAt)
      pos = end + 1
    }
    if (stack.length === 0 && root) break
  }

  if (stack.length > 0) truncated()
  if (!root) throw new InvalidDumpError(`${what} holds no XML element`)
  return root

  function attach(element: XmlElement): void {
    const parent = stack.at(-1)
    if (parent) parent.children.push(element)
    else root = element
  }

  function skipTrailing(): void {
    for (;;) {
      skipSpace()
      if (pos >= source.length) return
      if (source.startsWith('<!--', pos)) {
        const end = source.indexOf('-->', pos)
        if (end === -1) truncated()
        pos = end + 3
      } else if (source.startsWith('<?', pos)) {
        const end = source.indexOf('?>', pos)
        if (end === -1) truncated()
        pos = end + 2
      } else {
        fail('content after the end of the document')
      }
    }
  }
}
