/**
 * `node scripts/write-code-cache.js annotate` (run by scripts/bundle-plugins.js) instead annotates the demo screen
 * and writes the annotate plugin's bundle's cache (`plugins/annotate/dist/bundle/annotate.cjs.cache`).
 *
 * Run by scripts/bundle-core.js in a process of its own, after the bundle is written: writes
 * `packages/core/dist/bundle/core.cjs.cache`, V8's code cache for the bundle (packages/core/src/loader/load-bundle.ts).
 * V8 puts in the cache the functions compiled so far, so this first runs what most commands run: `arc --version`
 * (oclif's start), a screen read of the bundled demo snapshot (the core's tool path, the screen parser and
 * formatter), and a tap against a port where no adb server listens (the ADB driver's start and its error path).
 * Nothing touches a device or the user's files: the per-device state goes to a temporary folder, removed after.
 * The cache only makes start-up faster; what it holds never changes what a command does.
 */
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {createServer} from 'node:net'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const stateDir = mkdtempSync(path.join(os.tmpdir(), 'arc-code-cache-'))
// The builder's own settings must not change (or break) what the build runs: no ARC_* variable of theirs (an
// invalid ARC_CONFIG failed `npm run build`), and an empty config of the build's own instead of any found.
for (const name of Object.keys(process.env)) if (name.startsWith('ARC_')) delete process.env[name]
process.env.ARC_CACHE_DIR = stateDir
process.env.ARC_CONFIG = path.join(stateDir, 'arc.config.json')
writeFileSync(process.env.ARC_CONFIG, '{}\n')
// A port that was free a moment ago: the tap finds no adb server there at once.
const closedPort = await new Promise((resolve, reject) => {
  const server = createServer().listen(0, '127.0.0.1', () => {
    const {port} = server.address()
    server.close(() => resolve(port))
  })
  server.on('error', reject)
})
process.env.ADB_SERVER_SOCKET = `tcp:127.0.0.1:${closedPort}`
// Nor the builder's device or adb server settings (an invalid ANDROID_ADB_SERVER_PORT failed the build).
delete process.env.ANDROID_SERIAL
delete process.env.ANDROID_ADB_SERVER_PORT
delete process.env.ANDROID_ADB_SERVER_ADDRESS

const {writeCodeCache} = await import(
  pathToFileURL(path.join(ROOT, 'packages', 'core', 'dist', 'loader', 'load-bundle.js')).href
)
const bundle = (file) => pathToFileURL(path.join(ROOT, 'packages', 'core', 'dist', 'bundle', file)).href
const {execute} = await import(bundle('oclif.js'))
const {exitCodeFor} = await import(bundle('index.js'))

const dir = pathToFileURL(path.join(ROOT, 'bin', 'run.js')).href

if (process.argv[2] === 'annotate') {
  // The annotate command's code (scripts/bundle-plugins.js), in a process of its own so that the core's cache
  // holds what most commands compile, not the annotation's part of the core as well.
  const {bundleFile, PLUGIN_BUNDLES} = await import('./bundle-plugins.js')
  // The module the annotate command loads the bundle through (the same instance: the same file URL).
  const {bundleLoadError} = await import(
    pathToFileURL(path.join(ROOT, 'plugins', 'annotate', 'dist', 'load-bundled.js')).href
  )
  const file = bundleFile(PLUGIN_BUNDLES[0])
  const unsupported = exitCodeFor('UNSUPPORTED')
  let annotated = false
  // oclif prints a failure on stderr and exits: kept to tell a missing canvas binary from anything else. What the
  // annotation prints on stdout is not this script's output.
  let failure = ''
  const write = process.stderr.write.bind(process.stderr)
  process.stderr.write = (chunk, ...rest) => {
    failure += String(chunk)
    return write(chunk, ...rest)
  }
  const print = process.stdout.write.bind(process.stdout)
  process.stdout.write = (...args) => {
    const done = args.find((arg) => typeof arg === 'function')
    if (done) done()
    return true
  }
  process.on('exit', (code) => {
    try {
      if (annotated) {
        // The command fell back to the plugin's modules when the bundle did not load: say why, not only "no cache".
        const broken = bundleLoadError()
        if (broken !== undefined) throw new Error(`${path.relative(ROOT, file)} did not load: ${String(broken)}`)
        writeCodeCache(file)
        process.exitCode = 0
      } else if (code === unsupported && /needs the prebuilt @napi-rs\/canvas binary/.test(failure)) {
        // No canvas binary for this platform: `arc annotate` says so (UNSUPPORTED) and the bundle is never run.
        print(`${path.relative(ROOT, file)}: no code cache written (the canvas binary is not installed here)\n`)
        process.exitCode = 0
      } else {
        throw new Error(`arc annotate --device demo did not run as expected (exit ${code}): ${failure}`)
      }
    } catch (error) {
      console.error(error)
      process.exitCode = 1
    } finally {
      rmSync(stateDir, {recursive: true, force: true})
    }
  })
  await execute({dir, args: ['annotate', '--device', 'demo', '-o', path.join(stateDir, 'demo.jpg')]})
  annotated = true
  process.exit(0)
}

const runs = [['--version'], ['screen-state', '--device', 'demo'], ['tap', '1', '1']]
const unavailable = exitCodeFor('DEVICE_UNAVAILABLE')
let done = 0

// oclif ends a failed command with process.exit, as the tap must (nothing listens): the cache is written on the way
// out, after every command ran as expected, and this script's status says whether both held.
process.on('exit', (code) => {
  try {
    if (done !== runs.length - 1 || code !== unavailable) {
      throw new Error(
        `the commands did not run as expected (${done} of ${runs.length - 1} before the tap; exit ${code}, not ${unavailable})`
      )
    }
    writeCodeCache()
    process.exitCode = 0
  } catch (error) {
    console.error(error)
    process.exitCode = 1
  } finally {
    rmSync(stateDir, {recursive: true, force: true})
  }
})
for (const args of runs) {
  await execute({dir, args})
  done++
}
