/**
 * `npm run bench`: runs every `bench/*.bench.ts` (or those named on the command line) and prints their figures.
 * Benchmarks measure; they never fail a build on a number. Each file exports `default async function(): Promise<void>`.
 *
 * `npm run bench -- docs`: runs once each benchmark a figure block of README.md or docs/*.md names
 * (`<!-- bench:NAME -->`, bench/figure-blocks.ts) and writes what it printed into every such block, under a line with
 * the date, the commit and the load average, so every figure in the documentation comes from one run. Each
 * benchmark runs in a process of its own. `npm run bench -- docs NAME…` rewrites only those benchmarks' blocks.
 */
import {execFileSync, spawn} from 'node:child_process'
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

/**
 * Runs one benchmark in a process of its own (as `npm run bench -- NAME` would: memory figures start from a fresh
 * process, not from what earlier benchmarks left), passing its output through, and returns what it printed.
 */
async function captured(name: string): Promise<string> {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), name], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let out = ''
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8')
    process.stdout.write(chunk)
  })
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  if (code !== 0) throw new Error(`npm run bench -- ${name} exited ${code}`)
  return asMarkdown(out)
}

/** Printed lines as a Markdown block: tables kept, every other line an item of a list, a blank line between the two. */
function asMarkdown(text: string): string {
  const out: string[] = []
  let previous: 'table' | 'list' | undefined
  for (const line of text.split('\n')) {
    if (line.trim() === '' || /^## \S+\.bench\.ts$/.test(line)) continue
    const kind = line.startsWith('|') ? 'table' : 'list'
    if (previous && kind !== previous) out.push('')
    out.push(kind === 'table' || line.startsWith('- ') ? line : `- ${line}`)
    previous = kind
  }
  return out.join('\n')
}

/** `names`: regenerate only the blocks of these benchmarks (all when none is given). */
async function docs(names: string[]): Promise<void> {
  const blocks = figureBlocks().filter((b) => names.length === 0 || names.includes(b.bench))
  const known = new Set(benchNames())
  const missing = blocks.filter((b) => !known.has(b.bench))
  if (missing.length > 0) {
    throw new Error(
      `figure blocks name benchmarks that do not exist: ${missing.map((b) => `${b.file} bench:${b.bench}`).join(', ')} (bench/ has ${[...known].join(', ')})`
    )
  }
  // The built CLI the process benchmarks run must be this commit's: build it first.
  console.log('npm run build (the process benchmarks run the built bin/run.js)')
  execFileSync('npm', ['run', 'build'], {cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit']})
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {cwd: ROOT, encoding: 'utf8'}).trim()
  const dirty =
    execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {cwd: ROOT, encoding: 'utf8'}).trim() !== ''
  const outputs = new Map<string, string>()
  for (const name of [...new Set(blocks.map((b) => b.bench))]) {
    console.log(`\n## ${name}.bench.ts (for the documentation)`)
    const load = os.loadavg()
    const text = await captured(name)
    const stamp = stampLine(name, {
      date: `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
      commit: dirty ? `${commit} with local changes` : commit,
      load,
      cores: os.cpus().length,
    })
    outputs.set(name, `${stamp}\n\n${text}\n`)
  }
  for (const file of documentFiles()) {
    const full = path.join(ROOT, file)
    const before = await readFile(full, 'utf8')
    const after = before.replace(BLOCK, (all, name: string) =>
      outputs.has(name) ? `<!-- bench:${name} -->\n${outputs.get(name) as string}<!-- /bench:${name} -->` : all
    )
    if (after !== before) {
      await writeFile(full, after)
      console.log(`wrote ${file}`)
    }
  }
}

const only = process.argv.slice(2)
if (only[0] === 'docs') {
  await docs(only.slice(1))
} else {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.bench.ts')).sort()
  for (const file of files) {
    // A whole name runs that benchmark alone (`annotate`, not also `annotate-floor`); a part of one runs every match.
    if (
      only.length > 0 &&
      !only.some((o) => (files.includes(`${o}.bench.ts`) ? file === `${o}.bench.ts` : file.includes(o)))
    )
      continue
    console.log(`\n## ${file}`)
    await runBench(file)
  }
}
