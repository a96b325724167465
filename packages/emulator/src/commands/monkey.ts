import type {CommandContext} from './types.js'

/**
 * `monkey -p PKG -c android.intent.category.LAUNCHER 1`: launches PKG like the launcher and prints what monkey
 * prints (`bash arg:` lines, `Events injected: 1`); `** No activities found to run, monkey aborted.` when PKG has
 * no launcher activity.
 */
export function monkey(ctx: CommandContext): number {
  const args = ctx.argv.slice(1)
  for (const a of args) ctx.out(`  bash arg: ${a}\n`)
  const pIndex = args.indexOf('-p')
  const name = pIndex >= 0 ? args[pIndex + 1] : undefined
  const pkg = name ? ctx.device.findPackage(name) : undefined
  if (!pkg?.launcher) {
    ctx.out('** No activities found to run, monkey aborted.\n')
    return 252
  }
  ctx.device.launch(pkg)
  ctx.out(`args: [${args.join(', ')}]\n`)
  ctx.out('Events injected: 1\n')
  ctx.out('## Network stats: elapsed time=21ms (0ms mobile, 0ms wifi, 21ms not connected)\n')
  return 0
}
