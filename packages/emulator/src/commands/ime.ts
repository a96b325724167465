import type {CommandContext} from './types.js'

/**
 * `ime list [-a] [-s]`, `ime enable|disable|set ID` (the `cmd input_method ime` shell of Android 11+): success on
 * stdout as `Input method ID: now enabled for user #0` / `… selected for user #0`, an unknown or disabled input
 * method on stderr as `Unknown input method ID cannot be selected for user #0`, exit status 255.
 */
export function ime(ctx: CommandContext): number {
  const [, verb, ...rest] = ctx.argv
  const methods = ctx.device.inputMethods
  const id = rest[0]
  switch (verb) {
    case 'list': {
      const flags = new Set(rest.flatMap((a) => (/^-[as]+$/.test(a) ? [...a.slice(1)] : [a])))
      const ids = flags.has('a') ? methods.installed() : methods.enabledList()
      for (const each of ids)
        ctx.out(flags.has('s') ? `${each}\n` : `${each}:\n  mId=${each} mSettingsActivityName=null\n`)
      return 0
    }
    case 'enable':
    case 'disable': {
      if (id === undefined || !methods.installed().includes(id)) {
        ctx.err(`Unknown input method ${id ?? ''} cannot be ${verb}d for user #0\n`)
        return 255
      }
      const was = methods.enabled.has(id)
      if (verb === 'enable') methods.enabled.add(id)
      else methods.enabled.delete(id)
      ctx.out(`Input method ${id}: ${was === (verb === 'enable') ? 'already' : 'now'} ${verb}d for user #0\n`)
      if (verb === 'disable' && methods.current === id) methods.select(methods.enabledList()[0])
      return 0
    }
    case 'set':
      if (id === undefined || !methods.enabledList().includes(id)) {
        ctx.err(`Unknown input method ${id ?? ''} cannot be selected for user #0\n`)
        return 255
      }
      methods.select(id)
      ctx.out(`Input method ${id} selected for user #0\n`)
      return 0
    default:
      ctx.err(
        'ime <command>:\n  list [-a] [-s]\n  enable [--user <USER_ID>] <ID>\n  disable [--user <USER_ID>] <ID>\n  set [--user <USER_ID>] <ID>\n  reset [--user <USER_ID>]\n'
      )
      return 255
  }
}
