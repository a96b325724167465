import {InputMethods} from '../input-methods.js'
import type {CommandContext} from './types.js'

/** `getprop` (every `[key]: [value]`, sorted) or `getprop KEY` (the value, or an empty line). */
export function getprop(ctx: CommandContext): number {
  const props = ctx.device.properties
  const key = ctx.argv[1]
  if (key !== undefined) {
    ctx.out(`${props.get(key) ?? ctx.argv[2] ?? ''}\n`)
    return 0
  }
  for (const k of [...props.keys()].sort()) ctx.out(`[${k}]: [${props.get(k)}]\n`)
  return 0
}

export function setprop(ctx: CommandContext): number {
  const [, key, value] = ctx.argv
  if (key === undefined || value === undefined) {
    ctx.err('usage: setprop NAME VALUE\n')
    return 1
  }
  ctx.device.properties.set(key, value)
  return 0
}

/** `settings get|put|delete NAMESPACE KEY [VALUE]`: a key-value store; unknown keys read as `null`. */
export function settings(ctx: CommandContext): number {
  const [, verb, namespace, key, value] = ctx.argv
  if (!['system', 'secure', 'global'].includes(namespace ?? '') || key === undefined) {
    ctx.err('Invalid command: settings (get|put|delete) NAMESPACE KEY [VALUE]\n')
    return 255
  }
  const id = `${namespace}/${key}`
  if (verb === 'get') ctx.out(`${ctx.device.settings.get(id) ?? 'null'}\n`)
  else if (verb === 'put' && value !== undefined) ctx.device.settings.set(id, value)
  else if (verb === 'delete') ctx.out(`Deleted ${ctx.device.settings.delete(id) ? 1 : 0} rows\n`)
  else {
    ctx.err('Invalid command: settings (get|put|delete) NAMESPACE KEY [VALUE]\n')
    return 255
  }
  // The current input method is a setting: writing it switches, as the input method manager observes it.
  if (verb !== 'get' && InputMethods.isSetting(id)) ctx.device.inputMethods.switched()
  return 0
}
