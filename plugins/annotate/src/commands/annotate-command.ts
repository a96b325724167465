import {InvalidInputError, runToolFromCli, toolCommand, type ArcCommand} from '@arc-cli/core'
import type {Command} from '@oclif/core'

import {annotate} from '../tools/annotate.js'

type GeneratedCommand = typeof ArcCommand & {flags: Record<string, unknown>; args: Record<string, unknown>}

const Generated = toolCommand(annotate) as unknown as GeneratedCommand

/**
 * `arc annotate`: the generated tool command, plus `-o -`. The generic adapter prints the result text on
 * stdout; with `-o -` stdout carries the image bytes alone, so the summary goes to stderr instead.
 */
export class AnnotateCommand extends Generated {
  async run(): Promise<unknown> {
    const parsed = await this.parse(AnnotateCommand as unknown as Command.Class)
    const flags = parsed.flags as Record<string, unknown>
    if (flags.output === '-' && this.jsonEnabled()) {
      throw new InvalidInputError('--json cannot be used with -o - (both write to stdout); use --map FILE for the map', {
        details: {input: 'output'},
      })
    }
    const result = await runToolFromCli({tool: annotate, args: parsed.args as Record<string, unknown>, flags, command: this})
    if (flags.output === '-' && result.image) {
      const data = result.image.data
      await new Promise<void>((resolve, reject) => process.stdout.write(data, (error) => (error ? reject(error) : resolve())))
      process.stderr.write(`${result.text}\n`)
    } else if (!this.jsonEnabled()) {
      this.log(result.text)
    }
    return result.data
  }
}
