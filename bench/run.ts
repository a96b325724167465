/**
 * `npm run bench`: runs every `bench/*.bench.ts` (or those named on the command line) and prints their figures.
 * Benchmarks measure; they never fail a build on a number. Each file exports `default async function(): Promise<void>`.
 *
 * `npm run bench -- docs`: runs once each benchmark a figure block of README.md or docs/*.md names
 * (`<!-- bench:NAME -->`, bench/figure-blocks.ts) and writes what it printed into every such block, under a line with
 * the date, the commit and the load average, so every figure in the documentation comes from one run.
 */
import {execFileSync} from 'node:child_process'
import {readdir, readFile, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'

import {BLOCK, benchNames, documentFiles, figureBlocks, ROOT, stampLine} from './figure-blocks.js'

const dir = path.dirname(fileURLToPath(import.meta.url))

async function runBench(file: string): Promise<void> {
  const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as {default: () => Promise<void>}
  await mod.default()
}

/** Runs one benchmark, printing as usual, and returns what it printed on stdout. */
async function captured(name: string): Promise<string> {
  const lines: string[] = []
  const log = console.log
  console.log = (...args: unknown[]) => {
    lines.push(args.map(String).join(' '))
    log(...args)
  }
  try {
    await runBench(`${name}.bench.ts`)
  } finally {
    console.log = log
  }
  return asMarkdown(lines.join('\n'))
}

/** Printed lines as a Markdown block: tables kept, every other line an item of a list, a blank line between the two. */
function asMarkdown(text: string): string {
  const out: string[] = []
  let previous: 'table' | 'list' | undefined
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.startsWith('## ')) continue
    const kind = line.startsWith('|') ? 'table' : 'list'
    if (previous && kind !== previous) out.push('')
    out.push(kind === 'table' || line.startsWith('- ') ? line : `- ${line}`)
    previous = kind
  }
  return out.join('\n')
}

async function docs(): Promise<void> {
  const blocks = figureBlocks()
  const known = new Set(benchNames())
  const missing = blocks.filter((b) => !known.has(b.bench))
  if (missing.length > 0) {
    throw new Error(`figure blocks name benchmarks that do not exist: ${missing.map((b) => `${b.file} bench:${b.bench}`).join(', ')} (bench/ has ${[...known].join(', ')})`)
  }
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {cwd: ROOT, encoding: 'utf8'}).trim()
  const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {cwd: ROOT, encoding: 'utf8'}).trim() !== ''
  const outputs = new Map<string, string>()
  for (const name of [...new Set(blocks.map((b) => b.bench))]) {
    console.log(`\n## ${name}.bench.ts (for the documentation)`)
    const load = os.loadavg()
    const text = await captured(name)
    const stamp = stampLine(name, {date: `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`, commit: dirty ? `${commit} with local changes` : commit, load, cores: os.cpus().length})
    outputs.set(name, `${stamp}\n\n${text}\n`)
  }
  for (const file of documentFiles()) {
    const full = path.join(ROOT, file)
    const before = await readFile(full, 'utf8')
    const after = before.replace(BLOCK, (_all, name: string) => `<!-- bench:${name} -->\n${outputs.get(name) as string}<!-- /bench:${name} -->`)
    if (after !== before) {
      await writeFile(full, after)
      console.log(`wrote ${file}`)
    }
  }
}

const only = process.argv.slice(2)
if (only[0] === 'docs') {
  await docs()
} else {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.bench.ts')).sort()
  for (const file of files) {
    // A whole name runs that benchmark alone (`annotate`, not also `annotate-floor`); a part of one runs every match.
    if (only.length > 0 && !only.some((o) => (files.includes(`${o}.bench.ts`) ? file === `${o}.bench.ts` : file.includes(o)))) continue
    console.log(`\n## ${file}`)
    await runBench(file)
  }
}
