/**
 * One selector form on every element command. The element actions take flags (`arc click --text ADD`); find and
 * the waits take the positional `BY VALUE` (`arc find text ADD`). Each command accepts the other form as a synonym:
 * `arc click text ADD`, `arc find --text ADD`. The command line is rewritten into the command's own form before
 * oclif reads it, so help, validation and messages stay the command's own. Mixing the two forms, a `BY` without its
 * value, or several criteria where the command matches one, is INVALID_INPUT naming what was typed.
 */
import type {Interfaces} from '@oclif/core'

import {InvalidInputError} from '../errors/arc-error.js'

/** The positional `BY` words and the flag each one is (`text` is `--field-text` on the typing tools). */
export const BY_FLAGS = {text: 'text', content_desc: 'desc', resource_id: 'res-id', class_name: 'class-name'} as const
export type ByWord = keyof typeof BY_FLAGS

const BY_WORDS = Object.keys(BY_FLAGS) as ByWord[]
const isBy = (word: string | undefined): word is ByWord => word !== undefined && (BY_WORDS as string[]).includes(word)

// oclif's flag definitions, held loosely as tool-command.ts holds them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyFlag = Interfaces.Flag<any>

interface Word {
  at: number
  word: string
}

interface Reading {
  /** Positional words and where they are in argv. */
  positional: Word[]
  /** Selector flags given (`--text X`, `--text=X`), each with its value and the argv positions it takes. */
  selectors: Array<{flag: string; value: string | undefined; at: number[]}>
}

/** The flag `--name` or `-c` names, among the command's. */
function flagNamed(word: string, flags: Record<string, AnyFlag>): AnyFlag | undefined {
  if (word.startsWith('--')) return flags[word.slice(2).split('=')[0] as string]
  const char = word.slice(1, 2)
  return Object.values(flags).find((f) => f.char === char)
}

/** Reads argv as oclif will: which words are flag values, which are positional, which are selector flags. */
function read(argv: string[], flags: Record<string, AnyFlag>, selectorFlags: string[]): Reading {
  const reading: Reading = {positional: [], selectors: []}
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] as string
    if (word === '--') {
      for (let j = i + 1; j < argv.length; j++) reading.positional.push({at: j, word: argv[j] as string})
      break
    }
    if (!word.startsWith('-') || word === '-' || /^-\d/.test(word)) {
      reading.positional.push({at: i, word})
      continue
    }
    const name = word.startsWith('--') ? (word.slice(2).split('=')[0] as string) : undefined
    const inline = word.startsWith('--') ? word.includes('=') : word.length > 2
    const selector = name !== undefined && selectorFlags.includes(name)
    // A selector flag takes a value, also on a command that has it only as a synonym (find's --text).
    const takesValue = !inline && (selector || flagNamed(word, flags)?.type === 'option')
    if (selector) {
      const value = inline ? word.slice(word.indexOf('=') + 1) : argv[i + 1]
      reading.selectors.push({flag: name, value, at: takesValue ? [i, i + 1] : [i]})
    }
    if (takesValue) i++
  }
  return reading
}

const flagList = (names: string[]) => names.map((n) => `--${n}`).join(', ')

/**
 * `argv` in the command's own selector form. `form` is the command's: 'flags' (an element action; `textFlag` is
 * the flag its text selector has, `text` or `field-text`; `positionals` how many words it takes besides the
 * selector; `at` where among the positional words a `BY VALUE` pair may start: where an omitted element id stands,
 * or after the command's own arguments, `arc assert screenshot base.png text ADD`) or 'by-value' (find, wait: its
 * first two positionals are BY and VALUE).
 */
export function selectorFormArgv(
  argv: string[],
  command: string,
  flags: Record<string, AnyFlag>,
  form: {kind: 'flags'; textFlag: 'text' | 'field-text'; positionals: number; at: number[]} | {kind: 'by-value'}
): string[] {
  if (form.kind === 'flags') {
    const selectorFlags = [form.textFlag, 'desc', 'res-id', 'class-name']
    const {positional, selectors} = read(argv, flags, selectorFlags)
    const start = form.at.find((i) => isBy(positional[i]?.word))
    if (start === undefined) return argv
    const by = positional[start] as Word & {word: ByWord}
    const value = positional[start + 1]
    // A typing tool's words after a selector flag are what to type, which may well be the word "text".
    if (selectors.length > 0) {
      if (form.positionals > 1) return argv
      throw new InvalidInputError(
        `${command}: the selector is given twice, as \`${by.word} ${value?.word ?? ''}\` and as ${flagList(selectors.map((s) => s.flag))}: give it one way (the flags combine: --text A --desc B)`,
        {details: {input: by.word}}
      )
    }
    if (!value) {
      // The command's own words before the pair (`arc assert visible`), as the line to write names them.
      const own = [command, ...positional.slice(0, start).map((p) => p.word)].join(' ')
      throw new InvalidInputError(
        `${command}: \`${by.word}\` names what to match (${BY_WORDS.join(', ')}) and needs the value after it: ${own} ${by.word} VALUE`,
        {details: {input: by.word}, actions: [`Or as a flag: ${own} --${flagFor(by.word, form.textFlag)} VALUE`]}
      )
    }
    // The flag goes first: the BY and VALUE words may sit apart (`text --wait 5s ADD`), and a `--` may follow.
    const rest = argv.filter((_, i) => i !== by.at && i !== value.at)
    return [`--${flagFor(by.word, form.textFlag)}`, value.word, ...rest]
  }
  const selectorFlags = Object.values(BY_FLAGS) as string[]
  const {positional, selectors} = read(argv, flags, selectorFlags)
  if (selectors.length === 0) return argv
  const given = flagList(selectors.map((s) => s.flag))
  if (positional.length > 0) {
    throw new InvalidInputError(
      `${command}: the selector is given twice, as \`${positional.map((p) => p.word).join(' ')}\` and as ${given}: give it one way`,
      {details: {input: selectors[0]?.flag}}
    )
  }
  if (selectors.length > 1) {
    throw new InvalidInputError(
      `${command} matches one criterion at a time, and ${given} were given: keep one (the element actions, such as click, combine several)`,
      {details: {input: selectors.map((s) => s.flag)}}
    )
  }
  const [only] = selectors as [Reading['selectors'][number]]
  if (only.value === undefined || only.value === '') {
    throw new InvalidInputError(`${command}: --${only.flag} needs a value: ${command} --${only.flag} VALUE`, {
      details: {input: only.flag},
    })
  }
  const by = BY_WORDS.find((w) => BY_FLAGS[w] === only.flag) as ByWord
  const rest = argv.filter((_, i) => !only.at.includes(i))
  return [by, only.value, ...rest]
}

function flagFor(by: ByWord, textFlag: 'text' | 'field-text'): string {
  return by === 'text' ? textFlag : BY_FLAGS[by]
}
