/**
 * `npm run bench`: runs every `bench/*.bench.ts` (or those named on the command line) and prints their figures.
 * Benchmarks measure; they never fail a build on a number. Each file exports `default async function(): Promise<void>`.
 */
import {readdir} from 'node:fs/promises'
import {fileURLToPath, pathToFileURL} from 'node:url'
import path from 'node:path'

const dir = path.dirname(fileURLToPath(import.meta.url))
const only = process.argv.slice(2)
const files = (await readdir(dir)).filter((f) => f.endsWith('.bench.ts')).sort()
for (const file of files) {
  if (only.length > 0 && !only.some((o) => file.includes(o))) continue
  console.log(`\n## ${file}`)
  const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as {default: () => Promise<void>}
  await mod.default()
}
