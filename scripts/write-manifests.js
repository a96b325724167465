/**
 * `npm run build` (and `prepare`, so a fresh clone's `npm install` too) runs this after tsc: it writes
 * oclif.manifest.json into arc's root package and each arc plugin, from the built dist/. With it, bin/run.js reads
 * every command's id, flags and help from one file per package and imports only the module of the command it runs
 * (without it oclif imports every command to learn its flags: docs/architecture.md, "How commands load").
 * `--clean` deletes them (`npm run clean`). Plain JavaScript: it runs before anything can transpile TypeScript.
 *
 * The manifests are oclif's own (`Plugin` with `ignoreManifest` builds them from the command classes), less each
 * command's `relativePath` and `isESM`: without those oclif finds a command's module from its id, under dist/ for
 * bin/run.js and under src/ in development, so a manifest never sends anything to the compiled files but bin/run.js.
 * Less its `tool` too (below).
 */
import {existsSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

/** The root package and the arc plugins it lists (the third-party ones ship their own manifests). */
export function packageRoots() {
  const pjson = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'))
  const require = createRequire(path.join(ROOT, 'package.json'))
  const plugins = pjson.oclif.plugins.filter((name) => name.startsWith('@arc-cli/'))
  return [ROOT, ...plugins.map((name) => path.dirname(require.resolve(`${name}/package.json`)))]
}

/** The manifest of the package at `root`, as oclif derives it from the command classes (dist/ or src/, by NODE_ENV). */
export async function buildManifest(root) {
  const {Plugin} = await import('@oclif/core')
  const plugin = new Plugin({
    root,
    isRoot: true,
    type: 'core',
    ignoreManifest: true,
    errorOnManifestCreate: true,
    respectNoCacheDefault: true,
  })
  await plugin.load()
  // oclif copies a command class's own static properties into its entry too: arc's tool commands carry their whole
  // tool definition (`tool`, its zod schema serialised into meaningless JSON), a third of the root manifest, which
  // every start-up read, decoded and parsed, and nothing read back (the command's module has the tool).
  const commands = Object.fromEntries(
    Object.entries(plugin.manifest.commands).map(([id, {relativePath, isESM, tool, ...command}]) => [id, command])
  )
  return {commands, version: plugin.manifest.version}
}

/**
 * tsc never deletes what it once compiled: a command whose source was removed or renamed would live on in
 * dist/commands/ as a command of bin/run.js. Deletes each compiled command module (and its maps and types) that has
 * no source in src/commands/ any more; nothing when there is no src/ (an installed package).
 */
function removeOrphanCommands(root) {
  const built = path.join(root, 'dist', 'commands')
  const source = path.join(root, 'src', 'commands')
  if (!existsSync(built) || !existsSync(source)) return
  for (const entry of readdirSync(built, {recursive: true})) {
    const file = String(entry)
    if (!file.endsWith('.js') || existsSync(path.join(source, file.replace(/\.js$/, '.ts')))) continue
    for (const suffix of ['.js', '.js.map', '.d.ts', '.d.ts.map']) {
      const orphan = path.join(built, file.replace(/\.js$/, suffix))
      if (existsSync(orphan)) {
        rmSync(orphan)
        console.error(`deleted ${path.relative(process.cwd(), orphan)} (its source is gone)`)
      }
    }
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const root of packageRoots()) {
    const file = path.join(root, 'oclif.manifest.json')
    if (process.argv.includes('--clean')) {
      rmSync(file, {force: true})
      continue
    }
    // From the built dist/ (oclif reads src/ through tsx when NODE_ENV is development or test).
    process.env.NODE_ENV = 'production'
    removeOrphanCommands(root)
    const manifest = await buildManifest(root)
    writeFileSync(file, `${JSON.stringify(manifest)}\n`)
    // On stderr: `npm pack --json` (which runs the build as `prepare`) must print its JSON alone on stdout.
    console.error(
      `wrote ${path.relative(process.cwd(), file) || file} (commands: ${Object.keys(manifest.commands).length})`
    )
  }
}
