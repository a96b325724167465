import {cliErrorText, errorJson, exitCodeFor, InvalidInputError} from '@arc-cli/core'
import type {Hook} from '@oclif/core'

import {commandSet, suggestFor} from '../command-suggestions.js'

/**
 * An unknown command is an INVALID_INPUT like any other mistake: `Error [INVALID_INPUT]` with the commands meant
 * as `Try:` lines (src/command-suggestions.ts), the JSON error under --json, and exit 2, instead of oclif's bare
 * "not found". Printed as every arc error is (cliErrorText): the command as typed may hold control characters.
 */
const hook: Hook<'command_not_found'> = async function (options) {
  const {config} = options
  const {command, message, suggestions} = suggestFor(options.id.split(':'), commandSet(config), options.argv ?? [])
  const error = new InvalidInputError(message, {
    details: {command, suggestions},
    actions: [...suggestions.map((s) => `${config.bin} ${s}`), `${config.bin} --help (every command)`],
  })
  if (options.argv?.includes('--json')) process.stdout.write(`${JSON.stringify(errorJson(error), null, 2)}\n`)
  else process.stderr.write(`${cliErrorText(error, process.stderr)}\n`)
  process.exitCode = exitCodeFor(error.code)
}

export default hook
