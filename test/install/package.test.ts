import {execFile, spawn} from 'node:child_process'
import {mkdir, mkdtemp, readdir, readFile, rm, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {promisify} from 'node:util'

import {expect} from 'chai'

import {CLI_ENTRY_VAR} from '@arc-cli/test-support/built-cli'
import {ROOT} from '@arc-cli/test-support/paths'
import {runProgram} from '@arc-cli/test-support/run-arc'

const run = promisify(execFile)

/** A program as a new user's shell runs it: the environment given and nothing else, HOME as its folder. */
const exec = (file: string, args: string[], env: NodeJS.ProcessEnv, input = '') =>
  runProgram(file, args, {cwd: env.HOME as string, env, input})

const MCP_SESSION =
  [
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {protocolVersion: '2025-06-18', capabilities: {}, clientInfo: {name: 't', version: '1'}},
    },
    {jsonrpc: '2.0', method: 'notifications/initialized'},
    {jsonrpc: '2.0', id: 2, method: 'tools/list'},
    // An annotation over MCP is made on a worker thread (image-worker.js), a file no command line run loads.
    {jsonrpc: '2.0', id: 3, method: 'tools/call', params: {name: 'android_annotate_screenshot', arguments: {}}},
  ]
    .map((m) => JSON.stringify(m))
    .join('\n') + '\n'

/**
 * The package a user installs: `npm pack` at the root, installed into an empty prefix with only the registry's
 * packages fetched (the workspace packages travel inside the tarball as bundled dependencies). Needs the npm
 * registry, or npm's cache holding the same versions `npm ci` installed; that is all arc's set-up needs too.
 */
describe('the packed arc-cli tarball, installed on its own', function () {
  this.timeout(240_000)
  let work: string
  let env: NodeJS.ProcessEnv
  let arc: string

  before(async function () {
    // The tarball is made from dist as it is; the test setup proved dist current (else it says why and runs
    // bin/dev.js, and a tarball of a stale dist would test nothing).
    if (process.env[CLI_ENTRY_VAR] !== 'dist') this.skip()
    work = await mkdtemp(path.join(os.tmpdir(), 'arc-pack-'))
    const home = path.join(work, 'home')
    await mkdir(home)
    env = {
      PATH: process.env.PATH,
      HOME: home,
      NO_COLOR: '1',
      // npm's cache is the user's (it holds what npm ci fetched), and so are npm's settings and the way out to the
      // registry: ~/.npmrc (a registry, a CA file), the CA and proxy variables. A user's npm has them; the HOME above
      // hid them, and behind a TLS-inspecting proxy the install retried for minutes and failed. Nothing else leaks in.
      npm_config_cache: process.env.npm_config_cache ?? path.join(os.homedir(), '.npm'),
      npm_config_userconfig: process.env.npm_config_userconfig ?? path.join(os.homedir(), '.npmrc'),
      ...Object.fromEntries(
        Object.entries(process.env).filter(([name]) => /^(NODE_EXTRA_CA_CERTS|HTTPS?_PROXY|NO_PROXY)$/i.test(name))
      ),
      TMPDIR: work,
    }
    // --ignore-scripts: `prepare` would rebuild dist, which the setup has already proven current.
    await run('npm', ['pack', '--ignore-scripts', '--pack-destination', work], {
      cwd: ROOT,
      env: {...process.env, ...env, HOME: os.homedir()},
    })
    const [tarball] = (await readdir(work)).filter((f) => f.endsWith('.tgz'))
    expect(tarball, 'npm pack wrote no tarball').to.be.a('string')
    const prefix = path.join(work, 'prefix')
    const installed = await exec(
      'npm',
      [
        'install',
        '--global',
        '--prefix',
        prefix,
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        path.join(work, tarball!),
      ],
      env
    )
    expect(installed.code, installed.stderr).to.equal(0)
    arc = path.join(prefix, 'bin', 'arc')
  })

  after(async () => {
    if (work) await rm(work, {recursive: true, force: true})
  })

  it('holds the workspace packages inside it and nothing else of node_modules', async () => {
    const listing = await run('tar', [
      'tzf',
      path.join(
        work,
        (await readdir(work)).find((f) => f.endsWith('.tgz'))!
      ),
    ])
    const modules = new Set(
      listing.stdout
        .split('\n')
        .filter((line) => line.startsWith('package/node_modules/'))
        .map((line) => line.split('/').slice(2, 4).join('/'))
    )
    expect([...modules].sort()).to.deep.equal([
      '@arc-cli/core',
      '@arc-cli/emulator',
      '@arc-cli/plugin-annotate',
      '@arc-cli/plugin-mcp',
      '@arc-cli/plugin-screen-state',
    ])
  })

  it('ships a source map for the two bundles alone, without their sources, and no file names a map it lacks', async () => {
    // docs/install.md, "Source maps": tsc's maps (dist/**/*.js.map, *.d.ts.map) pointed at src/, which the package
    // does not hold, and were half its files; the bundles' maps turn a minified stack into TypeScript lines.
    const unpacked = path.join(work, 'unpacked')
    await mkdir(unpacked)
    const tarball = (await readdir(work)).find((f) => f.endsWith('.tgz'))!
    await run('tar', ['xzf', path.join(work, tarball), '-C', unpacked])
    const files = (await readdir(unpacked, {recursive: true, withFileTypes: true}))
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(unpacked, path.join(entry.parentPath, entry.name)))
    const maps = files.filter((f) => f.endsWith('.map')).sort()
    expect(maps).to.deep.equal([
      'package/node_modules/@arc-cli/core/dist/bundle/core.cjs.map',
      'package/node_modules/@arc-cli/plugin-annotate/dist/bundle/annotate.cjs.map',
    ])
    for (const map of maps) {
      expect(JSON.parse(await readFile(path.join(unpacked, map), 'utf8')), map).to.not.have.property('sourcesContent')
    }
    const named: string[] = []
    for (const file of files.filter((f) => /\.(c?js|d\.ts)$/.test(f))) {
      const comment = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(await readFile(path.join(unpacked, file), 'utf8'))
      if (comment) named.push(path.join(path.dirname(file), comment[1]!))
    }
    expect(named.sort()).to.deep.equal(maps)
  })

  it('runs arc screen-state -d demo', async () => {
    const out = await exec(arc, ['screen-state', '-d', 'demo'], env)
    expect(out.code, out.stderr).to.equal(0)
    expect(out.stdout).to.match(/^screen:1080x2400 /m)
  })

  it('runs arc annotate (the canvas binary came from the registry for this platform)', async () => {
    const out = await exec(arc, ['annotate', '-d', 'demo', '-o', path.join(env.HOME!, 'demo.png'), '--json'], env)
    expect(out.code, out.stderr).to.equal(0)
    const png = await readFile(path.join(env.HOME!, 'demo.png'))
    expect(png.subarray(1, 4).toString()).to.equal('PNG')
  })

  it('compiles the core and the annotate bundle with the code caches the build wrote', async () => {
    // npm stamps each file it extracts with the time it wrote it, and the tarball holds X.cache before X.cjs.
    const out = await exec(arc, ['annotate', '-d', 'demo', '-o', path.join(env.HOME!, 'cached.png')], {
      ...env,
      DEBUG: 'arc',
    })
    expect(out.code, out.stderr).to.equal(0)
    expect(out.stderr).to.include('arc: core bundle compiled (code cache: used)')
    expect(out.stderr).to.match(/arc: bundle \S*annotate\.cjs compiled \(code cache: used\)/)
  })

  it('serves MCP over stdio, and annotates there', async () => {
    const out = await exec(arc, ['mcp', 'serve', '--stdio', '--device', 'demo'], env, MCP_SESSION)
    expect(out.code, out.stderr).to.equal(0)
    const replies = out.stdout
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as {
            id: number
            result: {tools?: Array<{name: string}>; isError?: boolean; content?: Array<{type: string; text?: string}>}
          }
      )
    const tools = replies.find((r) => r.id === 2)?.result.tools ?? []
    expect(tools.map((t) => t.name)).to.include('android_get_screen_state')
    const annotated = replies.find((r) => r.id === 3)?.result
    expect(annotated?.isError, JSON.stringify(annotated?.content?.[0])).to.not.equal(true)
    expect(annotated?.content?.map((c) => c.type)).to.include('image')
  })

  it("a broken config's Try: lines name an example file this installation has", async () => {
    const folder = path.join(env.HOME!, 'broken-config')
    await mkdir(folder)
    await writeFile(path.join(folder, '.arcrc.json'), '{"adb": {"port": 99999}}')
    const out = await runProgram(arc, ['screen-state', '-d', 'demo'], {cwd: folder, env})
    expect(out.code, out.stderr).to.equal(3)
    const example = /[Ss]ee (\S*\.arcrc\.example)/.exec(out.stderr)?.[1]
    expect(example, out.stderr).to.be.a('string')
    expect(path.isAbsolute(example!), `${example} is not a path a user can open`).to.equal(true)
    expect(await readFile(example!, 'utf8')).to.match(/timeoutMs/)
  })

  it('runs arc emulate, and arc reads the virtual device through it', async () => {
    const child = spawn(arc, ['emulate', '--port', '0'], {env, cwd: env.HOME})
    try {
      const port = await new Promise<number>((resolve, reject) => {
        let out = ''
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString()
          const m = /listening on [\d.]+:(\d+)/.exec(out)
          if (m) resolve(Number(m[1]))
        })
        child.on('exit', (code) => reject(new Error(`arc emulate exited ${code}: ${out}`)))
      })
      // --helper required: the read goes through the on-device helper, so the dex the package ships is pushed from
      // where the installed core finds it (with `auto`, a missing dex would only fall back to plain ADB).
      const out = await exec(arc, ['screen-state', '--helper', 'required'], {
        ...env,
        ADB_SERVER_SOCKET: `tcp:127.0.0.1:${port}`,
      })
      expect(out.code, out.stderr).to.equal(0)
      expect(out.stdout).to.match(/^screen:\d+x\d+ /m)
    } finally {
      child.kill('SIGINT')
    }
  })

  it('runs through npx from the tarball, as an MCP client config starts it', async () => {
    const tarball = (await readdir(work)).find((f) => f.endsWith('.tgz'))!
    const out = await exec(
      'npx',
      ['--yes', '--prefer-offline', '--package', path.join(work, tarball), '--', 'arc', 'screen-state', '-d', 'demo'],
      env
    )
    expect(out.code, out.stderr).to.equal(0)
    expect(out.stdout).to.match(/^screen:1080x2400 /m)
  })
})
