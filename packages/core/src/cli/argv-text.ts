/**
 * A command line's bytes that are not UTF-8. Node.js decodes every argument as UTF-8 and writes U+FFFD for each
 * sequence it cannot read, so `arc shell -- echo caf$'\xe9'` (Latin-1 bytes from a terminal in another encoding, a
 * file name from an old file system) reached arc as `caf\uFFFD`, and the device got the bytes of U+FFFD (EF BF BD)
 * for the byte typed: another command, another text typed, another file. The bytes typed are gone by then, so an
 * argument that holds U+FFFD for them is refused before anything runs (INVALID_INPUT naming it).
 *
 * U+FFFD typed as itself (its UTF-8 bytes) is text like any other: on Linux the command line's own bytes
 * (/proc/self/cmdline) tell the two apart. Where they cannot be read (macOS, a /proc closed to the process) an
 * argument holding U+FFFD is refused alike, since arc cannot tell which it is. `arc server` runs a command with the
 * arguments its client sent, so a client whose arguments hold U+FFFD runs the command itself (server/protocol.ts).
 */
import {readFileSync} from 'node:fs'

import {InvalidInputError} from '../errors/arc-error.js'

const strict = new TextDecoder('utf-8', {fatal: true, ignoreBOM: true})

/** Whether `bytes` are UTF-8 (U+FFFD written as its own bytes included). */
export function isUtf8(bytes: Uint8Array): boolean {
  try {
    strict.decode(bytes)
    return true
  } catch {
    return false
  }
}

/**
 * The text Node.js made of each of this process's arguments that were not UTF-8 (their lossy decoding), or
 * undefined where the command line's bytes cannot be read.
 */
export function argumentsNotUtf8(cmdline = '/proc/self/cmdline'): Set<string> | undefined {
  let raw: Buffer
  try {
    raw = readFileSync(cmdline)
  } catch {
    return undefined
  }
  const found = new Set<string>()
  let start = 0
  for (let end = raw.indexOf(0, start); end !== -1; start = end + 1, end = raw.indexOf(0, start)) {
    const arg = raw.subarray(start, end)
    if (!isUtf8(arg)) found.add(arg.toString('utf8'))
  }
  return found
}

/**
 * Refuses the first of `args` (a command's arguments after its id) that came from this process's command line
 * (`commandLine`: a batch's or a flow's lines were read as strict UTF-8 already, script-command.ts) and holds U+FFFD
 * for bytes that were not UTF-8. `notUtf8` gives argumentsNotUtf8's answer (asked only when an argument holds
 * U+FFFD): undefined where it cannot be told, and then any U+FFFD is refused; where Node.js's decoding of a bad
 * argument does not match the one here, any U+FFFD too.
 */
export function checkArgumentText(
  args: readonly string[],
  commandLine: readonly string[] = process.argv,
  notUtf8At: () => ReadonlySet<string> | undefined = argumentsNotUtf8
): void {
  const suspect = (arg: string) => arg.includes('\uFFFD') && commandLine.includes(arg)
  if (!args.some(suspect)) return
  const notUtf8 = notUtf8At()
  if (notUtf8 !== undefined && notUtf8.size === 0) return
  const exact = notUtf8 === undefined ? -1 : args.findIndex((arg) => suspect(arg) && notUtf8.has(arg))
  const at = exact === -1 ? args.findIndex(suspect) : exact
  const arg = args[at] as string
  // Counted as the user sees the command line: the words after `arc`, the command's name first.
  const position = commandLine.slice(2).indexOf(arg) + 1
  const shown = arg.length > 80 ? `${arg.slice(0, 80)}…` : arg
  const why =
    notUtf8 === undefined
      ? 'holds U+FFFD, the character a command line gets for bytes that are not UTF-8 (arc cannot read the bytes typed here to tell)'
      : 'holds bytes that are not UTF-8 (shown as U+FFFD)'
  throw new InvalidInputError(
    `argument ${position} (${JSON.stringify(shown)}) ${why}: arc reads its command line as UTF-8, cannot tell which bytes were meant, and would send the device others; nothing was sent`,
    {
      details: {argument: position, text: shown},
      actions: [
        'Give the text in UTF-8 (set the terminal to UTF-8, or convert it: iconv -f latin1 -t utf-8).',
        "A device file whose name is not UTF-8 can be reached with a glob in the device's shell: arc shell -- sh -c 'mv /sdcard/Download/caf*.txt /sdcard/Download/cafe.txt'",
      ],
    }
  )
}

/**
 * The names of this process's environment variables whose values were not UTF-8 when it started (Node.js decoded
 * them with U+FFFD as it does arguments), or undefined where the environment's bytes cannot be read
 * (/proc/self/environ: Linux).
 */
export function environmentNotUtf8(environ = '/proc/self/environ'): Set<string> | undefined {
  let raw: Buffer
  try {
    raw = readFileSync(environ)
  } catch {
    return undefined
  }
  const found = new Set<string>()
  let start = 0
  for (let end = raw.indexOf(0, start); end !== -1; start = end + 1, end = raw.indexOf(0, start)) {
    const entry = raw.subarray(start, end)
    const equals = entry.indexOf(0x3d)
    if (equals > 0 && !isUtf8(entry.subarray(equals + 1))) found.add(entry.subarray(0, equals).toString('utf8'))
  }
  return found
}

/**
 * `value`, the environment variable `name`'s, unless it holds U+FFFD for bytes that were not UTF-8 (a flow's
 * `${NAME}` would send the device other bytes than the variable's): then INVALID_INPUT naming the variable. As for
 * arguments, U+FFFD is refused alike where the environment's bytes cannot be read.
 */
export function environmentText(
  name: string,
  value: string,
  notUtf8At: () => ReadonlySet<string> | undefined = environmentNotUtf8
): string {
  if (!value.includes('\uFFFD')) return value
  const notUtf8 = notUtf8At()
  if (notUtf8 !== undefined && !notUtf8.has(name)) return value
  throw new InvalidInputError(
    notUtf8 === undefined
      ? `the environment variable ${name} holds U+FFFD, the character the environment gets for bytes that are not UTF-8 (arc cannot read the bytes set here to tell): arc would send the device others; nothing was sent`
      : `the environment variable ${name} holds bytes that are not UTF-8 (shown as U+FFFD): arc reads the environment as UTF-8, cannot tell which bytes were meant, and would send the device others; nothing was sent`,
    {
      details: {variable: name},
      actions: [`Set ${name} in UTF-8 (for example: ${name}="$(printf %s "$${name}" | iconv -f latin1 -t utf-8)").`],
    }
  )
}
