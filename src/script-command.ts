/**
 * What `arc batch` and `arc test` share: they run arc command lines in this process, one after the other, and
 * each line's failure is printed the arc way and turned into its exit status rather than ending the run.
 */
import type {Command, Config} from '@oclif/core'

import {ArcCommand, residentCliHost} from '@arc-cli/core'

import {optionWords} from './server/protocol.js'

/** oclif's exit signal, which ArcCommand throws after printing an error: carries the exit status. */
export function exitStatus(error: unknown): number | undefined {
  const exit = (error as {oclif?: {exit?: unknown}} | undefined)?.oclif?.exit
  return typeof exit === 'number' ? exit : undefined
}

export abstract class ScriptCommand extends ArcCommand {
  private readonly commandClasses = new Map<string, Promise<Command.Class>>()

  /** The longest run of leading words that names a command (`press back`, `snapshot save`), as an oclif id. */
  protected findCommandId(words: string[]): string | undefined {
    for (let k = Math.min(words.length, 3); k > 0; k--) {
      const id = words.slice(0, k).join(':')
      if (this.config.findCommand(id)) return id
    }
    return undefined
  }

  /**
   * Runs one line's command as `this.config.runCommand(id, argv)` does (the `prerun` hook, the command, the `postrun`
   * hook), with the same parsing, help, errors and exit. oclif's own path starts the command through `Command.run(argv,
   * config)`, whose `Config.load(config)` builds a new Config from this one for every line (oclif 4: every plugin's
   * commands and topics indexed again, the theme files read, the platform and shell looked up), the same answer each
   * time; the command gets this process's Config instead, loaded once at start-up. An id oclif does not know goes
   * through runCommand, so its hooks and error stay oclif's. A line's command class is the one an earlier line with the
   * same id loaded.
   */
  protected async runLine(id: string, argv: string[]): Promise<unknown> {
    // `tap --help` alone prints tap's help: oclif's main sees the help flag before any command runs, a path a line
    // does not take, so the command itself would refuse --help as an unknown flag. A help flag before `--` (after
    // it every word is the command's, `shell -- ls -h`) makes the line `help ID`, as oclif's main does.
    if (id !== 'help' && this.asksHelp(argv)) return this.runLine('help', id.split(':'))
    const found = this.config.findCommand(id)
    if (!found) return this.config.runCommand(id, argv)
    // Each id's class is looked up once per run: oclif's load() finds and imports its module again for every line.
    let loading = this.commandClasses.get(id)
    if (!loading) {
      loading = found.load()
      this.commandClasses.set(id, loading)
      // A module that failed to load is tried again by the next line that names it, as oclif would.
      loading.catch(() => this.commandClasses.delete(id))
    }
    const CommandClass = await loading
    await this.config.runHook('prerun', {argv, Command: CommandClass})
    // A command class oclif loaded is a concrete one; its type is the abstract Command's.
    const command = new (CommandClass as unknown as new (argv: string[], config: Config) => Command)(argv, this.config)
    // What Command.run does after loading its config: a command class without an id takes its class name.
    if (!command.id) {
      const name = command.constructor.name.toLowerCase()
      command.id = name
      CommandClass.id = name
    }
    const result = await (command as unknown as {_run(): Promise<unknown>})._run()
    await this.config.runHook('postrun', {argv, Command: CommandClass, result})
    return result
  }

  /** Whether a line's words ask for its command's help: `--help`, or oclif's additional help flags (`-h`). */
  private asksHelp(argv: string[]): boolean {
    const flags = new Set(['--help', ...(this.config.pjson.oclif.additionalHelpFlags ?? [])])
    return optionWords(argv).some((word) => flags.has(word))
  }

  /**
   * Runs the lines as a resident host: the commands they run share this process, so the on-device helper's start is
   * paid once and their touches go through it (core residentCliHost, AdbDriverOptions.resident).
   */
  protected async asResidentHost<T>(work: () => Promise<T>): Promise<T> {
    // An `arc test` line inside a batch runs in the batch's span: ending its own would end the batch's too (touches
    // back to one-shot `input tap`, the config read again per line) for the batch's later lines.
    if (residentCliHost.active()) return work()
    residentCliHost(true)
    try {
      return await work()
    } finally {
      residentCliHost(false)
    }
  }

  /** A line's failure that is not oclif's exit signal (it never reached a command): printed the arc way, its status. */
  protected async statusOf(error: unknown): Promise<number> {
    try {
      await this.catch(error as Error)
    } catch (exit) {
      const status = exitStatus(exit)
      if (status !== undefined) return status
      throw exit
    }
    return 1
  }

  /** The run's own exit (the first failure's status) goes out as it is; anything else is rendered the arc way. */
  protected override async catch(error: Error & {exitCode?: number}): Promise<unknown> {
    if ((error as {code?: unknown}).code === 'EEXIT' && exitStatus(error) !== undefined) throw error
    return super.catch(error)
  }
}
