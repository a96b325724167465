/**
 * Run by scripts/bundle-core.js in a process of its own, after the bundle is written: writes
 * `packages/core/dist/bundle/core.cjs.cache`, V8's code cache for the bundle (packages/core/src/loader/load-bundle.ts).
 * V8 puts in the cache the functions compiled so far, so this first runs what most commands run: `arc --version`
 * (oclif's start), a screen read of the bundled demo snapshot (the core's tool path, the screen parser and
 * formatter), and a tap against a port where no adb server listens (the ADB driver's start and its error path).
 * Nothing touches a device or the user's files: the per-device state goes to a temporary folder, removed after.
 * The cache only makes start-up faster; what it holds never changes what a command does.
 */
import {mkdtempSync, rmSync} from 'node:fs'
import {createServer} from 'node:net'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const stateDir = mkdtempSync(path.join(os.tmpdir(), 'arc-code-cache-'))
process.env.ARC_CACHE_DIR = stateDir
// A port that was free a moment ago: the tap finds no adb server there at once.
const closedPort = await new Promise((resolve, reject) => {
  const server = createServer().listen(0, '127.0.0.1', () => {
    const {port} = server.address()
    server.close(() => resolve(port))
  })
  server.on('error', reject)
})
process.env.ADB_SERVER_SOCKET = `tcp:127.0.0.1:${closedPort}`
delete process.env.ANDROID_SERIAL

const {writeCodeCache} = await import(pathToFileURL(path.join(ROOT, 'packages', 'core', 'dist', 'loader', 'load-bundle.js')).href)
const {execute} = await import(pathToFileURL(path.join(ROOT, 'packages', 'core', 'dist', 'bundle', 'oclif.js')).href)

// oclif ends a failed command with process.exit (the tap fails: nothing listens): the cache is written on the way
// out, and this script's status says only whether that worked.
process.on('exit', () => {
  try {
    writeCodeCache()
    process.exitCode = 0
  } catch (error) {
    console.error(error)
    process.exitCode = 1
  } finally {
    rmSync(stateDir, {recursive: true, force: true})
  }
})
const dir = pathToFileURL(path.join(ROOT, 'bin', 'run.js')).href
for (const args of [['--version'], ['screen-state', '--device', 'demo'], ['tap', '1', '1']]) {
  await execute({dir, args})
}
