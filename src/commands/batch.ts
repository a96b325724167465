import {readFile} from 'node:fs/promises'

import {ArcCommand, Args, Flags, InvalidInputError} from '@arc-cli/core'

import {parseBatch} from '../batch-lines.js'
import {commandSet, suggestFor} from '../command-suggestions.js'

/** oclif's exit signal, which ArcCommand throws after printing an error: carries the exit status. */
function exitStatus(error: unknown): number | undefined {
  const exit = (error as {oclif?: {exit?: unknown}} | undefined)?.oclif?.exit
  return typeof exit === 'number' ? exit : undefined
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

export default class Batch extends ArcCommand {
  static override summary = 'Run arc commands, one per line, from a file or stdin, in one process'
  static override description = [
    'Each line is an arc command without the leading `arc` (`tap 500 1000`, `press back`, `screen-state --detail compact`),',
    'split like a shell command (quotes and backslashes; # comments; no expansion). The commands run one after the other',
    'in this process, so start-up is paid once. Each prints what it prints alone, with the same flags. The first failing',
    'line stops the batch (its error is printed as usual) and its exit status is the batch\'s; with --keep-going every line',
    'runs and the batch exits with the first failure\'s status. `batch` lines cannot nest.',
  ].join(' ')
  static override examples = [
    '<%= config.bin %> <%= command.id %> steps.txt',
    'printf "tap 540 1200\\npress back\\nscreen-state --changes ack\\n" | <%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> steps.txt --keep-going',
  ]
  static override enableJsonFlag = false
  static override args = {
    file: Args.string({description: 'Script file; `-` or none reads stdin.', required: false, ignoreStdin: true}),
  }
  static override flags = {
    'keep-going': Flags.boolean({summary: 'Run every line even after one fails; exit with the first failure\'s status.'}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parse(Batch)
    let script: string
    if (args.file === undefined || args.file === '-') script = await readStdin()
    else {
      try {
        script = await readFile(args.file, 'utf8')
      } catch (error) {
        throw new InvalidInputError(`cannot read batch file ${args.file}: ${(error as Error).message}`, {cause: error})
      }
    }
    const lines = parseBatch(script)
    let failure: number | undefined
    for (const {line, words} of lines) {
      let status: number
      try {
        await this.config.runCommand(this.commandId(words, line), words.slice(this.commandId(words, line).split(':').length))
        status = 0
      } catch (error) {
        status = exitStatus(error) ?? (await this.report(error))
      }
      if (status !== 0) {
        failure ??= status
        if (!flags['keep-going']) break
      }
    }
    if (failure !== undefined) this.exit(failure)
  }

  /** The batch's own exit (the first failure's status) goes out as it is; anything else is rendered the arc way. */
  protected override async catch(error: Error & {exitCode?: number}): Promise<unknown> {
    if ((error as {code?: unknown}).code === 'EEXIT' && exitStatus(error) !== undefined) throw error
    return super.catch(error)
  }

  /** The longest run of leading words that names a command (`press back`, `snapshot save`). */
  private commandId(words: string[], line: number): string {
    for (let k = Math.min(words.length, 3); k > 0; k--) {
      const id = words.slice(0, k).join(':')
      if (id === 'batch') break
      if (this.config.findCommand(id)) return id
    }
    if (words[0] === 'batch') {
      throw new InvalidInputError(`batch line ${line}: \`batch\` cannot run inside a batch`, {actions: [`Run \`${this.config.bin} --help\` for the commands.`]})
    }
    // The words before the first flag, as oclif hands an unknown command to its command_not_found hook.
    const firstFlag = words.findIndex((w) => w.startsWith('-'))
    const named = firstFlag === -1 ? words : words.slice(0, firstFlag)
    const {command, message, suggestions} = suggestFor(named, commandSet(this.config), firstFlag === -1 ? [] : words.slice(firstFlag))
    throw new InvalidInputError(`batch line ${line}: ${message}`, {
      details: {line, command, suggestions},
      actions: [...suggestions.map((s) => `${this.config.bin} ${s}`), `Run \`${this.config.bin} --help\` for the commands.`],
    })
  }

  /** A line that failed before its command ran (unknown command): printed the arc way, its status returned. */
  private async report(error: unknown): Promise<number> {
    try {
      await this.catch(error as Error)
    } catch (exit) {
      const status = exitStatus(exit)
      if (status !== undefined) return status
      throw exit
    }
    return 1
  }
}
