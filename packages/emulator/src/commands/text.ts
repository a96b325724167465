import {readFile, stat} from 'node:fs/promises'

import {accessError, errnoText, shellMayRead} from '../device-files.js'
import type {CommandContext} from './types.js'

async function inputs(
  ctx: CommandContext,
  files: string[],
  name: string
): Promise<{name: string; text: string}[] | number> {
  if (files.length === 0) return [{name: '(standard input)', text: (await ctx.readStdin()).toString('utf8')}]
  const out: {name: string; text: string}[] = []
  for (const file of files) {
    try {
      const host = ctx.device.files.hostPath(file, ctx.cwd, true)
      if (!shellMayRead(await stat(host))) throw accessError()
      out.push({name: file, text: await readFile(host, 'utf8')})
    } catch (error) {
      ctx.err(`${name}: ${file}: ${errnoText(error)}\n`)
      return 2
    }
  }
  return out
}

function lines(text: string): string[] {
  const all = text.split('\n')
  if (all.at(-1) === '') all.pop()
  return all
}

/** `grep [-E|-F] [-i] [-v] [-c] [-q] [-o] [-n] [-e] PATTERN [FILE…]` (toybox subset). Exit 1 when nothing matched. */
export async function grep(ctx: CommandContext): Promise<number> {
  const flags = new Set<string>()
  const rest: string[] = []
  let pattern: string | undefined
  const args = ctx.argv.slice(1)
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string
    if (a === '-e') pattern = args[++i]
    else if (/^-[EFivcqonsw]+$/.test(a)) for (const c of a.slice(1)) flags.add(c)
    else if (a.startsWith('-') && a.length > 1) {
      ctx.err(`grep: Unknown option '${a}'\n`)
      return 2
    } else rest.push(a)
  }
  if (pattern === undefined) pattern = rest.shift()
  if (pattern === undefined) {
    ctx.err('grep: Need 1 argument\n')
    return 2
  }
  const source = flags.has('F')
    ? pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    : flags.has('E')
      ? pattern
      : pattern.replace(/\\([|+?(){}])/g, '$1')
  const re = new RegExp(flags.has('w') ? `\\b(?:${source})\\b` : source, flags.has('i') ? 'gi' : 'g')
  const files = await inputs(ctx, rest, 'grep')
  if (typeof files === 'number') return files
  let total = 0
  for (const file of files) {
    let count = 0
    lines(file.text).forEach((line, index) => {
      re.lastIndex = 0
      const matched = re.test(line) !== flags.has('v')
      if (!matched) return
      count++
      if (flags.has('q') || flags.has('c')) return
      const prefix = (files.length > 1 ? `${file.name}:` : '') + (flags.has('n') ? `${index + 1}:` : '')
      if (flags.has('o') && !flags.has('v')) for (const m of line.matchAll(re)) ctx.out(`${prefix}${m[0]}\n`)
      else ctx.out(`${prefix}${line}\n`)
    })
    if (flags.has('c') && !flags.has('q')) ctx.out(`${files.length > 1 ? `${file.name}:` : ''}${count}\n`)
    total += count
  }
  return total > 0 ? 0 : 1
}

async function headTail(ctx: CommandContext, tail: boolean): Promise<number> {
  let n = 10
  const files: string[] = []
  const args = ctx.argv.slice(1)
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string
    if (a === '-n') n = Number(args[++i])
    else if (/^-n?\d+$/.test(a)) n = Number(a.replace(/^-n?/, ''))
    else files.push(a)
  }
  const name = tail ? 'tail' : 'head'
  const sources = await inputs(ctx, files, name)
  if (typeof sources === 'number') return 1
  for (const source of sources) {
    const all = lines(source.text)
    for (const line of tail ? all.slice(Math.max(0, all.length - n)) : all.slice(0, n)) ctx.out(`${line}\n`)
  }
  return 0
}

export const head = (ctx: CommandContext) => headTail(ctx, false)
export const tail = (ctx: CommandContext) => headTail(ctx, true)

/** `wc [-l|-w|-c] [FILE]` */
export async function wc(ctx: CommandContext): Promise<number> {
  const flags = ctx.argv.slice(1).filter((a) => a.startsWith('-'))
  const files = ctx.argv.slice(1).filter((a) => !a.startsWith('-'))
  const sources = await inputs(ctx, files, 'wc')
  if (typeof sources === 'number') return 1
  for (const s of sources) {
    const counts = {
      l: (s.text.match(/\n/g) ?? []).length,
      w: s.text.split(/\s+/).filter(Boolean).length,
      c: Buffer.byteLength(s.text),
    }
    const chosen =
      flags.length === 0 ? [counts.l, counts.w, counts.c] : flags.map((f) => counts[f.slice(1) as 'l' | 'w' | 'c'] ?? 0)
    ctx.out(`${chosen.join(' ')}${files.length > 0 ? ` ${s.name}` : ''}\n`)
  }
  return 0
}
