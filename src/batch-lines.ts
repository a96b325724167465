/**
 * The lines of an `arc batch` script: one arc command per line, words split the way a POSIX shell splits a
 * simple command (whitespace; '…' literal; "…" with \" \\ \$ \` escapes; \x outside quotes; # starts a comment
 * at the start of a word). Nothing is expanded: no variables, globs or substitutions.
 */
import {InvalidInputError} from '@arc-cli/core'

export interface BatchLine {
  /** 1-based line number in the script. */
  line: number
  words: string[]
}

/**
 * Expands `${NAME}` where a shell would (outside quotes and inside "…", never inside '…' or after a backslash):
 * returns the value, or throws. `arc test` flows pass one; `arc batch` expands nothing.
 */
export type Expand = (name: string, line: number) => string

/** At `text[i]` (a `$`): the `${NAME}` there and where it ends, or undefined when it is not one. */
function reference(text: string, i: number): {name: string; end: number} | undefined {
  const m = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}/.exec(text.slice(i))
  return m ? {name: m[1] as string, end: i + m[0].length - 1} : undefined
}

export function splitWords(text: string, line: number, expand?: Expand): string[] {
  const words: string[] = []
  let word = ''
  let inWord = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string
    const ref = expand && c === '$' ? reference(text, i) : undefined
    if (ref) {
      word += expand!(ref.name, line)
      inWord = true
      i = ref.end
    } else if (c === ' ' || c === '\t' || c === '\r') {
      if (inWord) words.push(word)
      word = ''
      inWord = false
    } else if (c === '#' && !inWord) {
      break
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1)
      if (end === -1) throw unterminated(line, "'")
      word += text.slice(i + 1, end)
      inWord = true
      i = end
    } else if (c === '"') {
      inWord = true
      let j = i + 1
      for (; j < text.length && text[j] !== '"'; j++) {
        const inner = expand && text[j] === '$' ? reference(text, j) : undefined
        if (inner) {
          word += expand!(inner.name, line)
          j = inner.end
          continue
        }
        if (text[j] === '\\' && j + 1 < text.length && '"\\$`'.includes(text[j + 1] as string)) j++
        word += text[j]
      }
      if (j >= text.length) throw unterminated(line, '"')
      i = j
    } else if (c === '\\') {
      // A backslash ending the line (before a CRLF file's \r too) would continue it in a shell: a line cannot, and
      // dropping it (or escaping the \r) would send other text than the line shows.
      if (i + 1 >= text.length || (text[i + 1] === '\r' && i + 2 === text.length)) throw trailingBackslash(line)
      word += text[++i]
      inWord = true
    } else {
      word += c
      inWord = true
    }
  }
  if (inWord) words.push(word)
  return words
}

function trailingBackslash(line: number): InvalidInputError {
  return new InvalidInputError(`batch line ${line}: a backslash ends the line, escaping nothing`, {
    actions: ['A command cannot span lines; for a backslash as text, quote it: \'\\\' or "\\\\".'],
  })
}

function unterminated(line: number, quote: string): InvalidInputError {
  return new InvalidInputError(`batch line ${line}: unterminated ${quote} quote`, {
    actions: ['Close the quote on the same line; a command cannot span lines.'],
  })
}

/** Every command line of a script; blank and comment-only lines are skipped. */
export function parseBatch(script: string): BatchLine[] {
  return script
    .replace(/^\uFEFF/, '')
    .split('\n')
    .map((text, i) => ({line: i + 1, words: splitWords(text, i + 1)}))
    .filter((l) => l.words.length > 0)
}
