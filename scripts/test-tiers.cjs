// The suite's tiers, decided from what each test file imports (CommonJS: .mocharc.cjs require()s it).
// - fast: everything else: parsers, the screen model, element ids, tools run in process against a snapshot.
// - e2e: a file that starts something: a spawned arc or other program (child_process, runArc), the virtual device
//   (`arc emulate`, in process or spawned) or a server (MCP over HTTP). A file counts as e2e when it, or a test
//   helper it imports by a relative path, imports one of END_TO_END.
// - device: test/device/, run only by `npm run test:device` against the phone ARC_TEST_DEVICE names.
// No file is listed by hand: a new test lands in its tier by what it does.
const {existsSync, readdirSync, readFileSync} = require('node:fs')
const path = require('node:path')

const ROOT = path.resolve(__dirname, '..')

/** Folders holding test files (each package's own), relative to the root. */
function testRoots() {
  const nested = ['packages', 'plugins'].flatMap((group) =>
    readdirSync(path.join(ROOT, group), {withFileTypes: true})
      .filter((d) => d.isDirectory())
      .map((d) => `${group}/${d.name}/test`)
  )
  return ['test', ...nested].filter((dir) => existsSync(path.join(ROOT, dir)))
}

/** Every `*.test.ts` under the test folders, relative to the root, sorted. */
function testFiles() {
  return testRoots()
    .flatMap((dir) =>
      readdirSync(path.join(ROOT, dir), {recursive: true})
        .map(String)
        .filter((f) => f.endsWith('.test.ts'))
        .map((f) => path.posix.join(dir, f.split(path.sep).join('/')))
    )
    .sort()
}

/** Imports that start a process, the virtual device or a server. */
const END_TO_END = [
  /^node:child_process$/,
  /^node:net$/,
  /^node:http$/,
  /^@arc-cli\/emulator$/,
  /^@arc-cli\/test-support\/(run-arc|emulator-support)$/,
  /^@arc-cli\/plugin-mcp$/,
]

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s+(?!type\b)(?:[^'"`;]*?\sfrom\s+)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g

function startsSomething(file, seen = new Set()) {
  if (seen.has(file)) return false
  seen.add(file)
  let source
  try {
    source = readFileSync(file, 'utf8')
  } catch {
    return false
  }
  for (const match of source.matchAll(IMPORT)) {
    const spec = match[1] ?? match[2]
    if (END_TO_END.some((re) => re.test(spec))) return true
    if (spec.startsWith('.')) {
      const local = path.resolve(path.dirname(file), spec).replace(/\.js$/, '.ts')
      if (local.startsWith(ROOT) && !local.includes(`${path.sep}src${path.sep}`) && startsSomething(local, seen))
        return true
    }
  }
  return false
}

/** The test files of `tier` (fast, e2e, device, or all: fast and e2e), relative to the root. */
function tierFiles(tier) {
  const files = testFiles()
  const device = (f) => f.startsWith('test/device/')
  switch (tier) {
    case 'device':
      return files.filter(device)
    case 'fast':
      return files.filter((f) => !device(f) && !startsSomething(path.join(ROOT, f)))
    case 'e2e':
      return files.filter((f) => !device(f) && startsSomething(path.join(ROOT, f)))
    case 'all':
      return files.filter((f) => !device(f))
    default:
      throw new Error(`unknown test tier ${JSON.stringify(tier)}: fast, e2e, device or all`)
  }
}

module.exports = {tierFiles, TIERS: ['fast', 'e2e', 'device', 'all']}
