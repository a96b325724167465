import {mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs'
import path from 'node:path'

import {ArcError, MemoryDeviceState, runTool, shq, type RunDeps} from '@arc-cli/core'
import {expect} from 'chai'

import {tools} from '../../src/tools/index.js'
import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {toolContext} from '@arc-cli/test-support/tool-context'

const tool = (name: string) => tools.find((t) => t.name === name)!

describe('device strings: names the device prints back', function () {
  this.timeout(30_000)
  const h = useEmulator()

  async function run(name: string, input: Record<string, unknown>) {
    const driver = await h.driver()
    const ctx = toolContext(driver, {config: {}})
    try {
      return {result: await tool(name).handler(ctx, tool(name).input.parse(input))}
    } catch (e) {
      if (!(e instanceof ArcError)) throw e
      return {error: e}
    } finally {
      await driver.close()
    }
  }

  it('writes into a folder whose name ends in a carriage return, not into its namesake without one', async () => {
    const tmp = path.join(h.emu.device('emu-1').files.root, 'data/local/tmp')
    mkdirSync(path.join(tmp, 'cr'))
    mkdirSync(path.join(tmp, 'cr\r'))
    writeFileSync(path.join(tmp, 'cr/keep.txt'), 'precious')
    const r = await run('write_file', {location_id: 'tmp', path: 'cr\r/keep.txt', content: 'new'})
    expect(readFileSync(path.join(tmp, 'cr/keep.txt'), 'utf8')).to.equal('precious')
    if (r.error === undefined) expect(readFileSync(path.join(tmp, 'cr\r/keep.txt'), 'utf8')).to.equal('new')
    else expect(readdirSync(path.join(tmp, 'cr\r'))).to.deep.equal([])
  })
  it('on adbd before Android 7 (a PTY writes CR LF) too: the folder named cr\\r, not cr', async () => {
    // Not a failing-first case (the old parse read a PTY's CR LF right): it keeps the new parse honest there.
    const old = h.emu.device('emu-1')
    const sdk = old.properties.get('ro.build.version.sdk')
    old.properties.set('ro.build.version.sdk', '23')
    try {
      const tmp = path.join(old.files.root, 'data/local/tmp')
      mkdirSync(path.join(tmp, 'pty'))
      mkdirSync(path.join(tmp, 'pty\r'))
      writeFileSync(path.join(tmp, 'pty/keep.txt'), 'precious')
      const r = await run('write_file', {location_id: 'tmp', path: 'pty\r/keep.txt', content: 'new'})
      expect(r.error).to.equal(undefined)
      expect(readFileSync(path.join(tmp, 'pty/keep.txt'), 'utf8')).to.equal('precious')
      expect(readFileSync(path.join(tmp, 'pty\r/keep.txt'), 'utf8')).to.equal('new')
    } finally {
      if (sdk === undefined) old.properties.delete('ro.build.version.sdk')
      else old.properties.set('ro.build.version.sdk', sdk)
    }
  })

  it('where the device has no realpath, readlink -f is read as exactly (the folder cr\\r, not cr)', async () => {
    const tmp = path.join(h.emu.device('emu-1').files.root, 'data/local/tmp')
    mkdirSync(path.join(tmp, 'rl'))
    mkdirSync(path.join(tmp, 'rl\r'))
    writeFileSync(path.join(tmp, 'rl/keep.txt'), 'precious')
    const from = h.emu.commands.length
    h.emu
      .device('emu-1')
      .addFault({command: 'realpath', kind: 'error', message: 'realpath: not found\n', exitCode: 127, times: 10})
    try {
      const r = await run('write_file', {location_id: 'tmp', path: 'rl\r/keep.txt', content: 'new'})
      expect(r.error).to.equal(undefined)
    } finally {
      h.emu.device('emu-1').clearFaults()
    }
    expect(h.argvSince(from).map((a) => a.slice(0, 2).join(' '))).to.include('readlink -f')
    expect(readFileSync(path.join(tmp, 'rl/keep.txt'), 'utf8')).to.equal('precious')
    expect(readFileSync(path.join(tmp, 'rl\r/keep.txt'), 'utf8')).to.equal('new')
  })

  it('writes into a folder whose name holds a line break (realpath prints it whole)', async () => {
    const tmp = path.join(h.emu.device('emu-1').files.root, 'data/local/tmp')
    mkdirSync(path.join(tmp, 'two\nlines'))
    const r = await run('write_file', {location_id: 'tmp', path: 'two\nlines/note.txt', content: 'x'})
    expect(r.error).to.equal(undefined)
    expect(readFileSync(path.join(tmp, 'two\nlines/note.txt'), 'utf8')).to.equal('x')
  })
  describe('a lone surrogate (no UTF-8 for it) is refused, never sent as U+FFFD, the name of another file', () => {
    it('write_file and delete_file', async () => {
      const tmp = path.join(h.emu.device('emu-1').files.root, 'data/local/tmp')
      writeFileSync(path.join(tmp, 'lone\ufffd'), 'precious')
      const w = await run('write_file', {location_id: 'tmp', path: 'lone\ud800', content: 'new'})
      expect(w.error?.code).to.equal('INVALID_INPUT')
      expect(w.error?.message).to.match(/path .*lone surrogate/)
      const d = await run('delete_file', {location_id: 'tmp', path: 'lone\udc00'})
      expect(d.error?.code).to.equal('INVALID_INPUT')
      expect(readFileSync(path.join(tmp, 'lone\ufffd'), 'utf8')).to.equal('precious')
    })

    it('shell: the word is refused, naming the command, before the device is opened', async () => {
      const deps: RunDeps = {
        config: {},
        cwd: process.cwd(),
        openDriver: () => Promise.reject(new Error('must not open')),
        stateFor: () => new MemoryDeviceState(),
      }
      const error = await runTool(tool('shell'), {input: {command: ['rm', '/data/local/tmp/lone\ud800']}}, deps).then(
        () => undefined,
        (e: unknown) => e as ArcError
      )
      expect(error?.code).to.equal('INVALID_INPUT')
      expect(error?.message).to.match(/command.*lone surrogate/s)
    })

    it('set_clipboard: the text is refused, naming it, before the device is opened', async () => {
      const deps: RunDeps = {
        config: {},
        cwd: process.cwd(),
        openDriver: () => Promise.reject(new Error('must not open')),
        stateFor: () => new MemoryDeviceState(),
      }
      const error = await runTool(tool('set_clipboard'), {input: {text: 'x\udbff'}}, deps).then(
        () => undefined,
        (e: unknown) => e as ArcError
      )
      expect(error?.code).to.equal('INVALID_INPUT')
      expect(error?.message).to.match(/text.*lone surrogate/s)
    })

    it("open_url and app open's intent words: refused naming the field, before the device is opened", async () => {
      const deps: RunDeps = {
        config: {},
        cwd: process.cwd(),
        openDriver: () => Promise.reject(new Error('must not open')),
        stateFor: () => new MemoryDeviceState(),
      }
      const cases: Array<[string, Record<string, unknown>, Record<string, unknown> | undefined, RegExp]> = [
        ['open_url', {url: 'https://example.com/\ud800'}, undefined, /url/],
        ['open_app', {package_id: 'com.example.app'}, {activity: '.A', extra: ['k=a\udc00']}, /extra/],
        ['open_app', {package_id: 'com.example.app'}, {activity: '.A', data: 'x:\u0000'}, /data/],
        ['open_app', {package_id: 'com.example.app'}, {activity: '.A', action: 'a\ud800'}, /action/],
      ]
      for (const [name, input, cliInput, field] of cases) {
        const error = await runTool(tool(name), {input, ...(cliInput ? {cliInput} : {})}, deps).then(
          () => undefined,
          (e: unknown) => e as ArcError
        )
        expect(error?.code, JSON.stringify(cliInput ?? input)).to.equal('INVALID_INPUT')
        expect(error?.message)
          .to.match(field)
          .and.match(/NUL character or a lone surrogate/)
      }
    })

    it('the quoting itself refuses it, whatever the caller checked', () => {
      expect(() => shq('a\ud800b')).to.throw(/lone surrogate \(U\+D800/)
      expect(() => shq('a\udfffb')).to.throw(/lone surrogate \(U\+DFFF/)
      expect(shq('😀')).to.equal("'😀'")
    })
  })
  it("a command over adb's length limit is refused naming what it was, nothing sent", async () => {
    const from = h.emu.commands.length
    const r = await run('open_url', {url: `https://example.com/?q=${'a'.repeat(5000)}`})
    expect(r.error?.code).to.equal('INVALID_INPUT')
    expect(r.error?.message).to.match(
      /^the device command `'am' 'start' '-W' '-a' 'android.intent.action.VIEW' '-d' 'https:\/\/example.com\/\?q=a+…` would be \d+ bytes, over the 4000-byte limit .*; nothing was sent$/
    )
    expect(r.error?.actions.join(' ')).to.match(/a URL/)
    expect(h.emu.commands.length).to.equal(from)
  })
  it('a path holding U+FFFD is refused: it stands for bytes that were not UTF-8, never for the file named U+FFFD', async () => {
    const tmp = path.join(h.emu.device('emu-1').files.root, 'data/local/tmp')
    const folder = Buffer.from(path.join(tmp, 'latin1'))
    mkdirSync(folder)
    // caf\xe9.txt (Latin-1: a listing shows it as caf\ufffd.txt, and so does a shell's argv decoded by Node), and a
    // file whose name really is caf\ufffd.txt.
    writeFileSync(Buffer.concat([folder, Buffer.from('/caf\xe9.txt', 'latin1')]), 'latin-1 name')
    writeFileSync(path.join(tmp, 'latin1', 'caf\ufffd.txt'), 'precious')
    for (const [name, input] of [
      ['delete_file', {location_id: 'tmp', path: 'latin1/caf\ufffd.txt'}],
      ['write_file', {location_id: 'tmp', path: 'latin1/caf\ufffd.txt', content: 'new'}],
    ] as const) {
      const r = await run(name, input)
      expect(r.error?.code, name).to.equal('INVALID_INPUT')
      expect(r.error?.message, name).to.match(/U\+FFFD/)
    }
    expect(readFileSync(path.join(tmp, 'latin1', 'caf\ufffd.txt'), 'utf8')).to.equal('precious')
    // The phone lists the Latin-1 name (adbd sends its bytes; adbkit decodes them with U+FFFD), beside the other.
    const listed = await run('list_files', {location_id: 'tmp', path: 'latin1'})
    const names = (JSON.parse((listed.result as {text: string}).text) as {files: Array<{name: string}>}).files
    expect(names.map((f) => f.name)).to.deep.equal(['caf\ufffd.txt', 'caf\ufffd.txt'])
    const alone = Buffer.from(path.join(tmp, 'latin1-alone'))
    mkdirSync(alone)
    writeFileSync(Buffer.concat([alone, Buffer.from('/\xe9t\xe9.txt', 'latin1')]), 'x')
    const only = await run('list_files', {location_id: 'tmp', path: 'latin1-alone'})
    const onlyNames = (JSON.parse((only.result as {text: string}).text) as {files: Array<{name: string}>}).files
    expect(onlyNames.map((f) => f.name)).to.deep.equal(['\ufffdt\ufffd.txt'])
  })
  it('a path over adb\'s 1024-byte sync limit is refused naming it, not "the adb server said path too long"', async () => {
    const tmp = path.join(h.emu.device('emu-1').files.root, 'data/local/tmp')
    const seg = 'd'.repeat(250)
    const rel = [seg, seg, seg, seg, 'f.txt'].join('/')
    mkdirSync(path.join(tmp, seg, seg, seg, seg), {recursive: true})
    writeFileSync(path.join(tmp, rel), 'hello')
    for (const name of ['read_file', 'write_file', 'delete_file']) {
      const r = await run(name, {location_id: 'tmp', path: rel, content: 'x'})
      expect(r.error?.code, name).to.equal('INVALID_INPUT')
      expect(r.error?.message, name).to.match(/its path is 10\d\d bytes, over the 1024 bytes adb's file service takes/)
    }
    expect(readFileSync(path.join(tmp, rel), 'utf8')).to.equal('hello')
  })
  it("shell on adbd before Android 7 passes the bytes through, not its terminal's CR LF", async () => {
    const old = h.emu.device('emu-1')
    const sdk = old.properties.get('ro.build.version.sdk')
    old.properties.set('ro.build.version.sdk', '23')
    try {
      const r = await run('shell', {command: ['printf', 'a\\nb\\r\\n%s', 'x']})
      expect(r.error).to.equal(undefined)
      expect((r.result as {data: unknown}).data).to.deep.equal({stdout: 'a\nb\r\nx', stderr: '', exit_code: 0})
      const bad = await run('shell', {command: ['ls', '/nope']})
      expect((bad.result as {data: {exit_code: number}}).data.exit_code).to.equal(1)
    } finally {
      if (sdk === undefined) old.properties.delete('ro.build.version.sdk')
      else old.properties.set('ro.build.version.sdk', sdk)
    }
  })
  it('app list: a package named with Exception (or IllegalArgumentException) is a package, not pm failing', async () => {
    const device = h.emu.device('emu-1')
    const before = device.packages.length
    device.packages.push(
      {name: 'com.example.ExceptionViewer', system: false, versionCode: 1, versionName: '1'},
      {name: 'dev.illegalargumentexception.demo', system: false, versionCode: 2, versionName: '2'}
    )
    try {
      const r = await run('list_apps', {type: 'user'})
      expect(r.error).to.equal(undefined)
      const ids = (JSON.parse((r.result as {text: string}).text) as Array<{package_id: string}>).map(
        (a) => a.package_id
      )
      expect(ids).to.include.members(['com.example.ExceptionViewer', 'dev.illegalargumentexception.demo'])
    } finally {
      device.packages.splice(before)
    }
  })
})
