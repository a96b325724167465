/**
 * Run by scripts/bundle-core.js after the core's bundle (so by `npm run build`): bundles the code of a plugin command
 * that runs once per process, cold, into one CommonJS file with V8's code cache beside it, loaded through the core's
 * loader (`loadBundle`, packages/core/src/loader/load-bundle.ts). Node 20 has no compile cache for ES modules: a
 * one-shot `arc annotate` found, read and compiled some 30 modules one by one, then interpreted them; the bundle
 * compiles from the cache instead (about 8% of the process's CPU and wall time, measured as whole processes on
 * bili-home-feed).
 *
 * - `plugins/annotate/dist/bundle/annotate.cjs`: dist/annotate-bundle.js, that is the annotate tool and, started on
 *   first use inside the bundle, its image code (annotate-device.js), with the plugin modules they import. The
 *   canvas library and @arc-cli/core stay outside: the loader hands the bundle the core every ES module gets, and
 *   the canvas loads from node_modules when the image code starts, as before. plugins/annotate/src/load-bundled.ts
 *   loads it (commands/annotate.ts, the tool's handler), or the ES modules when running from the sources or when
 *   there is no bundle.
 * - Each module's `import.meta.url` is its own file's URL in dist/, as when Node loads the module itself (the
 *   label font and the image worker are found next to the module that names them).
 * - `annotate.cjs.cache`: written by scripts/write-code-cache.js after it annotated the bundled demo screen through
 *   the built CLI. Where the canvas binary for this platform is not installed the annotation cannot run: the
 *   bundle is written without a cache (it then compiles as the modules would), and the build says so.
 * - `inputs.json`: the sha256 of every file that went in, for bundleStaleness (bundle-core.js), as the core's.
 * The bundle may not call `import()` (code compiled by vm.Script cannot): the build fails if it does.
 * Plain JavaScript, like bundle-core.js.
 */
import {spawnSync} from 'node:child_process'
import {readFileSync, rmSync} from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

import * as acorn from 'acorn'

import {inputsStaleness, writeInputs} from './bundle-inputs.js'
import {checkNoDynamicImport} from './bundle-dynamic-imports.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

/** The plugin bundles: the plugin's folder, the dist module bundled, the bundle's file name in dist/bundle/. */
export const PLUGIN_BUNDLES = [
  {plugin: path.join(ROOT, 'plugins', 'annotate'), entry: 'annotate-bundle.js', file: 'annotate.cjs'},
]

const bundleDir = (bundle) => path.join(bundle.plugin, 'dist', 'bundle')
export const bundleFile = (bundle) => path.join(bundleDir(bundle), bundle.file)
const inputsFile = (bundle) => path.join(bundleDir(bundle), 'inputs.json')

/** Kept outside every plugin bundle: the core (the loader passes its own) and the native canvas library. */
const EXTERNAL = ['@arc-cli/core', '@arc-cli/core/*', '@napi-rs/canvas']

/**
 * `__arcModuleUrl(p)`: the file URL of `p`, a path relative to the bundle's folder. At the end, as a function
 * declaration (hoisted): esbuild's "use strict" must stay the first statement, or the modules would run sloppy.
 */
const FOOTER =
  'function __arcModuleUrl(p){return require("node:url").pathToFileURL(require("node:path").join(__dirname,p)).href}'

/** Replaces each `import.meta.url` in a dist module with its own file's URL, reckoned from the bundle's folder. */
function moduleUrls(dir) {
  return {
    name: 'arc-module-urls',
    setup(build) {
      build.onLoad({filter: /\.js$/, namespace: 'file'}, (args) => {
        const code = readFileSync(args.path, 'utf8')
        if (!code.includes('import.meta')) return undefined
        const metas = []
        const visit = (node) => {
          if (Array.isArray(node)) return node.forEach(visit)
          if (node === null || typeof node !== 'object' || typeof node.type !== 'string') return
          if (node.type === 'MetaProperty' && node.meta.name === 'import') metas.push(node)
          for (const key of Object.keys(node)) if (key !== 'type' && key !== 'start' && key !== 'end') visit(node[key])
        }
        visit(acorn.parse(code, {ecmaVersion: 'latest', sourceType: 'module'}))
        let out = ''
        let at = 0
        const url = `__arcModuleUrl(${JSON.stringify(path.relative(dir, args.path).split(path.sep).join('/'))})`
        for (const node of metas.sort((a, b) => a.start - b.start)) {
          if (!/^\s*\.\s*url\b/.test(code.slice(node.end)))
            throw new Error(`${args.path}: import.meta other than import.meta.url cannot be bundled`)
          const end = node.end + /^\s*\.\s*url/.exec(code.slice(node.end))[0].length
          out += code.slice(at, node.start) + url
          at = end
        }
        return {contents: out + code.slice(at), loader: 'js', resolveDir: path.dirname(args.path)}
      })
    },
  }
}

export async function bundlePlugins() {
  const esbuild = await import('esbuild')
  for (const bundle of PLUGIN_BUNDLES) {
    const dir = bundleDir(bundle)
    rmSync(dir, {recursive: true, force: true})
    const result = await esbuild.build({
      entryPoints: [path.join(bundle.plugin, 'dist', bundle.entry)],
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      outfile: bundleFile(bundle),
      absWorkingDir: ROOT,
      external: EXTERNAL,
      // As the core's: names stay, so a stack trace still says which function failed.
      minifyWhitespace: true,
      minifySyntax: true,
      sourcemap: 'linked',
      sourcesContent: false,
      // ASCII, so the loader reads it as Latin-1 (esbuild escapes every non-ASCII character but in regular
      // expressions; the loader reads a bundle that is not ASCII as UTF-8, only slower).
      charset: 'ascii',
      footer: {js: FOOTER},
      plugins: [moduleUrls(dir)],
      metafile: true,
      logLevel: 'warning',
    })
    const code = readFileSync(bundleFile(bundle), 'utf8')
    checkNoDynamicImport(code, path.relative(ROOT, bundleFile(bundle)), 0)
    writeInputs(inputsFile(bundle), Object.keys(result.metafile.inputs))
  }
  // Without NODE_OPTIONS, as the core's cache (bundle-core.js).
  const cache = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'write-code-cache.js'), 'annotate'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
    env: {...process.env, NODE_OPTIONS: ''},
  })
  if (cache.status !== 0)
    throw new Error(
      `scripts/write-code-cache.js annotate failed (exit ${cache.status}):\n${cache.stderr}${cache.stdout}`
    )
  if (cache.stdout.trim()) console.log(cache.stdout.trim())
}

/** Why a plugin bundle does not hold the current inputs, or undefined when each does. */
export function pluginBundleStaleness() {
  for (const bundle of PLUGIN_BUNDLES) {
    const stale = inputsStaleness(inputsFile(bundle), path.relative(ROOT, bundleFile(bundle)))
    if (stale) return stale
  }
  return undefined
}

/** Deletes the plugin bundles (`npm run clean`). */
export function cleanPluginBundles() {
  for (const bundle of PLUGIN_BUNDLES) rmSync(bundleDir(bundle), {recursive: true, force: true})
}
