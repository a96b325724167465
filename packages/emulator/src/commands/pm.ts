import {fullActivity, shortActivity, type InstalledPackage, type VirtualDevice} from '../virtual-device.js'
import type {CommandContext} from './types.js'

function apkPath(p: InstalledPackage): string {
  return p.system ? `/system/app/${p.name.split('.').pop()}/${p.name.split('.').pop()}.apk` : `/data/app/~~arc==/${p.name}-1/base.apk`
}

/** `pm list packages [-3|-s|-e|-d|-f|-U|-i|--show-versioncode|--user N] [FILTER]` → `package:NAME` lines. */
function listPackages(ctx: CommandContext, args: string[]): number {
  let filter: string | undefined
  const flags = new Set<string>()
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string
    if (a === '--user') i++
    else if (a.startsWith('--')) flags.add(a)
    else if (a.startsWith('-')) for (const c of a.slice(1)) flags.add(`-${c}`)
    else filter = a
  }
  const unknown = [...flags].find((f) => !['-3', '-s', '-e', '-d', '-f', '-U', '-i', '-u', '-a', '--show-versioncode', '--apex-only', '--uid'].includes(f))
  if (unknown) {
    ctx.err(`Error: Unknown option: ${unknown}\n`)
    return 255
  }
  let packages = [...ctx.device.packages].sort((a, b) => a.name.localeCompare(b.name))
  if (flags.has('-3')) packages = packages.filter((p) => !p.system)
  if (flags.has('-s')) packages = packages.filter((p) => p.system)
  if (flags.has('-d')) packages = []
  if (filter !== undefined) packages = packages.filter((p) => p.name.includes(filter as string))
  for (const p of packages) {
    let line = flags.has('-f') ? `package:${apkPath(p)}=${p.name}` : `package:${p.name}`
    if (flags.has('--show-versioncode')) line += ` versionCode:${p.versionCode}`
    if (flags.has('-i')) line += '  installer=null'
    if (flags.has('-U')) line += ` uid:${p.system ? 1000 : 10123}`
    ctx.out(`${line}\n`)
  }
  return 0
}

/** `cmd package resolve-activity --brief PKG`: the match line, then `pkg/.Activity`; or `No activity found`. */
function resolveActivity(ctx: CommandContext, args: string[]): number {
  const name = args.filter((a) => !a.startsWith('-') && !a.startsWith('android.intent.')).pop()
  const pkg = name ? ctx.device.findPackage(name) : undefined
  if (!pkg?.launcher) {
    ctx.out('No activity found\n')
    return 0
  }
  ctx.out('priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=true\n')
  ctx.out(`${pkg.name}/${shortActivity(pkg.name, pkg.launcher)}\n`)
  return 0
}

/** `cmd package query-activities -a android.intent.action.MAIN -c android.intent.category.LAUNCHER` (brief). */
function queryActivities(ctx: CommandContext): number {
  const launchable = ctx.device.packages.filter((p) => p.launcher)
  ctx.out(`${launchable.length} activities found:\n`)
  launchable.forEach((p, i) => {
    ctx.out(`  Activity #${i}:\n    priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\n    ActivityInfo:\n      name=${fullActivity(p.name, p.launcher as string)}\n      packageName=${p.name}\n`)
  })
  return 0
}

function packagePath(ctx: CommandContext, name: string | undefined): number {
  const pkg = name ? ctx.device.findPackage(name) : undefined
  if (!pkg) return 1
  ctx.out(`package:${apkPath(pkg)}\n`)
  return 0
}

/** The `package` service, shared by `pm …` and `cmd package …`. */
export function packageCommand(ctx: CommandContext, args: string[]): number {
  const [sub, ...rest] = args
  const device: VirtualDevice = ctx.device
  switch (sub) {
    case 'list':
      if (rest[0] === 'packages') return listPackages(ctx, rest.slice(1))
      break
    case 'resolve-activity':
      return resolveActivity(ctx, rest)
    case 'query-activities':
      return queryActivities(ctx)
    case 'path':
      return packagePath(ctx, rest.find((a) => !a.startsWith('-')))
    case 'clear': {
      const name = rest.find((a) => !a.startsWith('-'))
      if (!name || !device.findPackage(name)) {
        ctx.out('Failed\n')
        return 1
      }
      device.forceStop(name)
      ctx.out('Success\n')
      return 0
    }
  }
  ctx.err(`Unknown command: ${sub ?? ''}\n`)
  return 255
}

export function pm(ctx: CommandContext): number {
  return packageCommand(ctx, ctx.argv.slice(1))
}
