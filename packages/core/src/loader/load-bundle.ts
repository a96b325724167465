/**
 * Loads the built core (`dist/bundle/core.cjs`: oclif, zod, the core and its lazily started parts, one CommonJS
 * file made by scripts/bundle-core.js) for the ESM entries beside it (`index.js`, `oclif.js`). Not part of the
 * bundle: the bundle is what it loads.
 *
 * Start-up is paid by every `arc tap` a script runs, and most of it is V8 compiling JavaScript. Node 20 has no
 * compile cache for modules, so this loader keeps one itself: `core.cjs.cache`, V8's code cache for the bundle,
 * written by the build (scripts/write-code-cache.js) after a few commands ran, so it holds the functions they
 * compiled. Compiling with it skips most of that work. V8 refuses a cache from another V8 version or other V8
 * flags (`rejected`), but of the source it checks only the length: a cache made for other text of the same length
 * would run the OLD code. So the cache file starts with the SHA-256 of the exact bundle bytes it was made from
 * (`CACHE_HEADER` then the digest), and the loader offers V8 no cache whose digest is not that of the bytes it is
 * compiling (`stale`: the bundle was rebuilt or edited since), nor one it cannot read (`unreadable`): either way
 * the bundle compiles as usual, only slower. Content, not file times: npm stamps each file it extracts with the
 * time it wrote it, and packs `core.cjs.cache` before `core.cjs`, so an installed cache is always the older file.
 * Hashing the 1.3 MB core with node's sha256 costs about 0.8-1.1 ms (sha1 barely less, md5 twice as much), against
 * the tens of ms the cache saves; a build id checked in O(1) would let a same-length edit of the body through.
 * With `--enable-source-maps` the bundle is required the usual way (Node reads its source map only then), without
 * the cache. `DEBUG=arc*` prints which it was.
 * A plugin's bundle (scripts/bundle-plugins.js: the annotate command's code) loads the same way, through
 * `loadBundle` (`@arc-cli/core/loader`), with a code cache of its own.
 */
import {isAscii} from 'node:buffer'
import {createHash} from 'node:crypto'
import {existsSync, readFileSync, writeFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import vm from 'node:vm'

export const BUNDLE_FILE = fileURLToPath(new URL('../bundle/core.cjs', import.meta.url))
export const CODE_CACHE_FILE = `${BUNDLE_FILE}.cache`

/**
 * What a code cache file starts with (32 bytes; a multiple of 8, so V8's data after the header stays aligned as
 * V8 wants it), then the SHA-256 of the bundle bytes it was made from (32 bytes), then V8's cached data.
 */
export const CACHE_HEADER = Buffer.from('arc code cache, sha256 of bundle', 'latin1')
const DIGEST_LENGTH = 32

/** How the bundle was compiled: with the code cache, or why not. */
export type CodeCacheState = 'used' | 'rejected' | 'stale' | 'absent' | 'unreadable' | 'source maps'

interface Loaded {
  exports: Record<string, unknown>
  state: CodeCacheState
  script?: vm.Script
  /** The SHA-256 of the bytes compiled: what a cache written from `script` is for. */
  digest?: Buffer
}

/** Every bundle this process loaded, by file: each is compiled and run once. */
const loaded = new Map<string, Loaded>()

/** The bundle's exports, loaded on the first call. */
export function loadCore(): Record<string, unknown> {
  return loadBundle(BUNDLE_FILE)
}

/** How this process compiled the bundle (undefined before `loadCore`). */
export function codeCacheState(): CodeCacheState | undefined {
  return loaded.get(BUNDLE_FILE)?.state
}

/**
 * The exports of a CommonJS bundle built beside another package's dist (a plugin's, by scripts/bundle-plugins.js),
 * compiled as the core's is, with the code cache beside it (`FILE.cache`) when there is a current one, and loaded
 * once per process. Its `require('@arc-cli/core')` is this core, the very exports `@arc-cli/core` gives every ES
 * module (no second copy); anything else it requires resolves from the bundle's folder.
 */
export function loadBundle(file: string): Record<string, unknown> {
  let bundle = loaded.get(file)
  if (!bundle) {
    bundle = load(file)
    loaded.set(file, bundle)
  }
  return bundle.exports
}

/** How this process compiled the bundle `file` (undefined before it was loaded). */
export function bundleCacheState(file: string): CodeCacheState | undefined {
  return loaded.get(file)?.state
}

/** Writes V8's code cache for a bundle as compiled so far in this process (the build calls it at exit). */
export function writeCodeCache(bundle = BUNDLE_FILE, file = `${bundle}.cache`): void {
  const entry = loaded.get(bundle)
  if (!entry?.script || !entry.digest)
    throw new Error(
      `${bundle} was not compiled through vm.Script (${entry?.state ?? 'not loaded'}): no code cache to write`
    )
  // For the bytes this process compiled, not the file as it is now (a build may have rewritten it meanwhile).
  writeFileSync(file, Buffer.concat([CACHE_HEADER, entry.digest, entry.script.createCachedData()]))
}

/** This module's exports, for a bundle's `require('@arc-cli/core/loader')`. */
const loaderExports = {
  BUNDLE_FILE,
  CODE_CACHE_FILE,
  CACHE_HEADER,
  loadCore,
  codeCacheState,
  loadBundle,
  bundleCacheState,
  writeCodeCache,
}

/**
 * What a bundle other than the core gets for `require`: the core itself for `@arc-cli/core`, this loader for
 * `@arc-cli/core/loader` (the very objects the ES modules import, never a second copy).
 */
function requireFor(file: string): NodeJS.Require {
  const plain = createRequire(file)
  if (file === BUNDLE_FILE) return plain
  const required = ((id: string) =>
    id === '@arc-cli/core' ? loadCore() : id === '@arc-cli/core/loader' ? loaderExports : plain(id)) as NodeJS.Require
  return Object.assign(required, {
    resolve: plain.resolve,
    cache: plain.cache,
    main: plain.main,
    extensions: plain.extensions,
  })
}

function load(file: string): Loaded {
  let result: Loaded
  if (process.sourceMapsEnabled) {
    result = {exports: requireFor(file)(file) as Record<string, unknown>, state: 'source maps'}
  } else {
    const bytes = readFileSync(file)
    const {cachedData, state, digest = sha256(bytes)} = readCodeCache(file, bytes)
    // The build writes the bundle in ASCII (scripts/bundle-ascii.js), where Latin-1 reads the same text as UTF-8 in
    // half the time (about 2 ms of every command); a bundle edited since is read as UTF-8.
    const source = bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8')
    // Node's own CommonJS wrapper; the bundle's first line stays line 1 in stack traces.
    const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {\n${source}\n})`, {
      filename: file,
      lineOffset: -1,
      cachedData,
    })
    // `__arcImport` in the bundle (scripts/bundle-dynamic-imports.js). Its specifiers are absolute file URLs or
    // package names, so resolving them from here is resolving them from the bundle.
    const arcImport = (specifier: string, options?: ImportCallOptions) => import(specifier, options)
    const module = {exports: {} as Record<string, unknown>, arcImport}
    const wrapper = script.runInThisContext() as (...args: unknown[]) => void
    wrapper.call(module.exports, module.exports, requireFor(file), module, file, path.dirname(file))
    result = {
      exports: module.exports,
      state: cachedData === undefined ? state : script.cachedDataRejected ? 'rejected' : 'used',
      script,
      digest,
    }
  }
  if (/(^|,)\s*arc/.test(process.env.DEBUG ?? ''))
    process.stderr.write(
      `arc: ${file === BUNDLE_FILE ? 'core bundle' : `bundle ${file}`} compiled (code cache: ${result.state})\n`
    )
  return result
}

function sha256(bytes: Buffer): Buffer {
  return createHash('sha256').update(bytes).digest()
}

/**
 * The code cache's V8 data, unless it is missing, unreadable, or made for other bytes than `bytes` (a bundle
 * rebuilt or edited since, or a cache file from before the header). With the digest of `bytes` when it computed it.
 */
function readCodeCache(file: string, bytes: Buffer): {cachedData?: Buffer; state: CodeCacheState; digest?: Buffer} {
  const cacheFile = `${file}.cache`
  if (!existsSync(cacheFile)) return {state: 'absent'}
  let cache: Buffer
  try {
    cache = readFileSync(cacheFile)
  } catch {
    // A cache is only ever a shortcut: whatever keeps it from being read (a folder in its place, its permissions).
    return {state: 'unreadable'}
  }
  const start = CACHE_HEADER.length
  const end = start + DIGEST_LENGTH
  if (cache.length <= end || !cache.subarray(0, start).equals(CACHE_HEADER)) return {state: 'stale'}
  const digest = sha256(bytes)
  if (!cache.subarray(start, end).equals(digest)) return {state: 'stale', digest}
  return {cachedData: cache.subarray(end), state: 'used', digest}
}
