import {execFile} from 'node:child_process'
import {createHash} from 'node:crypto'
import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import path from 'node:path'
import {promisify} from 'node:util'

import {bundleStaleness} from '../../../scripts/bundle-core.js'
import {ROOT} from './paths.js'

/**
 * Which entry spawned arc processes run, decided once per test run (mochaGlobalSetup below, loaded by .mocharc.cjs
 * and by `npm run test:files`) and handed to every worker through the environment:
 * - `dist`: `bin/run.js` on the built `dist`, proven to hold the sources as they are now. It starts in about half
 *   the CPU time of bin/dev.js, which loads the TypeScript compiler (oclif reads tsconfig.json with it) and tsx.
 * - anything else (unset, `source`): `bin/dev.js`, the sources through tsx, as before.
 */
export const CLI_ENTRY_VAR = 'ARC_TEST_CLI_ENTRY'

/** node arguments that run arc with `args`: bin/run.js when the setup proved dist current, else bin/dev.js. */
export function arcNodeArgs(args: string[]): string[] {
  return process.env[CLI_ENTRY_VAR] === 'dist'
    ? [path.join(ROOT, 'bin', 'run.js'), ...args]
    : ['--conditions=arc-source', path.join(ROOT, 'bin', 'dev.js'), ...args]
}

/**
 * Folders built by tsconfig.build.json: each has src/ compiled to dist/ and its tsbuildinfo beside them, and a
 * tsconfig.json (packages/test-support has neither: tsconfig.test.json type-checks it, nothing builds it).
 */
function projects(): string[] {
  const nested = ['packages', 'plugins'].flatMap((group) =>
    readdirSync(path.join(ROOT, group), {withFileTypes: true})
      .filter((d) => d.isDirectory())
      .map((d) => path.join(ROOT, group, d.name))
  )
  return [ROOT, ...nested].filter(
    (dir) => existsSync(path.join(dir, 'src')) && existsSync(path.join(dir, 'tsconfig.json'))
  )
}

function sources(dir: string): string[] {
  return readdirSync(dir, {recursive: true, withFileTypes: true})
    .filter((d) => d.isFile() && d.name.endsWith('.ts') && !d.name.endsWith('.d.ts'))
    .map((d) => path.join(d.parentPath, d.name))
}

/**
 * Why dist does not hold the current sources, or undefined when it does. tsc -b decides "up to date" from file
 * times, so a source replaced by one with an older time (cp -p, tar, rsync -t) or a deleted output escapes it;
 * this check does not: each project's tsbuildinfo must record, for every source file, the sha256 of its content
 * now (tsc records exactly that as the file's `version`), every source must have its .js in dist, and the core's
 * bundle must have been made from the files as they are now (the sha256 of each, in its inputs.json).
 */
export function distStaleness(): string | undefined {
  for (const project of projects()) {
    const rel = path.relative(ROOT, project) || '.'
    const infoPath = path.join(project, 'tsconfig.tsbuildinfo')
    let recorded: Map<string, string>
    try {
      const info = JSON.parse(readFileSync(infoPath, 'utf8')) as {
        fileNames: string[]
        fileInfos: Array<string | {version: string}>
      }
      recorded = new Map(
        info.fileNames.map((name, i) => {
          const entry = info.fileInfos[i]
          return [path.resolve(project, name), typeof entry === 'string' ? entry : entry?.version] as [string, string]
        })
      )
    } catch (error) {
      return `${rel}: no readable tsconfig.tsbuildinfo (${(error as Error).message})`
    }
    for (const file of sources(path.join(project, 'src'))) {
      const name = path.relative(ROOT, file)
      const version = recorded.get(file)
      if (!version) return `${name} is not in the last build`
      if (!/^[0-9a-f]{64}$/.test(version)) return `${rel}/tsconfig.tsbuildinfo records no sha256 for ${name}`
      if (createHash('sha256').update(readFileSync(file, 'utf8')).digest('hex') !== version)
        return `${name} changed since the last build`
      const out = path.join(project, 'dist', path.relative(path.join(project, 'src'), file)).replace(/\.ts$/, '.js')
      if (!existsSync(out)) return `${path.relative(ROOT, out)} is missing`
    }
  }
  return bundleStaleness()
}

async function build(force: boolean): Promise<string | undefined> {
  const tsc = path.join(path.dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc')
  try {
    await promisify(execFile)(process.execPath, [tsc, '-b', 'tsconfig.build.json', ...(force ? ['--force'] : [])], {
      cwd: ROOT,
      env: {...process.env, NODE_OPTIONS: ''},
      maxBuffer: 64 * 1024 * 1024,
    })
  } catch (error) {
    const {stdout, message} = error as {stdout?: string; message: string}
    return `tsc -b failed: ${(stdout || message).trim().split('\n').slice(0, 3).join(' | ')}`
  }
  // What `npm run build` does after tsc: the core's bundle (what the built packages import as @arc-cli/core), then
  // the manifests bin/run.js reads each command's flags and help from.
  try {
    await promisify(execFile)(process.execPath, [path.join(ROOT, 'scripts', 'bundle-core.js')], {
      cwd: ROOT,
      env: {...process.env, NODE_OPTIONS: ''},
    })
  } catch (error) {
    const {stdout, stderr, message} = error as {stdout?: string; stderr?: string; message: string}
    return `bundling the core failed: ${(stderr || stdout || message).trim().split('\n').slice(0, 3).join(' | ')}`
  }
  try {
    await promisify(execFile)(process.execPath, [path.join(ROOT, 'scripts', 'write-manifests.js')], {
      cwd: ROOT,
      env: {...process.env, NODE_OPTIONS: '', NODE_ENV: 'production'},
    })
    return undefined
  } catch (error) {
    const {stdout, message} = error as {stdout?: string; message: string}
    return `writing the oclif manifests failed: ${(stdout || message).trim().split('\n').slice(0, 3).join(' | ')}`
  }
}

/**
 * Brings dist, the core's bundle and the oclif manifests up to date as `npm run build` does (a second or two when
 * nothing changed, as on CI after `npm install` built them), checks it, rebuilds everything once if tsc's
 * incremental check was fooled, and chooses the entry.
 */
export async function mochaGlobalSetup(): Promise<void> {
  let why = (await build(false)) ?? distStaleness()
  if (why && !why.startsWith('tsc -b failed')) why = (await build(true)) ?? distStaleness()
  process.env[CLI_ENTRY_VAR] = why ? 'source' : 'dist'
  if (why) console.error(`spawned arc runs from source (bin/dev.js, slower): ${why}`)
}
