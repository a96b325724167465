import {mkdtemp, mkdir, rm, writeFile, copyFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'

import {buildScreenModel, EXIT_CODES, SnapshotDriver} from '@arc-cli/core'
import {formatScreenState} from '@arc-cli/plugin-screen-state'
import {expect} from 'chai'

import {fixturePath, fixturesAvailable, ROOT} from '@arc-cli/test-support/paths'
import {runArc} from '@arc-cli/test-support/run-arc'

const exitOf = (code: keyof typeof EXIT_CODES) => EXIT_CODES[code].exit

describe('arc screen-state (spawned)', () => {
  let tmp: string
  before(async () => {
    tmp = await mkdtemp(path.join(tmpdir(), 'arc-cli-'))
  })
  after(async () => rm(tmp, {recursive: true, force: true}))

  it('prints the demo screen', async () => {
    const {code, stdout, stderr} = await runArc(['screen-state', '--device', 'demo'])
    expect(stderr).to.equal('')
    expect(code).to.equal(0)
    const lines = stdout.trimEnd().split('\n')
    expect(lines[0]).to.equal('note:structural-only nodes are omitted from the tree')
    expect(lines[4]).to.equal('screen:1080x2400 density:420 orientation:portrait')
    expect(stdout).to.include(
      '--- window:3 type:APPLICATION pkg:dev.arc.demo.groceries title:- activity:.ListActivity layer:0 focused:true ---'
    )
    expect(stdout).to.match(
      /\tEditText\tAdd an item\t-\tdev\.arc\.demo\.groceries:id\/new_item\t42,231,780,357\ton,clk,lclk,foc,edt,ena,fcs,hint\n/
    )
    // The ninth row, laid out under the list's edge, is not visible to the user, so not in the dump, as on a phone
    // (packages/emulator/src/demo-app/demo-xml.ts): every row shown is on.
    expect(stdout).to.match(/\tTextView\tGreek yoghurt\t.*\ton,ena\n/)
    expect(stdout).to.not.include('Coffee beans')
  })

  it('takes the device from ANDROID_SERIAL', async () => {
    const {code, stdout} = await runArc(['screen-state'], {env: {ANDROID_SERIAL: 'demo'}})
    expect(code).to.equal(0)
    expect(stdout).to.include('pkg:dev.arc.demo.groceries')
  })

  it('prints the same TSV as the library for a real fixture', async function () {
    if (!fixturesAvailable) this.skip()
    const dir = fixturePath('wheres-my-train')
    const {code, stdout} = await runArc(['screen-state', '--device', dir])
    expect(code).to.equal(0)
    const expected = formatScreenState(buildScreenModel(await (await SnapshotDriver.open(dir)).captureScreen()))
    expect(stdout).to.equal(`${expected}\n`)
  })

  it('gives structured JSON with --json', async () => {
    const {code, stdout} = await runArc(['screen-state', '-d', 'demo', '--json'])
    expect(code).to.equal(0)
    const json = JSON.parse(stdout)
    expect(json.screen).to.include({width: 1080, height: 2400, density: 420, orientation: 'portrait'})
    expect(json.windows).to.have.length(4)
    expect(json.windows[3].elements[0]).to.have.keys('id', 'class', 'text', 'desc', 'res_id', 'bounds', 'flags')
  })

  it('reads a bare .xml file', async () => {
    const file = path.join(tmp, 'screen.xml')
    await copyFile(path.join(ROOT, 'packages/core/demo/window_dump.xml'), file)
    const {code, stdout} = await runArc(['screen-state', '-d', file])
    expect(code).to.equal(0)
    expect(stdout).to.include('screen:1080x2400 density:- orientation:portrait')
  })

  describe('bad inputs', () => {
    it('a path that does not exist: DEVICE_NOT_FOUND, naming it', async () => {
      const r = await runArc(['screen-state', '-d', './no/such/snapshot'])
      expect(r.code).to.equal(exitOf('DEVICE_NOT_FOUND'))
      expect(r.stderr).to.match(
        /^Error \[DEVICE_NOT_FOUND\]: no snapshot at \.\/no\/such\/snapshot: the path does not exist\nTry: /
      )
      expect(r.stdout).to.equal('')
    })

    it('a path with control characters: the error names it with them written out, whatever the message quotes', async () => {
      const r = await runArc(['screen-state', '-d', './no/\u001b]0;x\u0007\u009b2J'])
      expect(r.code).to.equal(exitOf('DEVICE_NOT_FOUND'))
      expect(r.stderr).to.include('no snapshot at ./no/\\x1b]0;x\\x07\\x9b2J: the path does not exist')
      expect(r.stderr).to.not.match(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/)
    })

    it('a folder without window_dump.xml: DEVICE_NOT_FOUND', async () => {
      const dir = path.join(tmp, 'empty-snapshot')
      await mkdir(dir, {recursive: true})
      const r = await runArc(['screen-state', '-d', dir])
      expect(r.code).to.equal(exitOf('DEVICE_NOT_FOUND'))
      expect(r.stderr).to.include('the folder has no window_dump.xml')
    })

    it('malformed XML: INVALID_DUMP, no partial output, no stack trace', async () => {
      const file = path.join(tmp, 'broken.xml')
      await writeFile(file, '<?xml version="1.0"?><hierarchy><node text="a" bounds="[0,0][1,1]">')
      const r = await runArc(['screen-state', '-d', file])
      expect(r.code).to.equal(exitOf('INVALID_DUMP'))
      expect(r.stderr).to.match(/UI dump .*broken\.xml is truncated/)
      expect(r.stderr).to.not.match(/\n\s+at /)
      expect(r.stdout).to.equal('')
    })

    it('an invalid meta.json: INVALID_INPUT naming the file and key', async () => {
      const dir = path.join(tmp, 'bad-meta')
      await mkdir(dir, {recursive: true})
      await copyFile(path.join(ROOT, 'packages/core/demo/window_dump.xml'), path.join(dir, 'window_dump.xml'))
      await writeFile(
        path.join(dir, 'meta.json'),
        '{"format": "arc-snapshot/1", "width": -5, "height": 10, "rotation": 0}'
      )
      const r = await runArc(['screen-state', '-d', dir])
      expect(r.code).to.equal(exitOf('INVALID_INPUT'))
      expect(r.stderr).to.match(/meta\.json is invalid: width/)
    })

    it('a bad config file: INVALID_CONFIG naming the file and key', async () => {
      const dir = path.join(tmp, 'bad-config')
      await mkdir(dir, {recursive: true})
      await writeFile(path.join(dir, 'package.json'), '{"name": "x"}')
      await writeFile(path.join(dir, '.arcrc.json'), '{"adb": {"port": "high"}}')
      const r = await runArc(['screen-state', '-d', 'demo'], {cwd: dir})
      expect(r.code).to.equal(exitOf('INVALID_CONFIG'))
      expect(r.stderr).to.match(/invalid config in .*\.arcrc\.json: adb\.port/)
    })

    it('an unknown flag: INVALID_INPUT (exit 2), also as JSON with --json', async () => {
      const r = await runArc(['screen-state', '--frobnicate'])
      expect(r.code).to.equal(2)
      expect(r.stderr).to.match(/Error \[INVALID_INPUT\]: Nonexistent flag: --frobnicate/)
      const j = await runArc(['screen-state', '-d', './missing', '--json'])
      expect(j.code).to.equal(exitOf('DEVICE_NOT_FOUND'))
      expect(JSON.parse(j.stdout).error).to.include({code: 'DEVICE_NOT_FOUND', exitCode: exitOf('DEVICE_NOT_FOUND')})
    })
  })
})

describe('arc config (spawned)', () => {
  it('prints the resolved config and where each part came from', async () => {
    const r = await runArc(['config'], {env: {ANDROID_SERIAL: 'emulator-5554', ADB_SERVER_SOCKET: 'tcp:10.0.2.2:5038'}})
    expect(r.code).to.equal(0)
    expect(r.stdout).to.match(/device\s+"emulator-5554"\s+\(env ANDROID_SERIAL\)/)
    expect(r.stdout).to.match(/adb\.host\s+"10\.0\.2\.2"\s+\(env ADB_SERVER_SOCKET\)/)
    expect(r.stdout).to.match(/adb\.port\s+5038\s+\(env ADB_SERVER_SOCKET\)/)
    expect(r.stdout).to.match(/adb\.timeoutMs\s+20000\s+\(default\)/)
  })

  it('never prints mcp.token: it says the token is set, and where, in the table and in --json', async () => {
    // `arc config` output goes into bug reports and CI logs; the token lets anyone who reaches the port drive the phone.
    const dir = await mkdtemp(path.join(tmpdir(), 'arc-config-token-'))
    const token = 'cfg-secret-token-0123456789abcde'
    try {
      await writeFile(path.join(dir, 'package.json'), '{"name": "x"}')
      await writeFile(path.join(dir, '.arcrc.json'), JSON.stringify({mcp: {token, port: 7000}}))
      const file = path.join(dir, '.arcrc.json')
      const table = await runArc(['config'], {cwd: dir})
      expect(table.code, table.stderr).to.equal(0)
      expect(table.stdout + table.stderr).to.not.include(token)
      expect(table.stdout).to.match(/^mcp\.token +"\(set, 32 characters, not shown\)"  \(/m)
      expect(table.stdout).to.match(/^mcp\.port +7000  \(/m)
      const json = await runArc(['config', '--json'], {cwd: dir})
      expect(json.stdout + json.stderr).to.not.include(token)
      const parsed = JSON.parse(json.stdout) as {config: {mcp: unknown}; resolved: Array<{key: string}>}
      expect(parsed.config.mcp).to.deep.equal({token: '(set, 32 characters, not shown)', port: 7000})
      expect(parsed.resolved.find((e) => e.key === 'mcp.token')).to.deep.equal({
        key: 'mcp.token',
        value: '(set, 32 characters, not shown)',
        source: file,
      })
    } finally {
      await rm(dir, {recursive: true, force: true})
    }
  })

  it('shows the helper mode in force and where it came from: ARC_HELPER over the config file, else auto', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'arc-config-helper-'))
    try {
      await writeFile(path.join(dir, 'package.json'), '{"name": "x"}')
      const bare = await runArc(['config'], {cwd: dir, env: {ARC_HELPER: ''}})
      expect(bare.stdout).to.match(/^adb\.helper +"auto"  \(default\)$/m)
      await writeFile(path.join(dir, '.arcrc.json'), '{"adb": {"helper": "required"}}')
      const fromFile = await runArc(['config'], {cwd: dir, env: {ARC_HELPER: ''}})
      expect(fromFile.stdout).to.match(
        new RegExp(
          `^adb\\.helper +"required"  \\(${path.join(dir, '.arcrc.json').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)$`,
          'm'
        )
      )
      const fromEnv = await runArc(['config'], {cwd: dir, env: {ARC_HELPER: 'off'}})
      expect(fromEnv.stdout).to.match(/^adb\.helper +"off"  \(env ARC_HELPER\)$/m)
    } finally {
      await rm(dir, {recursive: true, force: true})
    }
  })

  it('shows how long the helper keeps UiAutomation and where that came from: ARC_HELPER_HOLD_MS over the file, else 0', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'arc-config-hold-'))
    try {
      await writeFile(path.join(dir, 'package.json'), '{"name": "x"}')
      const bare = await runArc(['config'], {cwd: dir, env: {ARC_HELPER_HOLD_MS: ''}})
      expect(bare.stdout).to.match(/^adb\.helperHoldMs +0  \(default\)$/m)
      await writeFile(path.join(dir, '.arcrc.json'), '{"adb": {"helperHoldMs": 1500}}')
      const fromFile = await runArc(['config', '--json'], {cwd: dir, env: {ARC_HELPER_HOLD_MS: ''}})
      expect(
        (JSON.parse(fromFile.stdout) as {resolved: Array<{key: string}>}).resolved.filter(
          (e) => e.key === 'adb.helperHoldMs'
        )
      ).to.deep.equal([{key: 'adb.helperHoldMs', value: 1500, source: path.join(dir, '.arcrc.json')}])
      const fromEnv = await runArc(['config'], {cwd: dir, env: {ARC_HELPER_HOLD_MS: '40'}})
      expect(fromEnv.stdout).to.match(/^adb\.helperHoldMs +40  \(env ARC_HELPER_HOLD_MS\)$/m)
      await writeFile(path.join(dir, '.arcrc.json'), '{"adb": {"helperHoldMs": -1}}')
      const bad = await runArc(['config'], {cwd: dir, env: {ARC_HELPER_HOLD_MS: ''}})
      expect(bad.code).to.equal(3)
      expect(bad.stderr).to.include('helperHoldMs')
    } finally {
      await rm(dir, {recursive: true, force: true})
    }
  })

  it('resolves the adb server as device commands do: environment over the config file, tcp:PORT, IPv6, ANDROID_ADB_SERVER_PORT', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'arc-config-cmd-'))
    try {
      await writeFile(path.join(dir, 'package.json'), '{"name": "x"}')
      await writeFile(path.join(dir, '.arcrc.json'), '{"adb": {"host": "cfg-host", "port": 6100}}')
      const file = path.join(dir, '.arcrc.json')
      const fromFile = await runArc(['config'], {cwd: dir})
      // Keys are padded to the longest key shown, whatever sections the config has.
      const esc = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      const row = (key: string, value: string, source = file) =>
        new RegExp(`^${esc(key)} +${esc(value)}  ${esc(`(${source})`)}$`, 'm')
      expect(fromFile.stdout).to.match(row('adb.host', '"cfg-host"'))
      expect(fromFile.stdout).to.match(row('adb.port', '6100'))
      const portOnly = await runArc(['config'], {cwd: dir, env: {ADB_SERVER_SOCKET: 'tcp:5038'}})
      expect(portOnly.stdout).to.match(row('adb.host', '"cfg-host"'))
      expect(portOnly.stdout).to.match(row('adb.port', '5038', 'env ADB_SERVER_SOCKET'))
      const ipv6 = await runArc(['config'], {cwd: dir, env: {ADB_SERVER_SOCKET: 'tcp:[::1]:5039'}})
      expect(ipv6.stdout).to.match(row('adb.host', '"::1"', 'env ADB_SERVER_SOCKET'))
      const envPort = await runArc(['config'], {cwd: dir, env: {ANDROID_ADB_SERVER_PORT: '6000'}})
      expect(envPort.stdout).to.match(row('adb.port', '6000', 'env ANDROID_ADB_SERVER_PORT'))
    } finally {
      await rm(dir, {recursive: true, force: true})
    }
  })
})

describe('arc config, with control characters in the file', () => {
  it('writes control characters in names and values out instead of sending them to the terminal', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'arc-config-ctl-'))
    try {
      await writeFile(path.join(dir, 'package.json'), '{"name": "x"}')
      const hostile = 'red\u001b[31m\u009b2J\u0007'
      await writeFile(path.join(dir, '.arcrc.json'), JSON.stringify({annotate: {presets: {[hostile]: {quality: 60}}}}))
      // A preset name must be a plain name: the error names the key with its control characters written out.
      const refused = await runArc(['config'], {cwd: dir})
      expect(refused.code).to.equal(3)
      expect(refused.stderr).to.include('annotate.presets.red\\x1b[31m\\x9b2J\\x07')
      expect(refused.stderr + refused.stdout).to.not.match(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/)
      // A location's name is the user's own text; `arc config` shows it as JSON, with what JSON leaves raw (the C1
      // controls) written out too.
      await writeFile(
        path.join(dir, '.arcrc.json'),
        JSON.stringify({
          files: {
            locations: [
              {
                id: 'mine',
                path: '/sdcard/x',
                name: hostile,
                description: `d${hostile}`,
                allowWrite: false,
                allowDelete: false,
              },
            ],
          },
        })
      )
      const r = await runArc(['config'], {cwd: dir})
      expect(r.code, r.stderr).to.equal(0)
      expect(r.stdout + r.stderr).to.not.match(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/)
      expect(r.stdout).to.include('"name":"red\\u001b[31m\\x9b2J\\u0007"')
    } finally {
      await rm(dir, {recursive: true, force: true})
    }
  })
})

describe('arc --help', () => {
  it("lists the core commands and every plugin's", async () => {
    const r = await runArc(['--help'])
    expect(r.code).to.equal(0)
    for (const id of ['config', 'screen-state']) expect(r.stdout).to.match(new RegExp(`\\n  ${id}\\s`))
  })
})
