/**
 * Makes the example images in docs/ with the project's own command: `arc annotate --device demo` (bin/dev.js,
 * from source), once per built-in preset. Output is deterministic, so `--check` regenerates into a temp folder
 * and fails when a committed image differs.
 *
 *   npm run example -w @arc-cli/plugin-annotate            # write docs/images/annotate-demo-*.jpg
 *   npm run example -w @arc-cli/plugin-annotate -- --check # compare instead
 */
import {execFileSync} from 'node:child_process'
import {mkdtemp, mkdir, readFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const IMAGES = path.join(ROOT, 'docs', 'images')
const PRESETS = ['default', 'som', 'by-type']
const check = process.argv.includes('--check')

const out = check ? await mkdtemp(path.join(tmpdir(), 'arc-annotate-example-')) : IMAGES
await mkdir(out, {recursive: true})
let stale = 0
for (const preset of PRESETS) {
  const file = `annotate-demo-${preset}.jpg`
  const args = [
    '--conditions=arc-source',
    path.join(ROOT, 'bin', 'dev.js'),
    'annotate',
    '--device',
    'demo',
    '--style',
    preset,
  ]
  args.push('-o', path.join(out, file))
  // A config file of the caller's must not restyle the docs: ARC_CONFIG points at an empty one.
  const env = {...process.env, ARC_CONFIG: path.join(ROOT, 'plugins', 'annotate', 'scripts', 'empty-config.json')}
  const summary = execFileSync(process.execPath, args, {cwd: ROOT, env, encoding: 'utf8'})
  if (!check) {
    console.log(`${path.relative(ROOT, path.join(out, file))}\n${summary}`)
    continue
  }
  const [made, committed] = await Promise.all([
    readFile(path.join(out, file)),
    readFile(path.join(IMAGES, file)).catch(() => undefined),
  ])
  if (!committed?.equals(made)) {
    stale++
    console.error(`docs/images/${file} is out of date: run npm run example -w @arc-cli/plugin-annotate`)
  }
}
if (stale > 0) process.exitCode = 1
