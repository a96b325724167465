/**
 * The figure blocks of README.md and docs/*.md: each is what one benchmark printed, between
 * `<!-- bench:NAME -->` and `<!-- /bench:NAME -->`, under a line saying when, at which commit and under which load
 * it was measured. `npm run bench -- docs` runs every benchmark a block names, once, and rewrites the blocks;
 * test/docs-figures.test.ts fails when a block or a sentence names a benchmark or a script that no longer exists.
 */
import {readdirSync, readFileSync} from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

export const ROOT = fileURLToPath(new URL('../', import.meta.url))
export const BENCH_DIR = path.join(ROOT, 'bench')

export const BLOCK = /<!-- bench:([a-z0-9-]+) -->\n([\s\S]*?)<!-- \/bench:\1 -->/g

/** README.md and every docs/*.md, relative to the root. */
export function documentFiles(): string[] {
  return [
    'README.md',
    ...readdirSync(path.join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ]
}

export interface FigureBlock {
  file: string
  bench: string
  body: string
}

export function figureBlocks(files = documentFiles()): FigureBlock[] {
  return files.flatMap((file) =>
    [...readFileSync(path.join(ROOT, file), 'utf8').matchAll(BLOCK)].map((m) => ({
      file,
      bench: m[1] as string,
      body: m[2] as string,
    }))
  )
}

/** The benchmark names `npm run bench -- NAME` runs: bench/NAME.bench.ts. */
export function benchNames(): string[] {
  return readdirSync(BENCH_DIR)
    .filter((f) => f.endsWith('.bench.ts'))
    .map((f) => f.slice(0, -'.bench.ts'.length))
    .sort()
}

/** The command a block's figures come from, as its stamp line names it. */
export function benchCommand(name: string): string {
  return name === 'startup' ? 'npm run build && npm run bench -- startup' : `npm run bench -- ${name}`
}

/** The stamp line over a block: date, commit, load, and the command that measured it. */
export function stampLine(
  name: string,
  measured: {date: string; commit: string; load: number[]; cores: number}
): string {
  const load = measured.load.map((l) => l.toFixed(2)).join(' / ')
  return `_Measured ${measured.date} at \`${measured.commit}\`, load average ${load} (1/5/15 min) on ${measured.cores} cores, by \`${benchCommand(name)}\`._`
}
