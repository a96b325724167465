/**
 * `npm run build` runs this after tsc and before the manifests: it bundles @arc-cli/core's built dist/ and what it
 * imports (oclif, zod, chalk, cosmiconfig, adbkit and theirs) into packages/core/dist/bundle/, which is what the
 * package exports to the built CLI. Start-up is paid by every `arc tap` a script runs, and Node 20 spends it mostly
 * finding, reading and compiling modules one file at a time: oclif and the core were some 500 of them
 * (docs/architecture.md, "How commands load"). The bundle is:
 * - `core.cjs`: everything, one CommonJS file. The parts only some commands need (the live ADB driver with
 *   adbkit, cosmiconfig) are imported with `import()` in the sources, so they run on first use, not at start-up;
 * - ASCII throughout (scripts/bundle-ascii.js), so the loader reads it as Latin-1, the quicker decoding;
 * - `core.cjs.cache`: V8's code cache for it, written by scripts/write-code-cache.js, so most of its compiling is
 *   done once, here, instead of on every run (packages/core/src/loader/load-bundle.ts loads the two);
 * - `index.js` and `oclif.js`: the package's ES module entries (`@arc-cli/core`, `@arc-cli/core/oclif`), which
 *   re-export the bundle's names. bin/run.js starts oclif from `oclif.js`, and every command extends that one copy.
 * Kept outside: the TypeScript compiler, ts-node and tsx (oclif asks for them only in development, cosmiconfig for
 * `.ts` configs, which arc refuses), and Yarn's pnpapi (oclif looks for it only under Yarn Plug'n'Play).
 * zod's translations of its own messages (64 languages) are left out: arc writes its messages itself from zod's
 * issue codes (describe-zod-issues.ts), zod's own English default is kept, and nothing in arc asks for another.
 *
 * `dist/bundle/inputs.json` records the sha256 of every file that went in, so packages/test-support/src/built-cli.ts can tell
 * a bundle made from other sources (a bare `tsc -b` since) from a current one; `THIRD-PARTY-LICENSES.txt` holds
 * the bundled packages' license notices; `core.cjs.map` is the source map. `--clean` deletes the bundle.
 * Then scripts/bundle-plugins.js bundles the annotate plugin's image code the same way (it needs this bundle to
 * write its code cache), and bundleStaleness covers its inputs too; `--clean` deletes it as well.
 * Plain JavaScript: it runs before anything can transpile TypeScript.
 */
import {spawnSync} from 'node:child_process'
import {existsSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

import {asciiRegExps} from './bundle-ascii.js'
import {checkNoDynamicImport, dynamicImportsViaLoader} from './bundle-dynamic-imports.js'
import {inputsStaleness, writeInputs} from './bundle-inputs.js'
import {bundlePlugins, cleanPluginBundles, pluginBundleStaleness} from './bundle-plugins.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
export const CORE = path.join(ROOT, 'packages', 'core')
export const BUNDLE = path.join(CORE, 'dist', 'bundle')
export const BUNDLE_FILE = path.join(BUNDLE, 'core.cjs')
export const INPUTS_FILE = path.join(BUNDLE, 'inputs.json')
export const LICENSES_FILE = path.join(BUNDLE, 'THIRD-PARTY-LICENSES.txt')

/** The bundle's entry module's name (it is written on stdin, not to disk). */
const ENTRY = 'core-entry.js'

/** Packages left outside the bundle (see above). */
const EXTERNAL = ['typescript', 'ts-node', 'tsx', 'pnpapi']

/** What `@arc-cli/core/oclif` exports (packages/core/src/oclif.ts). */
const OCLIF_NAMES = ['Args', 'Command', 'Flags', 'execute']

// The bundle's own names for what CommonJS lacks: its `import.meta.url`, and `import()` through the loader
// (module.arcImport) or, when Node's own require loads it (source maps on), a real one.
const BANNER =
  'var arcImportMetaUrl=require("node:url").pathToFileURL(__filename).href,__arcImport=module.arcImport??((s,o)=>import(s,o));'

/** Resolves zod's `locales/index.js` (only its namespace re-exports import it) to an empty module. */
const withoutZodLocales = {
  name: 'arc-without-zod-locales',
  setup(build) {
    build.onResolve({filter: /^\.\.\/locales\/index\.js$/}, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core|mini)[\\/](external|index)\.js$/.test(args.importer)
        ? {path: 'zod-locales', namespace: 'arc-empty'}
        : undefined
    )
    build.onLoad({filter: /.*/, namespace: 'arc-empty'}, () => ({contents: 'export {}', loader: 'js'}))
  },
}

/**
 * oclif sorts each plugin's commands with `localeCompare` when it loads them, at every start-up, and the first
 * localeCompare of a process builds ICU's collator (7-10 ms of CPU). The bundle's oclif sorts with
 * compareCommandIds (packages/core/src/cli/command-id-order.ts), which answers as localeCompare does, without ICU
 * for ids of the characters commands are named with. The build fails if oclif's line is not there as expected, and
 * if the patch was never applied (oclif's plugin.js moved, or was not bundled): a silent miss would bring the
 * collator back into every start-up.
 */
const OCLIF_PLUGIN = /[\\/]@oclif[\\/]core[\\/]lib[\\/]config[\\/]plugin\.js$/
const OCLIF_SORT = '.sort((a, b) => a.id.localeCompare(b.id));'
export const commandOrderWithoutIcu = {
  name: 'arc-command-order-without-icu',
  setup(build) {
    let patched = 0
    build.onStart(() => {
      patched = 0
    })
    build.onEnd((result) => {
      if (result.errors.length > 0 || patched > 0) return undefined
      return {
        errors: [
          {
            text: `oclif's command sort was not patched: no module matched ${OCLIF_PLUGIN} (did @oclif/core move lib/config/plugin.js, or is it no longer bundled?)`,
          },
        ],
      }
    })
    build.onLoad({filter: OCLIF_PLUGIN}, async (args) => {
      patched++
      const code = readFileSync(args.path, 'utf8')
      if (code.split(OCLIF_SORT).length !== 2)
        throw new Error(`${args.path}: expected one \`${OCLIF_SORT}\` to replace (oclif changed?)`)
      const order = JSON.stringify(path.join(CORE, 'dist', 'cli', 'command-id-order.js'))
      return {
        // At the end, so "use strict" stays first; the sort runs long after the module did.
        contents: `${code.replace(OCLIF_SORT, '.sort((a, b) => arcCommandIdOrder.compareCommandIds(a.id, b.id));')}\nvar arcCommandIdOrder = require(${order});\n`,
        loader: 'js',
        resolveDir: path.dirname(args.path),
      }
    })
  },
}

/**
 * Modules every start-up runs (oclif's, and two of its dependencies), each of which requires at its top something
 * only a rare path uses. Loading a Node built-in module compiles it and the internal modules it needs, at every
 * start-up (Node keeps no code cache for those outside its snapshot): readline with its interface (oclif reads stdin
 * with it, only for a flag given as `-`), perf_hooks (oclif's performance markers, only under OCLIF_PERFORMANCE or
 * DEBUG), child_process with dgram (Windows shell detection; wsl-utils and powershell-utils, which oclif imports to
 * tell WSL, run `wslpath` and PowerShell with it). Each is loaded where it is first used instead. And oclif's plugin
 * loader matches each dependency against each `oclif.plugins` entry with minimatch, compiling a pattern per pair (36
 * at every start-up): a plain package name is compared as a string (packages/core/src/cli/plugin-patterns.ts, which
 * gives minimatch's answers), and minimatch loads only for a pattern that is a glob.
 * Each edit must find its text exactly once and each file must be patched, else the build fails: a silent miss
 * would bring the cost back into every command (test/cli/manifest.test.ts checks what a start-up loads).
 */
const LAZY = (name, module, members) =>
  `var arcLazy_${name};const ${name} = {${members
    .map((m) => `get ${m}() { return (arcLazy_${name} ??= require(${JSON.stringify(module)})).${m} }`)
    .join(', ')}};`
const STARTUP_PATCHES = [
  {
    file: /[\\/]@oclif[\\/]core[\\/]lib[\\/]parser[\\/]parse\.js$/,
    edits: [
      [
        'const node_readline_1 = require("node:readline");',
        LAZY('node_readline_1', 'node:readline', ['createInterface']),
      ],
    ],
  },
  {
    file: /[\\/]@oclif[\\/]core[\\/]lib[\\/]performance\.js$/,
    edits: [
      [
        'const node_perf_hooks_1 = require("node:perf_hooks");',
        LAZY('node_perf_hooks_1', 'node:perf_hooks', ['performance', 'PerformanceObserver']),
      ],
    ],
  },
  {
    file: /[\\/]@oclif[\\/]core[\\/]lib[\\/]util[\\/]os\.js$/,
    edits: [
      [
        'const node_child_process_1 = require("node:child_process");',
        LAZY('node_child_process_1', 'node:child_process', ['execSync']),
      ],
    ],
  },
  ...['wsl-utils', 'powershell-utils'].map((name) => ({
    file: new RegExp(`[\\\\/]node_modules[\\\\/]${name}[\\\\/]index\\.js$`),
    edits: [
      ["import childProcess from 'node:child_process';", ''],
      [
        'const execFile = promisify(childProcess.execFile);',
        "const execFile = (...args) => promisify(process.getBuiltinModule('node:child_process').execFile)(...args);",
      ],
    ],
  })),
  {
    file: /[\\/]@oclif[\\/]core[\\/]lib[\\/]config[\\/]plugin-loader\.js$/,
    edits: [
      ['const minimatch_1 = require("minimatch");', ''],
      [
        'patterns.some((w) => (0, minimatch_1.minimatch)(p, w))',
        'patterns.some((w) => arcPluginPatterns.matchesPluginPattern(p, w, () => require("minimatch").minimatch))',
      ],
    ],
    // Required at the end, so "use strict" stays first; it runs long before the loader's first call.
    append: () =>
      `var arcPluginPatterns = require(${JSON.stringify(path.join(CORE, 'dist', 'cli', 'plugin-patterns.js'))});`,
  },
]

export const lazyStartupRequires = {
  name: 'arc-lazy-startup-requires',
  setup(build) {
    const patched = new Set()
    build.onStart(() => {
      patched.clear()
    })
    build.onEnd((result) => {
      if (result.errors.length > 0) return undefined
      const missed = STARTUP_PATCHES.filter((patch) => !patched.has(patch))
      if (missed.length === 0) return undefined
      return {
        errors: missed.map((patch) => ({
          text: `the start-up was not patched: no module matched ${patch.file} (did @oclif/core or its dependency move it, or is it no longer bundled?)`,
        })),
      }
    })
    for (const patch of STARTUP_PATCHES) {
      build.onLoad({filter: patch.file}, async (args) => {
        patched.add(patch)
        let code = readFileSync(args.path, 'utf8')
        for (const [from, to] of patch.edits) {
          if (code.split(from).length !== 2)
            throw new Error(`${args.path}: expected one \`${from}\` to replace (the package changed?)`)
          code = code.replace(from, () => to)
        }
        return {
          contents: patch.append ? `${code}\n${patch.append()}\n` : code,
          loader: 'js',
          resolveDir: path.dirname(args.path),
        }
      })
    }
  },
}

export async function bundleCore() {
  const esbuild = await import('esbuild')
  rmSync(BUNDLE, {recursive: true, force: true})
  const result = await esbuild.build({
    // One entry for the two the package exports: the core, and oclif's `execute` (the rest of oclif.ts is in it).
    stdin: {
      contents: "export * from './index.js'\nexport {execute} from './oclif.js'\n",
      resolveDir: path.join(CORE, 'dist'),
      sourcefile: ENTRY,
    },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    outfile: BUNDLE_FILE,
    // Input paths (metafile, comments) relative to the repository, wherever the script runs from.
    absWorkingDir: ROOT,
    external: EXTERNAL,
    // Whitespace and syntax only: names stay, so a stack trace (DEBUG=arc*) still says which function failed.
    minifyWhitespace: true,
    minifySyntax: true,
    // A stack trace under `node --enable-source-maps` names the original file and line (docs/architecture.md). The
    // map holds the positions and the files' names only, not their text (sourcesContent): a clone has the files, and
    // the package ships the map for its stack traces alone (docs/install.md, "Source maps").
    sourcemap: 'linked',
    sourcesContent: false,
    banner: {js: BANNER},
    define: {'import.meta.url': 'arcImportMetaUrl'},
    plugins: [withoutZodLocales, commandOrderWithoutIcu, lazyStartupRequires, dynamicImportsViaLoader(EXTERNAL)],
    metafile: true,
    logLevel: 'warning',
  })
  // ASCII throughout, so the loader may read it as Latin-1 (scripts/bundle-ascii.js).
  const written = readFileSync(BUNDLE_FILE, 'utf8')
  const ascii = asciiRegExps(
    written,
    JSON.parse(readFileSync(`${BUNDLE_FILE}.map`, 'utf8')),
    path.relative(ROOT, BUNDLE_FILE)
  )
  if (ascii.code !== written) {
    writeFileSync(BUNDLE_FILE, ascii.code)
    writeFileSync(`${BUNDLE_FILE}.map`, JSON.stringify(ascii.map))
  }
  const code = ascii.code
  checkNoDynamicImport(code, path.relative(ROOT, BUNDLE_FILE), code.indexOf(BANNER) + BANNER.length)
  // The ES module entries name every export of the bundle (its CommonJS exports are not visible to `import`).
  const names = Object.keys(createRequire(import.meta.url)(BUNDLE_FILE)).filter(
    (name) => name !== 'default' && name !== '__esModule'
  )
  const missing = OCLIF_NAMES.filter((name) => !names.includes(name))
  if (missing.length > 0) throw new Error(`the bundle does not export ${missing.join(', ')}`)
  const entry = (exported) =>
    `// Written by scripts/bundle-core.js: the bundle's exports as an ES module.\nimport {loadCore} from '../loader/load-bundle.js'\n\nexport const {${exported.join(', ')}} = loadCore()\n`
  writeFileSync(path.join(BUNDLE, 'index.js'), entry(names.filter((name) => name !== 'execute')))
  writeFileSync(path.join(BUNDLE, 'oclif.js'), entry(OCLIF_NAMES))
  const inputs = Object.keys(result.metafile.inputs)
    .filter((input) => !input.includes(':')) // arc-empty:zod-locales
    .map((input) => path.resolve(ROOT, input))
    .filter((file) => file !== path.join(CORE, 'dist', ENTRY)) // the stdin entry above
    .map((file) => path.relative(ROOT, file))
  writeInputs(INPUTS_FILE, inputs)
  writeFileSync(LICENSES_FILE, thirdPartyLicenses(inputs))
  // Without NODE_OPTIONS: V8 refuses a cache made under other V8 flags (a CI's --max-old-space-size would make every
  // later run compile from scratch), and --enable-source-maps would load the bundle without vm.Script.
  const cache = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'write-code-cache.js')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
    env: {...process.env, NODE_OPTIONS: ''},
  })
  if (cache.status !== 0)
    throw new Error(`scripts/write-code-cache.js failed (exit ${cache.status}):\n${cache.stderr}${cache.stdout}`)
  const kib = (file) => (readFileSync(file).length / 1024).toFixed(0)
  // On stderr: `npm pack --json` (which runs the build as `prepare`) must print its JSON alone on stdout.
  console.error(
    `wrote ${path.relative(process.cwd(), BUNDLE)}/ (core.cjs ${kib(BUNDLE_FILE)} KiB from ${Object.keys(inputs).length} modules, code cache ${kib(`${BUNDLE_FILE}.cache`)} KiB)`
  )
  // The plugins' bundles load the core through its loader, and their code caches are written by running it.
  await bundlePlugins()
}

/**
 * The notices the bundled packages ship (most keep them in a LICENSE file, not in their code, so esbuild's legal
 * comments miss them): one section per package, with its name, version, declared license and LICENSE text.
 */
function thirdPartyLicenses(inputs) {
  const roots = new Set()
  for (const input of inputs) {
    const m = /^(.*node_modules\/(@[^/]+\/)?[^/]+)\//.exec(input.split(path.sep).join('/'))
    if (m) roots.add(m[1])
  }
  const sections = [...roots].sort().map((root) => {
    const dir = path.join(ROOT, root)
    const pjson = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'))
    const license = typeof pjson.license === 'string' ? pjson.license : JSON.stringify(pjson.license ?? 'unstated')
    // LICENSE, LICENSE.md, COPYING.txt, LICENSE-MIT.txt (emoji-regex)…
    const file = readdirSync(dir).find((f) => /^(licen[cs]e|copying)([-.][\w.-]*)?$/i.test(f))
    const text =
      file && existsSync(path.join(dir, file))
        ? readFileSync(path.join(dir, file), 'utf8').trim()
        : '(no license file in the package)'
    return `${pjson.name} ${pjson.version} (${license})\n${'-'.repeat(60)}\n${text}\n`
  })
  return `Third-party code bundled into @arc-cli/core's dist/bundle/core.cjs (scripts/bundle-core.js), with each package's notice.\n\n${sections.join('\n')}`
}

/** Why the bundle, or a plugin's (bundle-plugins.js), does not hold the current inputs, or undefined when they do. */
export function bundleStaleness() {
  return inputsStaleness(INPUTS_FILE, 'the core') ?? pluginBundleStaleness()
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // No top-level await: packages/test-support/src/built-cli.ts imports this module, and a loader may require() it.
  if (process.argv.includes('--clean')) {
    rmSync(BUNDLE, {recursive: true, force: true})
    cleanPluginBundles()
  } else
    bundleCore().catch((error) => {
      console.error(error)
      process.exitCode = 1
    })
}
