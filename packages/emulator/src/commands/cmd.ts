import {STATUSBAR_ACTIONS} from '../scenario.js'
import {am} from './am.js'
import {inputServed} from './input.js'
import {packageCommand} from './pm.js'
import type {CommandContext} from './types.js'
import {wm} from './wm.js'

/** `cmd SERVICE …`: package (like pm), statusbar, input, activity (like am), window (like wm); `cmd -l` lists them. */
export function cmd(ctx: CommandContext): Promise<number> | number {
  const [, service, ...rest] = ctx.argv
  const shifted = (name: string): CommandContext => ({...ctx, argv: [name, ...rest]})
  switch (service) {
    case '-l':
      ctx.out(
        `Currently running services:\n${['activity', 'input', 'package', 'statusbar', 'window'].map((s) => `  ${s}\n`).join('')}`
      )
      return 0
    case 'package':
      return packageCommand(ctx, rest)
    case 'input':
      return inputServed(shifted('input'))
    case 'activity':
      return am(shifted('am'))
    case 'window':
      return wm(shifted('wm'))
    case 'statusbar': {
      const action = rest[0]
      if (!STATUSBAR_ACTIONS.includes(action as (typeof STATUSBAR_ACTIONS)[number])) {
        ctx.err(`Unknown command: ${action ?? ''}\n`)
        return 255
      }
      ctx.device.statusbar =
        action === 'collapse' ? 'collapsed' : action === 'expand-settings' ? 'settings' : 'notifications'
      ctx.device.recordInput({type: 'statusbar', action: action as string})
      return 0
    }
    case undefined:
      ctx.err('cmd: No service specified; use -l to list all services\n')
      return 255
    default:
      ctx.err(`cmd: Can't find service: ${service}\n`)
      return 255
  }
}
