import {exitCodeFor, InvalidInputError} from '@arc-cli/core'
import type {Hook} from '@oclif/core'

/** Edit distance (insert, delete, substitute), for "did you mean". */
function distance(a: string, b: string): number {
  let previous = Array.from({length: b.length + 1}, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return previous[b.length] as number
}

/** The closest command ids (as typed: `screen-state`, `press back`), nearest first. */
export function suggestCommands(typed: string, ids: string[]): string[] {
  const squash = (s: string) => s.toLowerCase().replace(/[\s:_-]+/g, '')
  const want = squash(typed)
  const scored = ids
    .map((id) => ({id: id.replaceAll(':', ' '), d: distance(want, squash(id))}))
    .filter((s) => s.d <= Math.max(2, Math.floor(want.length / 3)))
    .sort((x, y) => x.d - y.d || x.id.localeCompare(y.id))
  return scored.slice(0, 3).map((s) => s.id)
}

/**
 * An unknown command is an INVALID_INPUT like any other mistake: `Error [INVALID_INPUT]` with the nearest
 * commands as `Try:` lines, the JSON error under --json, and exit 2, instead of oclif's bare "not found".
 */
const hook: Hook<'command_not_found'> = async function (options) {
  const typed = options.id.replaceAll(':', ' ')
  const suggestions = suggestCommands(options.id, options.config.commandIDs)
  const error = new InvalidInputError(`unknown command "${typed}"`, {
    details: {command: typed, suggestions},
    actions: [...suggestions.map((s) => `${options.config.bin} ${s}`), `${options.config.bin} --help (every command)`],
  })
  const exit = exitCodeFor(error.code)
  if (options.argv?.includes('--json')) {
    process.stdout.write(`${JSON.stringify({error: {...error.toJSON(), exitCode: exit}}, null, 2)}\n`)
  } else {
    const lines = [`Error [${error.code}]: ${error.message}`, ...error.actions.map((a) => `Try: ${a}`)]
    process.stderr.write(`${lines.join('\n')}\n`)
  }
  process.exitCode = exit
}

export default hook
