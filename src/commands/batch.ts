import {createReadStream} from 'node:fs'
import {realpath} from 'node:fs/promises'
import path from 'node:path'

import {
  Args,
  colorsFor,
  exitCodeFor,
  FlowRecorder,
  Flags,
  flowWord,
  InvalidInputError,
  observeCliTools,
  printableLine,
  refuseOverwriteWithoutRecord,
} from '@arc-cli/core'

import {parseBatch} from '../batch-lines.js'
import {readScript} from '../read-script.js'
import {commandSet, suggestFor} from '../command-suggestions.js'
import {exitStatus, ScriptCommand} from '../script-command.js'

export default class Batch extends ScriptCommand {
  static override summary = 'Run arc commands, one per line, from a file or stdin, in one process'
  static override description = [
    'Each line is an arc command without the leading `arc` (`tap 500 1000`, `press back`, `screen-state --detail compact`),',
    'split like a shell command (quotes and backslashes; # comments; no expansion). The commands run one after the other',
    'in this process, so start-up is paid once. Each prints what it prints alone, with the same flags. The first failing',
    "line stops the batch (its error is printed as usual) and its exit status is the batch's; with --keep-going every line",
    "runs and the batch exits with the first failure's status (Ctrl-C still stops it). `batch` lines cannot nest. Each line is echoed on stderr",
    'before it runs, as `FILE:LINE` (`stdin:LINE` for stdin) and its words (--quiet: not), and a line that fails is named',
    'there after its error: `FILE:LINE: failed with exit N: WORDS`. An unknown command on any line is refused before the',
    'first line runs.',
  ].join(' ')
  static override examples = [
    '<%= config.bin %> <%= command.id %> steps.txt',
    'printf "tap 540 1200\\npress back\\nscreen-state --changes ack\\n" | <%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> steps.txt --keep-going',
    '<%= config.bin %> <%= command.id %> steps.txt --record flows/steps.flow',
  ]
  static override enableJsonFlag = false
  static override args = {
    file: Args.string({description: 'Script file; `-` or none reads stdin.', required: false, ignoreStdin: true}),
  }
  static override flags = {
    'keep-going': Flags.boolean({
      summary: "Run every line even after one fails; exit with the first failure's status.",
    }),
    quiet: Flags.boolean({
      char: 'q',
      summary: 'Do not echo each line on stderr before it runs (a failing line is still named after its error).',
    }),
    record: Flags.string({
      summary:
        'Write the lines that acted and succeeded to this flow file for `arc test`, ids replaced by selectors (docs/flows.md). A file that already holds something is refused: see --overwrite.',
    }),
    overwrite: Flags.boolean({
      summary:
        'Let --record replace a file that already holds something (an earlier recording, a flow edited by hand); without it that is refused before any line runs.',
    }),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parse(Batch)
    // `-` is stdin or stdout to every other flag that takes a file; the flow is rewritten after every step, so it
    // cannot go to stdout, and a file named - was made without a word of that.
    if (flags.record === '-')
      throw new InvalidInputError(
        '--record cannot be - (the flow is a file rewritten after every step): name a file, or ./- for one named -',
        {
          details: {input: 'record', path: flags.record},
        }
      )
    refuseOverwriteWithoutRecord(flags.record, flags.overwrite)
    if (flags.record !== undefined && args.file !== undefined && args.file !== '-') {
      // The recording is written before the first line runs: over the script itself, it would replace it.
      const entry = async (file: string) =>
        path.join(
          await realpath(path.dirname(path.resolve(file))).catch(() => path.dirname(path.resolve(file))),
          path.basename(file)
        )
      if ((await entry(flags.record)) === (await entry(args.file))) {
        throw new InvalidInputError(
          `--record ${flags.record} is the batch file ${args.file}: the recording would replace it; record to another file`,
          {details: {inputs: ['record', 'file'], path: flags.record}}
        )
      }
    }
    let script: string
    if (args.file === undefined || args.file === '-')
      script = await readScript(process.stdin, 'the batch on stdin', 'Split it into several batches.')
    else {
      try {
        script = await readScript(
          createReadStream(args.file),
          `batch file ${args.file}`,
          'Split it into several batches.'
        )
      } catch (error) {
        if (error instanceof InvalidInputError) throw error
        throw new InvalidInputError(`cannot read batch file ${args.file}: ${(error as Error).message}`, {cause: error})
      }
    }
    const lines = parseBatch(script)
    // Every line names a command before the first one runs: an unknown or nested command on line N is refused
    // before lines 1 to N-1 have acted on the device (--keep-going too).
    for (const {line, words} of lines) this.commandId(words, line)
    const recorder = flags.record
      ? new FlowRecorder({
          file: flags.record,
          by: 'arc batch --record',
          overwrite: flags.overwrite,
          warn: (message) => process.stderr.write(`arc batch: ${message}\n`),
        })
      : undefined
    if (recorder) {
      // A file that cannot be written, that another recording writes, or that holds something and --overwrite was not
      // given, fails before any line acts on the device.
      await recorder.write()
      await recorder.flush().catch((error: unknown) => {
        recorder.release()
        throw error
      })
      observeCliTools(recorder.observe)
    }
    try {
      const source = args.file === undefined || args.file === '-' ? 'stdin' : args.file
      await this.asResidentHost(() =>
        this.runLines(lines, {keepGoing: flags['keep-going'], echo: !flags.quiet, source})
      )
    } finally {
      if (recorder) {
        observeCliTools(undefined)
        await recorder.write()
        await recorder.flush().finally(() => recorder.release())
        const left = recorder.skipped ? `, ${recorder.skipped} left out (see its comments)` : ''
        process.stderr.write(`arc batch: recorded ${recorder.recorded} step(s) to ${recorder.file}${left}\n`)
      }
    }
  }

  private async runLines(
    lines: ReturnType<typeof parseBatch>,
    {keepGoing, echo, source}: {keepGoing: boolean; echo: boolean; source: string}
  ): Promise<void> {
    const c = colorsFor(process.stderr)
    const where = (line: number) => `${printableLine(source)}:${line}`
    let failure: number | undefined
    for (const {line, words} of lines) {
      // Each step as arc test echoes it: where it is, then its words, before it runs.
      // Each word as the line would read it back: a word with a space, or an empty one, quoted.
      const shown = printableLine(words.map(flowWord).join(' '))
      if (echo) process.stderr.write(`${c.dim(where(line))} ${shown}\n`)
      let status: number
      try {
        await this.runLine(this.commandId(words, line), words.slice(this.commandId(words, line).split(':').length))
        status = 0
      } catch (error) {
        status = exitStatus(error) ?? (await this.statusOf(error))
      }
      if (status !== 0) {
        // The error went out above, as the command prints it; this names the line it came from.
        process.stderr.write(`${where(line)}: failed with exit ${status}: ${shown}\n`)
        failure ??= status
        // Ctrl-C (or a host's interrupt) cancelled the line: the person wants the batch stopped, --keep-going too.
        if (!keepGoing || status === exitCodeFor('CANCELLED')) break
      }
    }
    if (failure !== undefined) this.exit(failure)
  }

  /** The longest run of leading words that names a command (`press back`, `snapshot save`). */
  private commandId(words: string[], line: number): string {
    const found = words[0] === 'batch' ? undefined : this.findCommandId(words)
    if (found) return found
    if (words[0] === 'batch') {
      throw new InvalidInputError(`batch line ${line}: \`batch\` cannot run inside a batch`, {
        actions: [`Run \`${this.config.bin} --help\` for the commands.`],
      })
    }
    // The words before the first flag, as oclif hands an unknown command to its command_not_found hook.
    const firstFlag = words.findIndex((w) => w.startsWith('-'))
    const named = firstFlag === -1 ? words : words.slice(0, firstFlag)
    const {command, message, suggestions} = suggestFor(
      named,
      commandSet(this.config),
      firstFlag === -1 ? [] : words.slice(firstFlag)
    )
    throw new InvalidInputError(`batch line ${line}: ${message}`, {
      details: {line, command, suggestions},
      actions: [
        ...suggestions.map((s) => `${this.config.bin} ${s}`),
        `Run \`${this.config.bin} --help\` for the commands.`,
      ],
    })
  }
}
