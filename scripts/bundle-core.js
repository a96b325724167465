/**
 * `npm run build` runs this after tsc and before the manifests: it bundles @arc-cli/core's built dist/ and what it
 * imports (zod, chalk, cosmiconfig, adbkit and theirs) into packages/core/dist/bundle/, which is what the package
 * exports to the built CLI. Start-up is paid by every `arc tap` a script runs, and Node 20 spends it mostly finding,
 * reading and compiling modules one file at a time: the core alone is some 350 of them (docs/architecture.md,
 * "How commands load"). The bundle is a handful of files:
 * - `oclif.js`: oclif (the parts `src/oclif.ts` names), which bin/run.js starts: `arc --version` and `--help` load
 *   only this and its chunk;
 * - `index.js`: the core with zod and chalk, loaded by every command, and sharing oclif's chunk, so the commands
 *   extend the very oclif the CLI runs;
 * - chunks loaded on first use: the live ADB driver with adbkit (only when a command opens a device), cosmiconfig
 *   (only when a command reads the config).
 * Kept outside: the TypeScript compiler, ts-node and tsx (oclif asks for them only in development, cosmiconfig for
 * `.ts` configs, which arc refuses), and Yarn's pnpapi (oclif looks for it only under Yarn Plug'n'Play).
 * zod's translations of its own messages (64 languages) are left out: arc writes its messages itself from zod's
 * issue codes (describe-zod-issues.ts), zod's own English default is kept, and nothing in arc asks for another.
 *
 * `dist/bundle/inputs.json` records the sha256 of every file that went in, so test/support/built-cli.ts can tell
 * a bundle made from other sources (a bare `tsc -b` since) from a current one; `THIRD-PARTY-LICENSES.txt` holds
 * the bundled packages' license notices; source maps sit beside each file. `--clean` deletes the bundle.
 * Plain JavaScript: it runs before anything can transpile TypeScript.
 */
import {createHash} from 'node:crypto'
import {existsSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
export const CORE = path.join(ROOT, 'packages', 'core')
export const BUNDLE = path.join(CORE, 'dist', 'bundle')
export const INPUTS_FILE = path.join(BUNDLE, 'inputs.json')
export const LICENSES_FILE = path.join(BUNDLE, 'THIRD-PARTY-LICENSES.txt')

/** Resolves zod's `locales/index.js` (only its namespace re-exports import it) to an empty module. */
const withoutZodLocales = {
  name: 'arc-without-zod-locales',
  setup(build) {
    build.onResolve({filter: /^\.\.\/locales\/index\.js$/}, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core|mini)[\\/](external|index)\.js$/.test(args.importer) ? {path: 'zod-locales', namespace: 'arc-empty'} : undefined,
    )
    build.onLoad({filter: /.*/, namespace: 'arc-empty'}, () => ({contents: 'export {}', loader: 'js'}))
  },
}

export async function bundleCore() {
  const esbuild = await import('esbuild')
  rmSync(BUNDLE, {recursive: true, force: true})
  const result = await esbuild.build({
    entryPoints: {index: path.join(CORE, 'dist', 'index.js'), oclif: path.join(CORE, 'dist', 'oclif.js')},
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outdir: BUNDLE,
    // Input paths (metafile, comments, chunk names) relative to the repository, wherever the script runs from.
    absWorkingDir: ROOT,
    external: ['typescript', 'ts-node', 'tsx', 'pnpapi'],
    // Whitespace and syntax only: names stay, so a stack trace (DEBUG=arc*) still says which function failed.
    minifyWhitespace: true,
    minifySyntax: true,
    // A stack trace under `node --enable-source-maps` names the original file and line (docs/architecture.md).
    sourcemap: 'linked',
    // The bundled CommonJS packages (oclif, adbkit, cosmiconfig) call require() for Node's own modules, and oclif
    // reads __dirname (where ESM has none) for a few fallbacks: both are this file's own.
    banner: {
      js: [
        "import {createRequire as arcCreateRequire} from 'node:module';",
        "import {dirname as arcDirnameOf} from 'node:path';",
        "import {fileURLToPath as arcFileURLToPath} from 'node:url';",
        'const require=arcCreateRequire(import.meta.url);',
        'const arcFilename=arcFileURLToPath(import.meta.url);',
        'const arcDirname=arcDirnameOf(arcFilename);',
      ].join(''),
    },
    define: {__dirname: 'arcDirname', __filename: 'arcFilename'},
    plugins: [withoutZodLocales],
    metafile: true,
    logLevel: 'warning',
  })
  const inputs = {}
  for (const input of Object.keys(result.metafile.inputs).sort()) {
    if (input.includes(':')) continue // arc-empty:zod-locales
    const file = path.resolve(ROOT, input)
    inputs[path.relative(ROOT, file)] = createHash('sha256').update(readFileSync(file)).digest('hex')
  }
  writeFileSync(INPUTS_FILE, `${JSON.stringify({inputs}, null, 1)}\n`)
  writeFileSync(LICENSES_FILE, thirdPartyLicenses(Object.keys(inputs)))
  const bytes = Object.values(result.metafile.outputs).reduce((sum, o) => sum + o.bytes, 0)
  const files = Object.keys(result.metafile.outputs).length
  console.log(`wrote ${path.relative(process.cwd(), BUNDLE)}/ (${files} files, ${(bytes / 1024).toFixed(0)} KiB, from ${Object.keys(inputs).length} modules)`)
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
    const file = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(f))
    const text = file && existsSync(path.join(dir, file)) ? readFileSync(path.join(dir, file), 'utf8').trim() : '(no license file in the package)'
    return `${pjson.name} ${pjson.version} (${license})\n${'-'.repeat(60)}\n${text}\n`
  })
  return `Third-party code bundled into @arc-cli/core's dist/bundle (scripts/bundle-core.js), with each package's notice.\n\n${sections.join('\n')}`
}

/** Why the bundle does not hold the current inputs, or undefined when it does. */
export function bundleStaleness() {
  let recorded
  try {
    recorded = JSON.parse(readFileSync(INPUTS_FILE, 'utf8')).inputs
  } catch (error) {
    return `no readable ${path.relative(ROOT, INPUTS_FILE)} (${error.message})`
  }
  for (const [name, hash] of Object.entries(recorded)) {
    let now
    try {
      now = createHash('sha256').update(readFileSync(path.join(ROOT, name))).digest('hex')
    } catch {
      return `${name}, bundled into the core, is gone`
    }
    if (now !== hash) return `${name} changed since the core was bundled`
  }
  return undefined
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // No top-level await: test/support/built-cli.ts imports this module, and a loader may require() it.
  if (process.argv.includes('--clean')) rmSync(BUNDLE, {recursive: true, force: true})
  else
    bundleCore().catch((error) => {
      console.error(error)
      process.exitCode = 1
    })
}
