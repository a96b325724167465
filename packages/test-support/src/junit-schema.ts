/**
 * Checks a JUnit XML report against what CI systems' schema allows: well-formed XML 1.0 first, then the element
 * and attribute rules of the JUnit schema the Jenkins xUnit plugin validates reports with
 * (jenkinsci/xunit-plugin, src/main/resources/org/jenkinsci/plugins/xunit/types/model/xsd/junit-10.xsd, MIT). The
 * rules are restated here from that schema's facts, not copied from it:
 * - the root is `testsuites` (attributes name, time, tests, failures, errors; children: `testsuite` only), or a
 *   lone `testsuite`;
 * - `testsuite` needs name, tests, failures and errors; may have group, time, skipped, timestamp, hostname, id,
 *   package, file, log, url; holds testsuite, properties, testcase, system-out and system-err elements;
 * - `testcase` needs name; may have time, classname, group; holds skipped, error, failure, rerunFailure, rerunError,
 *   flakyFailure, flakyError, system-out and system-err;
 * - failure, error and skipped may have type and message and hold text; system-out and system-err hold text only;
 *   properties holds property elements, each with name and value;
 * - every `time` matches the schema's SUREFIRE_TIME pattern (digits, optional thousands commas, optional fraction).
 * Returns every violation found, as `path: what is wrong`; an empty list is a valid report.
 */

interface XmlElement {
  name: string
  attributes: Map<string, string>
  children: XmlElement[]
  text: string
  path: string
}

const NAME = /^[A-Za-z_][\w.-]*/
const ENTITY: Record<string, string> = {amp: '&', lt: '<', gt: '>', quot: '"', apos: "'"}
// XML 1.0's Char production: tab, newline, carriage return, and the ranges from space up, less surrogates and FFFE/F.
const XML_CHARS = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u

function decode(raw: string, where: string, problems: string[]): string {
  if (raw.includes('<')) problems.push(`${where}: a raw '<' (must be &lt;)`)
  return raw.replace(/&([#A-Za-z0-9]*)(;?)/g, (match, ref: string, semi: string) => {
    if (semi === '') {
      problems.push(`${where}: a '&' that starts no reference`)
      return match
    }
    if (ENTITY[ref] !== undefined) return ENTITY[ref]
    const code = /^#x([0-9a-fA-F]+)$/.exec(ref)?.[1] ?? /^#([0-9]+)$/.exec(ref)?.[1]
    if (code !== undefined) {
      const cp = ref.startsWith('#x') ? parseInt(code, 16) : Number(code)
      const char = cp <= 0x10ffff ? String.fromCodePoint(cp) : ''
      if (!XML_CHARS.test(char) || char === '') problems.push(`${where}: &${ref}; is not a character XML 1.0 allows`)
      return char
    }
    problems.push(`${where}: unknown entity &${ref};`)
    return match
  })
}

/** Parses the document (one root element, a leading XML declaration and comments allowed). */
function parse(xml: string, problems: string[]): XmlElement | undefined {
  if (!XML_CHARS.test(xml)) problems.push('document: holds characters XML 1.0 does not allow')
  let at = 0
  const skipMisc = () => {
    for (;;) {
      const ws = /^\s*/.exec(xml.slice(at))![0]
      at += ws.length
      if (xml.startsWith('<?', at)) {
        const end = xml.indexOf('?>', at)
        if (end === -1) return problems.push('document: an unclosed <?…?>')
        at = end + 2
      } else if (xml.startsWith('<!--', at)) {
        const end = xml.indexOf('-->', at)
        if (end === -1) return problems.push('document: an unclosed comment')
        at = end + 3
      } else return
    }
  }
  const element = (parent: string): XmlElement | undefined => {
    const name = NAME.exec(xml.slice(at + 1))?.[0]
    if (xml[at] !== '<' || !name) {
      problems.push(`${parent}: expected an element at offset ${at}`)
      return undefined
    }
    const path = `${parent}/${name}`
    at += 1 + name.length
    const node: XmlElement = {name, attributes: new Map(), children: [], text: '', path}
    for (;;) {
      const attr = /^\s+([A-Za-z_][\w.:-]*)\s*=\s*("([^"]*)"|'([^']*)')/.exec(xml.slice(at))
      if (!attr) break
      const [whole, key, , dq, sq] = attr
      if (node.attributes.has(key!)) problems.push(`${path}: attribute ${key} given twice`)
      node.attributes.set(key!, decode(dq ?? sq ?? '', `${path}@${key}`, problems))
      at += whole.length
    }
    const close = /^\s*(\/?)>/.exec(xml.slice(at))
    if (!close) {
      problems.push(`${path}: a malformed start tag at offset ${at}`)
      return undefined
    }
    at += close[0].length
    if (close[1] === '/') return node
    for (;;) {
      const next = xml.indexOf('<', at)
      if (next === -1) {
        problems.push(`${path}: never closed`)
        return node
      }
      node.text += decode(xml.slice(at, next), path, problems)
      at = next
      if (xml.startsWith('<!--', at)) {
        const end = xml.indexOf('-->', at)
        at = end === -1 ? xml.length : end + 3
      } else if (xml.startsWith('<![CDATA[', at)) {
        const end = xml.indexOf(']]>', at)
        node.text += xml.slice(at + 9, end === -1 ? xml.length : end)
        at = end === -1 ? xml.length : end + 3
      } else if (xml.startsWith('</', at)) {
        const end = /^<\/([A-Za-z_][\w.-]*)\s*>/.exec(xml.slice(at))
        if (!end || end[1] !== name) problems.push(`${path}: closed by ${end ? `</${end[1]}>` : 'a malformed end tag'}`)
        at += end ? end[0].length : 2
        return node
      } else {
        const child = element(path)
        if (!child) return node
        node.children.push(child)
      }
    }
  }
  skipMisc()
  const root = element('')
  skipMisc()
  if (root && at < xml.length) problems.push(`document: content after the root element at offset ${at}`)
  return root
}

interface Rule {
  required: string[]
  optional: string[]
  /** Child elements allowed; 'text' = character data allowed (else only whitespace). */
  children: string[]
  text: boolean
}

const RESULT: Rule = {required: [], optional: ['type', 'message'], children: [], text: true}
const RERUN: Rule = {
  required: ['type'],
  optional: ['message'],
  children: ['stackTrace', 'system-out', 'system-err'],
  text: true,
}
const TEXT_ONLY: Rule = {required: [], optional: [], children: [], text: true}

const RULES: Record<string, Rule> = {
  testsuites: {
    required: [],
    optional: ['name', 'time', 'tests', 'failures', 'errors'],
    children: ['testsuite'],
    text: false,
  },
  testsuite: {
    required: ['name', 'tests', 'failures', 'errors'],
    optional: ['group', 'time', 'skipped', 'timestamp', 'hostname', 'id', 'package', 'file', 'log', 'url'],
    children: ['testsuite', 'properties', 'testcase', 'system-out', 'system-err'],
    text: false,
  },
  testcase: {
    required: ['name'],
    optional: ['time', 'classname', 'group'],
    children: [
      'skipped',
      'error',
      'failure',
      'rerunFailure',
      'rerunError',
      'flakyFailure',
      'flakyError',
      'system-out',
      'system-err',
    ],
    text: false,
  },
  failure: RESULT,
  error: RESULT,
  skipped: RESULT,
  rerunFailure: RERUN,
  rerunError: RERUN,
  flakyFailure: RERUN,
  flakyError: RERUN,
  stackTrace: TEXT_ONLY,
  'system-out': TEXT_ONLY,
  'system-err': TEXT_ONLY,
  properties: {required: [], optional: [], children: ['property'], text: false},
  property: {required: ['name', 'value'], optional: [], children: [], text: false},
}

/** The schema's SUREFIRE_TIME: `(([0-9]{0,3},)*[0-9]{3}|[0-9]{0,3})*(\.[0-9]*)?`, anchored as XSD patterns are. */
const SUREFIRE_TIME = /^((([0-9]{0,3},)*[0-9]{3}|[0-9]{0,3})*(\.[0-9]*)?)$/

function check(node: XmlElement, problems: string[]): void {
  const rule = RULES[node.name]!
  for (const key of rule.required)
    if (!node.attributes.has(key)) problems.push(`${node.path}: missing the required attribute ${key}`)
  for (const key of node.attributes.keys())
    if (!rule.required.includes(key) && !rule.optional.includes(key))
      problems.push(`${node.path}: attribute ${key} is not in the schema`)
  const time = node.attributes.get('time')
  if (time !== undefined && (node.name === 'testsuite' || node.name === 'testsuites') && !SUREFIRE_TIME.test(time))
    problems.push(`${node.path}@time: ${JSON.stringify(time)} does not match SUREFIRE_TIME`)
  if (!rule.text && node.text.trim() !== '')
    problems.push(`${node.path}: holds text, which the schema does not allow there`)
  for (const child of node.children) {
    if (!rule.children.includes(child.name) || RULES[child.name] === undefined) {
      problems.push(`${child.path}: not allowed inside ${node.name}`)
      continue
    }
    check(child, problems)
  }
}

export function junitSchemaProblems(xml: string): string[] {
  const problems: string[] = []
  const root = parse(xml, problems)
  if (!root) return problems
  if (root.name !== 'testsuites' && root.name !== 'testsuite')
    problems.push(`/${root.name}: the root must be testsuites or testsuite`)
  else check(root, problems)
  return problems
}
