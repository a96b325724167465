import {spawnSync} from 'node:child_process'
import {chmod, chown, lchown, mkdtemp, mkdir, rm, stat, symlink, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {pathToFileURL} from 'node:url'

import {ConfigError, loadConfig, readConfigSection, z} from '@arc-cli/core'
import {expect} from 'chai'

import {RESOLVE_TRACE, resolutions} from '@arc-cli/test-support/module-trace'
import {ROOT} from '@arc-cli/test-support/paths'
import {runArc} from '@arc-cli/test-support/run-arc'

async function project(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'arc-config-'))
  await writeFile(path.join(dir, 'package.json'), files['package.json'] ?? '{"name":"p"}')
  for (const [name, body] of Object.entries(files)) {
    if (name === 'package.json') continue
    await mkdir(path.dirname(path.join(dir, name)), {recursive: true})
    await writeFile(path.join(dir, name), body)
  }
  return dir
}

async function expectConfigError(promise: Promise<unknown>, pattern: RegExp): Promise<void> {
  try {
    await promise
  } catch (error) {
    expect(error).to.be.instanceOf(ConfigError)
    expect((error as Error).message).to.match(pattern)
    return
  }
  expect.fail(`expected a ConfigError matching ${pattern}`)
}

describe('config', () => {
  const dirs: string[] = []
  after(async () => Promise.all(dirs.map((d) => rm(d, {recursive: true, force: true}))))
  const make = async (files: Record<string, string>) => {
    const dir = await project(files)
    dirs.push(dir)
    return dir
  }

  const variants: Record<string, string> = {
    '.arcrc': 'device: demo\nadb:\n  port: 5039\n',
    '.arcrc.json': '{"device": "demo", "adb": {"port": 5039}}',
    '.arcrc.yaml': 'device: demo\nadb: {port: 5039}\n',
    '.arcrc.yml': 'device: demo\nadb: {port: 5039}\n',
    '.arcrc.cjs': 'module.exports = {device: "demo", adb: {port: 5039}}',
    '.arcrc.mjs': 'export default {device: "demo", adb: {port: 5039}}',
    'arc.config.cjs': 'module.exports = {device: "demo", adb: {port: 5039}}',
    'arc.config.mjs': 'export default {device: "demo", adb: {port: 5039}}',
    'package.json': '{"name": "p", "arc": {"device": "demo", "adb": {"port": 5039}}}',
  }
  for (const [file, body] of Object.entries(variants)) {
    it(`reads ${file === 'package.json' ? 'package.json#arc' : file}`, async () => {
      const dir = await make({[file]: body})
      const {config, filepath} = await loadConfig(dir, {})
      expect(config).to.deep.equal({device: 'demo', adb: {port: 5039}})
      expect(filepath).to.equal(path.join(dir, file))
    })
  }

  it('finds the file from a subfolder up to the nearest package.json', async () => {
    const dir = await make({'.arcrc.json': '{"device": "demo"}', 'sub/deeper/x.txt': ''})
    expect((await loadConfig(path.join(dir, 'sub', 'deeper'), {})).config.device).to.equal('demo')
  })

  describe('a config file another user could have put there', () => {
    // The search goes up to the nearest package.json, and without one to `/`: a file planted in a shared folder
    // above the user's (/tmp) was read, and a JavaScript one run, by every other user's arc.
    const planted = (dir: string) => path.join(dir, 'shared')
    const marker = (dir: string) => path.join(dir, 'ran')
    /** A folder without a package.json of its own under `dir` (whose package.json ends the search above it). */
    const setUp = async (file: string, body: string) => {
      const dir = await make({'shared/work/x.txt': ''})
      await rm(path.join(dir, 'package.json'))
      await writeFile(path.join(planted(dir), file), body)
      return dir
    }
    const runs = (dir: string) =>
      `import {writeFileSync} from 'node:fs'; writeFileSync(${JSON.stringify(marker(dir))}, 'ran'); export default {device: 'planted'}\n`
    const exists = (file: string) =>
      stat(file).then(
        () => true,
        () => false
      )

    it('refuses one anyone may write, before reading or running it; ARC_CONFIG naming it is the user vouching', async () => {
      for (const [file, body] of [
        ['arc.config.mjs', ''],
        ['.arcrc.json', '{"mcp": {"host": "0.0.0.0", "token": "planted-token-123456"}}'],
        ['package.json', '{"name": "p", "arc": {"device": "planted"}}'],
      ] as const) {
        const dir = await setUp(file, body)
        const config = path.join(planted(dir), file)
        if (file === 'arc.config.mjs') await writeFile(config, runs(dir))
        await chmod(config, 0o666)
        await expectConfigError(
          loadConfig(path.join(planted(dir), 'work'), {}),
          new RegExp(
            `refusing config .*${file.replace('.', '\\.')}: anyone on this machine may change it \\(mode 666\\)`
          )
        )
        expect(await exists(marker(dir)), file).to.equal(false)
        expect(
          (await loadConfig(path.join(planted(dir), 'work'), {ARC_CONFIG: config})).config.device ?? 'planted'
        ).to.equal('planted')
      }
    })

    it("refuses another user's file (root's and, under sudo, the sudo user's are trusted)", async function () {
      // Only root can give a file to another user.
      if (process.getuid?.() !== 0) this.skip()
      const dir = await setUp('arc.config.mjs', '')
      const config = path.join(planted(dir), 'arc.config.mjs')
      await writeFile(config, runs(dir))
      await chown(config, 65534, 65534)
      await expectConfigError(
        loadConfig(path.join(planted(dir), 'work'), {}),
        /refusing config .*arc\.config\.mjs: it belongs to another user \(uid 65534\)/
      )
      expect(await exists(marker(dir))).to.equal(false)
      // Root running through sudo reads the files of the user sudo came from.
      expect((await loadConfig(path.join(planted(dir), 'work'), {SUDO_UID: '65534'})).config.device).to.equal('planted')
      await chown(config, 0, 0)
      await rm(marker(dir))
      expect((await loadConfig(path.join(planted(dir), 'work'), {})).config.device).to.equal('planted')
    })

    // The owner checks looked at the file a link leads to: another user's link to a file of root's passed, and its
    // maker could point it elsewhere between the check and the load (a JavaScript config is run by path).
    it("refuses a link another user made, whatever it leads to; the user's own link to their file is read", async function () {
      if (process.getuid?.() !== 0) this.skip()
      const dir = await setUp('x.txt', '')
      const target = path.join(dir, 'root-owned.json')
      await writeFile(target, '{"device": "planted"}')
      const link = path.join(planted(dir), '.arcrc.json')
      await symlink(target, link)
      await lchown(link, 65534, 65534)
      await expectConfigError(
        loadConfig(path.join(planted(dir), 'work'), {}),
        /refusing config .*\.arcrc\.json: it is a link made by another user \(uid 65534\)/
      )
      await lchown(link, 0, 0)
      expect((await loadConfig(path.join(planted(dir), 'work'), {})).config.device).to.equal('planted')
    })

    // Whoever may write in the folder may rename another file over the user's own after the check: a folder anyone
    // may write that is not sticky (/tmp is), or another user's folder, which its owner can make so.
    it('refuses a file in a folder anyone may write that is not sticky, or in a folder of another user', async function () {
      const dir = await setUp('.arcrc.json', '{"device": "planted"}')
      const work = path.join(planted(dir), 'work')
      await chmod(planted(dir), 0o777)
      await expectConfigError(
        loadConfig(work, {}),
        /refusing config .*\.arcrc\.json: anyone on this machine may put another file in its place: its folder .*shared is writable by anyone \(mode 777\) and not sticky/
      )
      await chmod(planted(dir), 0o1777)
      expect((await loadConfig(work, {})).config.device).to.equal('planted')
      if (process.getuid?.() !== 0) return
      await chmod(planted(dir), 0o755)
      await chown(planted(dir), 65534, 65534)
      await expectConfigError(
        loadConfig(work, {}),
        /refusing config .*\.arcrc\.json: its folder .*shared belongs to another user \(uid 65534\)/
      )
    })

    it('a package.json without an arc key is no config, whoever owns it', async function () {
      if (process.getuid?.() !== 0) this.skip()
      // A dependency named arc is not the `arc` key.
      const dir = await make({
        '.arcrc.json': '{"device": "demo"}',
        'sub/package.json': '{"name": "q", "dependencies": {"arc": "1.0.0"}}',
      })
      await chown(path.join(dir, 'sub', 'package.json'), 65534, 65534)
      await writeFile(path.join(dir, 'sub', '.arcrc.json'), '{"device": "mine"}')
      expect((await loadConfig(path.join(dir, 'sub'), {})).config.device).to.equal('mine')
    })
  })

  it('reads the file ARC_CONFIG names', async () => {
    const dir = await make({'ci.json': '{"adb": {"timeoutMs": 5000}}'})
    expect((await loadConfig(dir, {ARC_CONFIG: path.join(dir, 'ci.json')})).config).to.deep.equal({
      adb: {timeoutMs: 5000},
    })
  })

  it('gives an empty config when there is no file', async () => {
    const dir = await make({})
    expect(await loadConfig(dir, {})).to.deep.equal({config: {}})
  })

  it('names the file and the key for an unknown key', async () => {
    const dir = await make({'.arcrc.json': '{"devise": "demo"}'})
    await expectConfigError(loadConfig(dir, {}), /invalid config in .*\.arcrc\.json: .*devise/)
  })

  it('names the key and what is allowed for a value of the wrong type or range', async () => {
    const dir = await make({'.arcrc.json': '{"adb": {"port": 70000}}'})
    await expectConfigError(loadConfig(dir, {}), /adb\.port: .*(65535|too big)/i)
  })

  it('names the file for a file that does not parse', async () => {
    const dir = await make({'.arcrc.json': '{"device": '})
    await expectConfigError(loadConfig(dir, {}), /cannot read config: JSON Error in .*\.arcrc\.json/)
  })

  it('a JSON file that does not parse is said once, with its line and column, and no colour codes written out', async () => {
    const dir = await make({'.arcrc.json': '{\n  "device": "demo",\n  bad\n}'})
    // On a terminal (FORCE_COLOR stands in for one) the JSON parser cosmiconfig uses highlights its code frame: those
    // escapes were written out as text (\x1b[31m…), and the frame came twice.
    const run = await runArc(['config'], {cwd: dir, env: {FORCE_COLOR: '1'}})
    expect(run.code, run.stderr).to.equal(3)
    expect(run.stderr).to.include(`cannot read config: JSON Error in ${path.join(dir, '.arcrc.json')}`)
    expect(run.stderr).to.match(/line 3 column 3/)
    expect(run.stderr).to.not.include('\\x1b')
    expect(run.stderr.split('JSON Error')).to.have.length(2)
  })

  it('writes out the control characters of the line a YAML parser quotes from a file that does not parse', async () => {
    const dir = await make({'.arcrc.yaml': 'device: "\u001b]0;PWNED\u0007\u001b[31mred"\nadb: [\n'})
    const error = await loadConfig(dir, {}).then(
      () => undefined,
      (e: unknown) => e
    )
    expect(error).to.be.instanceOf(ConfigError)
    const {message} = error as ConfigError
    expect(message).to.match(/cannot read config: /)
    expect(message).to.include('\\x1b]0;PWNED\\x07\\x1b[31mred')
    expect(message).to.not.match(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/)
  })

  for (const file of ['arc.config.ts', '.arcrc.ts']) {
    it(`refuses ${file} by name: arc does not read TypeScript configs`, async () => {
      const dir = await make({[file]: 'throw new Error("boom")\n'})
      await expectConfigError(
        loadConfig(dir, {}),
        new RegExp(`cannot read config .*${file.replace('.', '\\.')}: arc does not read TypeScript config files`)
      )
    })
  }

  it('refuses a TypeScript file named by ARC_CONFIG', async () => {
    const dir = await make({'ci.ts': 'export default {}\n'})
    await expectConfigError(
      loadConfig(dir, {ARC_CONFIG: path.join(dir, 'ci.ts')}),
      /arc does not read TypeScript config files/
    )
  })

  /**
   * loadConfig(DIR) run in a node of its own whose folder is `processDir` (cosmiconfig reads its meta config there),
   * through the sources as bin/dev.js runs them: what it gave, and whether cosmiconfig was loaded.
   */
  // By URL: the node runs in a folder of its own, where neither tsx nor the core resolves by name.
  const TSX = pathToFileURL(path.join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href
  const CORE_SOURCE = pathToFileURL(path.join(ROOT, 'packages', 'core', 'src', 'index.ts')).href
  const loadInProcess = (dir: string, processDir: string): {result: unknown; cosmiconfig: boolean} => {
    const run = spawnSync(
      process.execPath,
      [
        '--conditions=arc-source',
        '--import',
        TSX,
        '--import',
        RESOLVE_TRACE,
        '--input-type=module',
        '-e',
        `const {loadConfig} = await import(${JSON.stringify(CORE_SOURCE)}); console.log(JSON.stringify(await loadConfig(${JSON.stringify(dir)}, {})))`,
      ],
      {cwd: processDir, encoding: 'utf8', env: {...process.env, NODE_OPTIONS: '', ARC_CONFIG: ''}}
    )
    expect(run.status, run.stderr).to.equal(0)
    return {
      result: JSON.parse(run.stdout) as unknown,
      cosmiconfig: resolutions(run.stderr).some((r) => r.specifier === 'cosmiconfig'),
    }
  }

  it('does not load cosmiconfig when no place it searches holds anything', async function () {
    this.timeout(60_000)
    const dir = await make({'sub/x.txt': ''})
    expect(loadInProcess(path.join(dir, 'sub'), dir)).to.deep.equal({result: {config: {}}, cosmiconfig: false})
    // A package.json `arc` key, even null, is cosmiconfig's to read (null: no config).
    const withKey = await make({'package.json': '{"name": "p", "arc": null}'})
    expect(loadInProcess(withKey, withKey)).to.deep.equal({result: {config: {}}, cosmiconfig: true})
  })

  it("still reads what cosmiconfig's meta config in the process's folder adds", async function () {
    this.timeout(60_000)
    // cosmiconfig reads .config/config.json#cosmiconfig in a folder without package.json: it adds a search place.
    const meta = await mkdtemp(path.join(tmpdir(), 'arc-config-meta-'))
    dirs.push(meta)
    await mkdir(path.join(meta, '.config'))
    await writeFile(path.join(meta, '.config', 'config.json'), '{"cosmiconfig": {"searchPlaces": ["arc-here.json"]}}')
    await writeFile(path.join(meta, 'arc-here.json'), '{"device": "demo"}')
    expect(loadInProcess(meta, meta)).to.deep.equal({
      result: {config: {device: 'demo'}, filepath: path.join(meta, 'arc-here.json')},
      cosmiconfig: true,
    })
  })

  it('a config place whose stat fails otherwise than "not there" (a symlink loop) is an error, not "no config"', async () => {
    const dir = await make({'package.json': '{"name": "p"}'})
    await symlink('.arcrc', path.join(dir, '.arcrc'))
    await expectConfigError(loadConfig(dir, {}), /ELOOP/)
  })

  it('validates a plugin-owned section with the key path as written', () => {
    const schema = z.object({style: z.enum(['default', 'som'])}).strict()
    expect(() => readConfigSection('annotate', {style: 'neon'}, schema, '/x/.arcrc')).to.throw(
      ConfigError,
      /in \/x\/\.arcrc: annotate\.style/
    )
  })
})

describe('files config section', () => {
  it('fills the defaults, takes a location list, and names bad keys', async () => {
    const {filesSettings} = await import('@arc-cli/core')
    expect(filesSettings(undefined).locations.map((l) => [l.id, l.path, l.allowWrite, l.allowDelete])).to.deep.equal([
      ['downloads', '/sdcard/Download', true, false],
      ['documents', '/sdcard/Documents', true, false],
      ['tmp', '/data/local/tmp', true, true],
    ])
    const dir = await project({
      '.arcrc.json': JSON.stringify({files: {locations: [{id: 'logs', path: '/sdcard/Logs'}], maxBytes: 1000}}),
    })
    try {
      const {config} = await loadConfig(dir, {})
      const settings = filesSettings(config.files)
      expect(settings.locations).to.deep.equal([
        {id: 'logs', path: '/sdcard/Logs', description: '', allowWrite: false, allowDelete: false},
      ])
      expect([settings.maxBytes, settings.download.allowHttp, settings.download.timeoutMs]).to.deep.equal([
        1000,
        false,
        60000,
      ])
    } finally {
      await rm(dir, {recursive: true, force: true})
    }
    for (const [files, pattern] of [
      [{locations: [{id: 'a', path: 'relative'}]}, /files\.locations\.0\.path/],
      [{locations: [{id: 'a', path: '/x/../y'}]}, /files\.locations\.0\.path/],
      [
        {
          locations: [
            {id: 'a', path: '/x'},
            {id: 'a', path: '/y'},
          ],
        },
        /location ids must be unique/,
      ],
      [{download: {allowHttp: 'yes'}}, /files\.download\.allowHttp/],
    ] as const) {
      const bad = await project({'.arcrc.json': JSON.stringify({files})})
      try {
        await expectConfigError(loadConfig(bad, {}), pattern)
      } finally {
        await rm(bad, {recursive: true, force: true})
      }
    }
  })
})

describe('.arcrc.example', () => {
  it('is a valid config: every key it documents loads and validates, the annotate section and its preset too', async () => {
    const {resolveAnnotateOptions} = await import('@arc-cli/plugin-annotate')
    const file = path.join(ROOT, '.arcrc.example')
    const {config, filepath} = await loadConfig(ROOT, {ARC_CONFIG: file})
    expect(filepath).to.equal(file)
    expect(config).to.include({device: 'demo'})
    expect(config.adb).to.deep.equal({host: '127.0.0.1', port: 5037, timeoutMs: 20000})
    expect(config.elements).to.deep.equal({wait: 10_000})
    expect(config.mcp).to.deep.equal({
      host: '127.0.0.1',
      port: 7777,
      allowedOrigins: ['http://localhost:6274'],
      maxBodyBytes: 16777216,
      detail: 'full',
    })
    expect(config.apps).to.deep.equal({apkFolder: './apks'})
    const options = resolveAnnotateOptions({config, configFile: filepath}, {style: 'review'})
    expect(options.style.name).to.equal('review')
    expect(options).to.include({format: 'jpeg', quality: 80, maxSize: 700})
  })
})
