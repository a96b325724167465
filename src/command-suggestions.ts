/**
 * What to offer when the words typed name no command: `arc app stop com.x`, `arc start com.x`, `arc dump`,
 * `arc details 8qp7xe`. oclif hands over every word before the first flag as the command id, arguments included,
 * so the words are read from the left: the longest run that names a command, a word adb, uiautomator2 or Maestro
 * users type for one (SYNONYMS), a topic, or a near miss (edit distance); the words after it are kept as the
 * suggested command's arguments.
 */

import type {Interfaces} from '@oclif/core'

import {distance, nearest, squashName} from '@arc-cli/core'

/** What a suggestion needs to know of a command: its id as typed (`app close`), arguments and flags. */
export interface CommandInfo {
  id: string
  /** Positional arguments in order, with whether each is required. */
  args: Array<{name: string; required: boolean}>
  flags: Array<{name: string; char?: string; required: boolean; options?: string[]; multiple?: boolean}>
}

export interface Suggestion {
  /** The words taken as the command (without the arguments after them). */
  command: string
  message: string
  /** Command lines to try, without the bin (`app close com.x`). */
  suggestions: string[]
}

/**
 * Words for a command that other Android tools use (adb shell's am/input/screencap, uiautomator2, Maestro), a
 * phrase to the commands it means. A phrase may start with a topic (`app stop`). A target may hold placeholders
 * for its first arguments, before the words typed after the phrase: `input text hi` is `type append <element_id> hi`.
 */
const SYNONYMS: Record<string, string[]> = {}
function synonyms(words: string[], targets: string[]): void {
  for (const word of words) SYNONYMS[word] = targets
}
synonyms(
  ['stop', 'kill', 'force-stop', 'forcestop', 'terminate', 'app stop', 'app kill', 'app force-stop', 'app terminate'],
  ['app close']
)
synonyms(['start', 'launch', 'run', 'open', 'app start', 'app launch', 'app run'], ['app open'])
synonyms(['url', 'deeplink', 'deep-link', 'open-url', 'app url', 'app deeplink', 'app deep-link'], ['app open-url'])
synonyms(['install'], ['app install'])
synonyms(['uninstall', 'app remove', 'app delete'], ['app uninstall'])
synonyms(['clear'], ['app clear', 'type clear'])
synonyms(['apps', 'packages', 'app ls'], ['app list'])
synonyms(['dump', 'ui', 'uidump', 'hierarchy', 'tree', 'inspect', 'elements', 'source'], ['screen-state'])
synonyms(['screen'], ['screen-state', 'screenshot', 'screenrecord'])
synonyms(['screencap', 'capture', 'screen-shot', 'snap'], ['screenshot'])
synonyms(['record', 'screen-record'], ['screenrecord'])
synonyms(['input'], ['tap', 'swipe', 'type append', 'press key'])
synonyms(['input tap'], ['tap'])
synonyms(['input swipe'], ['swipe'])
synonyms(['input text', 'text', 'input-text', 'inputtext'], ['type append <element_id>'])
synonyms(['input keyevent', 'key', 'keyevent', 'press-key'], ['press key'])
synonyms(['back'], ['press back'])
synonyms(['home'], ['press home'])
synonyms(['recents', 'overview', 'app-switch'], ['press recents'])
synonyms(['logcat', 'log'], ['logs'])
synonyms(['ls'], ['files list'])
synonyms(['cat'], ['files read'])
synonyms(['rm'], ['files delete'])
synonyms(['push'], ['files write'])
synonyms(['pull'], ['files download'])
synonyms(['rotate', 'orientation'], ['device rotation'])
synonyms(['unlock'], ['device unlock'])
synonyms(['wake', 'wakeup'], ['device wake'])
synonyms(['info', 'getprop', 'props'], ['device info'])
synonyms(['zoom'], ['pinch'])
synonyms(['fling'], ['scroll'])
synonyms(['search'], ['find'])
synonyms(['sh'], ['shell'])
synonyms(['device list', 'list-devices'], ['devices'])

const squash = squashName
const near = (typed: string, name: string) =>
  distance(squash(typed), squash(name)) <= Math.max(2, Math.floor(squash(typed).length / 3))

/** A word as a shell would need it to come back as that word. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`
}

/**
 * The command line to offer: the command, the user's own arguments, placeholders for required arguments (and
 * those before them) still missing and for required flags not among `flagsGiven`.
 */
function commandLine(command: CommandInfo, rest: string[], flagsGiven: string[], placeholders: string[] = []): string {
  const args = [...placeholders, ...rest.map(shellWord)]
  // An optional argument before a required one (`type append [<element_id>] <text>`, where a selector flag may
  // stand in for the id) is written out: the words fill the arguments in order.
  const needed = command.args.slice(0, command.args.findLastIndex((a) => a.required) + 1)
  const missingArgs = needed.slice(args.length).map((a) => `<${a.name}>`)
  const missingFlags = command.flags
    .filter((f) => f.required && !given(f, flagsGiven))
    .map((f) => `--${f.name} <value>`)
  return [command.id, ...args, ...missingArgs, ...missingFlags].join(' ')
}

/** The flags in the words after the command id, long (`--timeout`, `--timeout=5`) or short (`-o`, `-ofile`). */
function flagNames(argv: string[]): string[] {
  return argv
    .filter((a) => /^-[^\d]/.test(a))
    .map((a) => (a.startsWith('--') ? (a.slice(2).split('=')[0] as string) : (a[1] as string)))
}

const given = (flag: CommandInfo['flags'][number], flagsGiven: string[]) =>
  flagsGiven.includes(flag.name) || (flag.char !== undefined && flagsGiven.includes(flag.char))

/**
 * A command followed by words it does not take (oclif only joins words into the id after a command without
 * positional arguments): a lone word that is one of a flag's options or the value of its one required flag is
 * offered as that flag.
 */
function extraWords(command: CommandInfo, rest: string[], flagsGiven: string[]): Suggestion {
  const suggestions: string[] = []
  const optionFlag = rest.length === 1 ? command.flags.find((f) => f.options?.includes(rest[0] as string)) : undefined
  const requiredFlags = command.flags.filter((f) => f.required)
  const only = requiredFlags.length === 1 ? requiredFlags[0] : undefined
  if (optionFlag)
    suggestions.push(`${commandLine(command, [], flagsGiven)} --${optionFlag.name} ${shellWord(rest[0] as string)}`)
  else if (only && !given(only, flagsGiven) && (only.multiple || rest.length === 1)) {
    suggestions.push([command.id, ...rest.map((w) => `--${only.name} ${shellWord(w)}`)].join(' '))
  }
  suggestions.push(`${command.id} --help`)
  const words = rest.map((w) => JSON.stringify(w)).join(', ')
  return {command: command.id, message: `\`${command.id}\` takes no arguments, got ${words}`, suggestions}
}

export interface CommandSet {
  commands: CommandInfo[]
  topics: string[]
}

/** The commands and topics a suggestion may name, from oclif's config (the manifest: no command is loaded). */
export function commandSet(config: Interfaces.Config): CommandSet {
  return {
    commands: config.commands
      .filter((c) => !c.hidden)
      .map((c) => ({
        id: c.id.replaceAll(':', ' '),
        args: Object.entries(c.args ?? {}).map(([name, a]) => ({name, required: a.required === true})),
        flags: Object.entries(c.flags ?? {}).map(([name, f]) => ({
          name,
          ...(f.char ? {char: f.char} : {}),
          required: f.required === true,
          ...(f.type === 'option' && f.options ? {options: [...f.options]} : {}),
          ...(f.type === 'option' && f.multiple ? {multiple: true} : {}),
        })),
      })),
    topics: config.topics.map((t) => t.name.replaceAll(':', ' ')),
  }
}

/**
 * What to tell someone whose words (oclif's id split on `:`) name no command. `argv` is the rest of the command
 * line (the flags).
 */
export function suggestFor(words: string[], set: CommandSet, argv: string[] = []): Suggestion {
  const byId = new Map(set.commands.map((c) => [c.id, c]))
  const flagsGiven = flagNames(argv)
  const lower = words.map((w) => w.toLowerCase())
  const joined = (k: number) => lower.slice(0, k).join(' ')
  const inTopic = (topic: string) => set.commands.filter((c) => c.id.startsWith(`${topic} `))
  const offer = (
    command: string,
    ids: string[],
    rest: string[],
    message = `unknown command "${command}"`
  ): Suggestion => ({
    command,
    message,
    suggestions: ids.flatMap((spec) => {
      const placeholders = spec.split(' ').filter((w) => w.startsWith('<'))
      const target = byId.get(
        spec
          .split(' ')
          .filter((w) => !w.startsWith('<'))
          .join(' ')
      )
      return target ? [commandLine(target, rest, flagsGiven, placeholders)] : []
    }),
  })

  for (let k = words.length - 1; k > 0; k--) {
    const command = byId.get(joined(k))
    // A command with arguments is what was meant once a misspelt topic is put right (`aap close com.x`).
    if (command)
      return command.args.length > 0
        ? offer(command.id, [command.id], words.slice(k))
        : extraWords(command, words.slice(k), flagsGiven)
  }
  // The words of a command split or joined another way (`screen state`, `longpress`).
  for (let k = Math.min(words.length, 3); k > 0; k--) {
    const spaced = set.commands.find((c) => squash(c.id) === squash(joined(k)))
    if (spaced) return offer(words.slice(0, k).join(' '), [spaced.id], words.slice(k))
  }
  for (let k = Math.min(words.length, 2); k > 0; k--) {
    const targets = SYNONYMS[joined(k)]?.filter((spec) => byId.has(spec.replace(/ <.*$/, '')))
    if (targets && targets.length > 0) return offer(words.slice(0, k).join(' '), targets, words.slice(k))
  }
  const topic = set.topics.find((t) => t === lower[0])
  if (topic !== undefined && words.length === 1)
    return {command: topic, message: `unknown command "${topic}"`, suggestions: [`${topic} --help`]}
  if (topic !== undefined) {
    const commands = inTopic(topic)
    const names = commands.map((c) => c.id.slice(topic.length + 1))
    const typed = `${topic} ${words[1]}`
    const close = nearest(lower[1] as string, names)
    if (close.length > 0)
      return offer(
        typed,
        close.map((n) => `${topic} ${n}`),
        words.slice(2)
      )
    const listed = commands.length <= 4 ? commands.map((c) => commandLine(c, [], flagsGiven)) : []
    return {
      command: typed,
      message: `unknown command "${typed}": the ${topic} commands are ${names.join(', ')}`,
      suggestions: [...listed, `${topic} --help`],
    }
  }
  // A near miss of the first words, a command or a topic (`screenstate`, `pres back`, `aap stop`): the fewest
  // edits win; among equals a topic whose next word names one of its commands (`aap stop` is `app close` before
  // it is `tap`), then a command, then the fewest words (`tpa 1 2` is `tap 1 2`).
  const topicReads = (topic: string, word: string | undefined) =>
    word !== undefined &&
    (SYNONYMS[`${topic} ${word}`] !== undefined ||
      nearest(
        word,
        inTopic(topic).map((c) => c.id.slice(topic.length + 1))
      ).length > 0)
  const readings: Array<{k: number; name: string; d: number; rank: number; topic: boolean}> = []
  for (let k = 1; k <= Math.min(words.length, 3); k++) {
    for (const name of [...byId.keys(), ...set.topics]) {
      if (!near(joined(k), name)) continue
      const topic = !byId.has(name)
      const rank = topic ? (topicReads(name, lower[k]) ? 0 : 2) : 1
      readings.push({k, name, d: distance(squash(joined(k)), squash(name)), rank, topic})
    }
  }
  const [best] = readings.sort((x, y) => x.d - y.d || x.rank - y.rank || x.k - y.k)
  if (best?.topic && best.name !== lower[0]) {
    const fixed = suggestFor([best.name, ...words.slice(best.k)], set, argv)
    return {
      ...fixed,
      command: words.slice(0, best.k + 1).join(' '),
      message: `unknown command "${words.slice(0, best.k + 1).join(' ')}"`,
    }
  }
  if (best) {
    const typed = words.slice(0, best.k).join(' ')
    const ids = nearest(joined(best.k), [...byId.keys()])
    return offer(typed, ids, words.slice(best.k))
  }
  return {command: words.join(' '), message: `unknown command "${words.join(' ')}"`, suggestions: []}
}
