/**
 * What `arc batch` and `arc test` share: they run arc command lines in this process, one after the other, and
 * each line's failure is printed the arc way and turned into its exit status rather than ending the run.
 */
import {ArcCommand, residentCliHost} from '@arc-cli/core'

/** oclif's exit signal, which ArcCommand throws after printing an error: carries the exit status. */
export function exitStatus(error: unknown): number | undefined {
  const exit = (error as {oclif?: {exit?: unknown}} | undefined)?.oclif?.exit
  return typeof exit === 'number' ? exit : undefined
}

export abstract class ScriptCommand extends ArcCommand {
  /** The longest run of leading words that names a command (`press back`, `snapshot save`), as an oclif id. */
  protected findCommandId(words: string[]): string | undefined {
    for (let k = Math.min(words.length, 3); k > 0; k--) {
      const id = words.slice(0, k).join(':')
      if (this.config.findCommand(id)) return id
    }
    return undefined
  }

  /**
   * Runs the lines as a resident host: the commands they run share this process, so the on-device helper's start is
   * paid once and their touches go through it (core residentCliHost, AdbDriverOptions.resident).
   */
  protected async asResidentHost<T>(work: () => Promise<T>): Promise<T> {
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
