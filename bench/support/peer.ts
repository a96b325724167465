/**
 * Peers the benchmarks compare arc with, installed on demand into a folder of their own, never as dependencies of
 * arc: a peer's own dependencies (mobile-mcp's pull platform binaries the lock file cannot hold) would otherwise
 * break `npm ci` for every user of arc. The folder is under node_modules/.cache, so `npm ci` clears it with the rest.
 */
import {spawnSync} from 'node:child_process'
import {existsSync, mkdirSync} from 'node:fs'
import {createRequire} from 'node:module'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/**
 * A `require` that resolves from `name@version`'s install folder, installing it there first when absent; or a
 * string saying why it could not be installed (the benchmark then skips that column and prints the reason).
 */
export function peerRequire(name: string, version: string): NodeJS.Require | string {
  const dir = path.join(ROOT, 'node_modules', '.cache', 'arc-bench-peers', `${name.replace('/', '+')}@${version}`)
  const manifest = path.join(dir, 'node_modules', ...name.split('/'), 'package.json')
  if (!existsSync(manifest)) {
    mkdirSync(dir, {recursive: true})
    // Progress, not a figure: on stderr, so `npm run bench -- docs` (which keeps stdout) leaves it out of the docs.
    console.error(`installing ${name}@${version} for the comparison into ${path.relative(ROOT, dir)}`)
    const npm = spawnSync(
      'npm',
      ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', '--no-package-lock', `${name}@${version}`],
      {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      }
    )
    if (npm.status !== 0 || !existsSync(manifest)) {
      return `npm install ${name}@${version} failed (exit ${npm.status}): ${(npm.stderr || npm.stdout).trim().split('\n').slice(-3).join(' ')}`
    }
  }
  return createRequire(manifest)
}
