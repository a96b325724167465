import {randomBytes} from 'node:crypto'

import {untilAborted, type CommandContext} from './commands/types.js'
import type {ArmedFault} from './virtual-device.js'

export const IDLE_STATE_ERROR = 'ERROR: could not get idle state.\n'
export const NULL_ROOT_ERROR = 'ERROR: null root node returned by UiTestAutomationBridge.\n'

/**
 * Plays a scripted fault instead of the command. uiautomator's errors go to stderr with exit status 0, as on
 * real devices; `hang` answers nothing until the client gives up (its connection closing kills the process);
 * `disconnect` prints `output` then the device drops off the bus; `garbage` prints `output` (or random bytes).
 */
export async function runFault(fault: ArmedFault, ctx: CommandContext): Promise<number> {
  switch (fault.kind) {
    case 'idle-timeout':
      ctx.err(IDLE_STATE_ERROR)
      return 0
    case 'null-root':
      ctx.err(NULL_ROOT_ERROR)
      return 0
    case 'hang':
      await untilAborted(ctx.signal)
      return 137
    case 'disconnect':
      if (fault.output) await ctx.writeToClient(fault.output)
      ctx.device.disconnect()
      await untilAborted(ctx.signal)
      return 137
    case 'garbage':
      ctx.out(fault.output ?? randomBytes(256))
      return 0
    case 'error':
      ctx.err(fault.message ?? `${ctx.argv[0]}: failed\n`)
      return fault.exitCode ?? 1
  }
}
