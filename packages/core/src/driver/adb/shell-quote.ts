/**
 * POSIX single-quote escaping for strings sent to a device shell. adbkit's `shell:` service hands the whole
 * command line to `/system/bin/sh -c` (mksh on Android 4.4+), so every argument that is not a fixed word of arc's
 * own must go through `shq`. Inside single quotes nothing is special except the closing quote, which is written
 * as `'\''` (close, escaped quote, reopen).
 */
import {InvalidInputError} from '../../errors/arc-error.js'

/**
 * What keeps a string from reaching a device byte for byte, or undefined: a NUL (a C argv or path ends there) or a
 * lone UTF-16 surrogate (it has no UTF-8: encoding writes U+FFFD in its place, which may be the name of another file).
 */
export function deviceStringProblem(value: string): string | undefined {
  if (value.includes('\0')) return 'a NUL character'
  const lone = /\p{Cs}/u.exec(value)?.[0]
  if (lone !== undefined)
    return `a lone surrogate (U+${lone.charCodeAt(0).toString(16).toUpperCase()}, half of a pair: it has no UTF-8)`
  return undefined
}

/** Quotes one argument: `it's` → `'it'\''s'`, the empty string → `''`. Refuses what deviceStringProblem names. */
export function shq(value: string): string {
  const problem = deviceStringProblem(value)
  if (problem !== undefined) {
    throw new InvalidInputError(
      `a device shell argument cannot contain ${problem}: ${JSON.stringify(value.slice(0, 80))}`,
      {details: {argument: value.slice(0, 200)}}
    )
  }
  return `'${value.replaceAll("'", `'\\''`)}'`
}

/** Joins a command: numbers and arc's own fixed words are written as is, every other string is quoted. */
export function shellCommand(words: Array<string | number | Raw>): string {
  return words
    .map((word) => {
      if (typeof word === 'number') {
        if (!Number.isFinite(word)) throw new InvalidInputError(`not a finite number: ${word}`)
        return String(word)
      }
      if (typeof word === 'object') return word.raw
      return shq(word)
    })
    .join(' ')
}

/** A word arc wrote itself (an operator, a redirection), passed through `shellCommand` unquoted. */
export interface Raw {
  raw: string
}

export const raw = (text: string): Raw => ({raw: text})

/** The longest command line arc sends: old adbd (Android < 7) limits an OPEN packet to 4096 bytes. */
const MAX_COMMAND_BYTES = 4000

export function checkCommandLength(command: string): void {
  const bytes = Buffer.byteLength(`shell:${command}`)
  if (bytes > MAX_COMMAND_BYTES) {
    const shown = command.length > 100 ? `${command.slice(0, 100)}…` : command
    throw new InvalidInputError(
      `the device command \`${shown}\` would be ${bytes} bytes, over the ${MAX_COMMAND_BYTES}-byte limit of one adb shell request (adbd before Android 7 takes no more); nothing was sent`,
      {
        details: {bytes, limit: MAX_COMMAND_BYTES},
        actions: [
          'Shorten what went into it (a URL, an extra, a path, the words given to arc shell), or split the work into several commands.',
        ],
      }
    )
  }
}
