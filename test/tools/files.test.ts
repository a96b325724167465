import {randomBytes} from 'node:crypto'
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs'
import {execFileSync} from 'node:child_process'
import http from 'node:http'
import https from 'node:https'
import os from 'node:os'
import type {AddressInfo} from 'node:net'
import path from 'node:path'

import {ArcError, type ArcConfig} from '@arc-cli/core'
import {expect} from 'chai'

import {tools} from '../../src/tools/index.js'
import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {NASTY_STRINGS} from '@arc-cli/test-support/nasty-strings'
import {runArc} from '@arc-cli/test-support/run-arc'
import {toolContext} from '@arc-cli/test-support/tool-context'

const tool = (name: string) => tools.find((t) => t.name === name)!

/**
 * Every file (not folder) under `dir`, as relative paths with their bytes, links listed by their target. arc's
 * own lock files (/data/local/tmp/.arc-locks: one empty file per path ever written, kept by design, docs/files.md)
 * are left out: they are not a user's file an escape or a refusal could change.
 */
function tree(dir: string, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {}
  for (const entry of readdirSync(dir, {withFileTypes: true})) {
    const rel = `${prefix}${entry.name}`
    if (path.join(dir, entry.name).endsWith('/data/local/tmp/.arc-locks')) continue
    const full = path.join(dir, entry.name)
    if (entry.isSymbolicLink()) out[rel] = `-> link`
    else if (entry.isDirectory()) Object.assign(out, tree(full, `${rel}/`))
    else out[rel] = readFileSync(full).toString('base64')
  }
  return out
}

describe('file tools through the ADB driver (adbkit against arc emulate)', function () {
  this.timeout(30_000)
  const h = useEmulator()
  let root: string
  /** The device's /data/local/tmp (location `tmp`) and /storage/emulated/0/Download (`downloads`) on the host. */
  let tmp: string
  let downloads: string

  before(() => {
    root = h.emu.device('emu-1').files.root
    tmp = path.join(root, 'data/local/tmp')
    downloads = path.join(root, 'storage/emulated/0/Download')
  })

  /** Runs a tool handler; returns its result, or the ArcError it threw, and what reached the device. */
  async function run(name: string, input: Record<string, unknown>, config: ArcConfig = {}) {
    const driver = await h.driver()
    const from = h.emu.commands.length
    const ctx = toolContext(driver, {config})
    let result: {text: string; data?: unknown} | undefined
    let error: ArcError | undefined
    try {
      result = await tool(name).handler(ctx, tool(name).input.parse(input))
    } catch (e) {
      if (!(e instanceof ArcError)) throw e
      error = e
    }
    const sent = h.emu.commands.slice(from).map((c) => (c.service === 'sync' ? ['sync', ...c.argv] : c.argv))
    return {text: result?.text, data: result?.data as Record<string, unknown> | undefined, error, sent}
  }

  describe('list_storage_locations', () => {
    it('lists the default locations with free space where the folder exists', async () => {
      const r = await run('list_storage_locations', {})
      const list = JSON.parse(r.text as string) as Array<Record<string, unknown>>
      expect(list.map((l) => [l.id, l.name, l.path, l.allow_read, l.allow_write, l.allow_delete])).to.deep.equal([
        ['downloads', 'Download', '/sdcard/Download', true, true, false],
        ['documents', 'Documents', '/sdcard/Documents', true, true, false],
        ['tmp', 'tmp', '/data/local/tmp', true, true, true],
      ])
      expect(list[0]?.available_bytes).to.be.a('number').above(0)
      // The emulated phone has no /sdcard/Documents: unknown, not 0.
      expect(list[1]?.available_bytes).to.equal(null)
      expect(r.data).to.deep.equal({locations: list})
      expect(r.sent).to.have.deep.members([
        ['df', '-k', '/sdcard/Download'],
        ['df', '-k', '/sdcard/Documents'],
        ['df', '-k', '/data/local/tmp'],
      ])
    })
  })

  describe('write_file, read_file', () => {
    it('creates parent folders and writes through a temporary name renamed over the file', async () => {
      const r = await run('write_file', {
        location_id: 'downloads',
        path: 'notes/todo.txt',
        content: 'Buy groceries\nWalk the dog',
      })
      expect(r.error).to.equal(undefined)
      expect(r.text).to.equal('File written successfully: notes/todo.txt')
      expect(readFileSync(path.join(downloads, 'notes/todo.txt'), 'utf8')).to.equal('Buy groceries\nWalk the dog')
      const temp = (r.sent.find((c) => c[1] === 'SEND') as string[])[2] as string
      expect(temp).to.match(/^\/storage\/emulated\/0\/Download\/notes\/\.todo\.txt\.arc-[0-9a-f]{8}\.tmp$/)
      expect(r.sent).to.deep.equal([
        ['realpath', '--', '/sdcard/Download'],
        ['realpath', '--', '/sdcard/Download/notes'],
        ['sync', 'STAT', '/sdcard/Download/notes'],
        // The file's lock (docs/files.md), then its folder listed for temporary files killed writes left.
        ['mkdir', '-p', 'data/local/tmp/.arc-locks'],
        ['flock', '9'],
        ['sync', 'LIST', '/storage/emulated/0/Download/notes'],
        // Nothing there is what a new file expects: the shell is not asked why (only a NOT_FOUND asks).
        ['mkdir', '-p', '/storage/emulated/0/Download/notes'],
        ['sync', 'SEND', temp, '33188'],
        ['mv', '-f', '--', temp, '/storage/emulated/0/Download/notes/todo.txt'],
      ])
      expect(readdirSync(path.join(downloads, 'notes'))).to.deep.equal(['todo.txt'])
    })

    it('reads lines as `N| line` with the more-lines hint, and pages on with offset', async () => {
      const lines = Array.from({length: 250}, (_, i) => `line ${i + 1}`)
      writeFileSync(path.join(tmp, 'long.txt'), `${lines.join('\r\n')}\n`)
      const first = await run('read_file', {location_id: 'tmp', path: 'long.txt'})
      const shown = (first.text as string).split('\n')
      expect(shown).to.have.length(201)
      expect(shown[0]).to.equal('1| line 1')
      expect(shown[199]).to.equal('200| line 200')
      expect(shown[200]).to.equal('--- More lines available. Use offset=201 to continue reading. Total lines: 250 ---')
      expect(first.sent).to.deep.equal([
        ['realpath', '--', '/data/local/tmp'],
        ['sync', 'STAT', '/data/local/tmp/long.txt'],
        ['sync', 'RECV', '/data/local/tmp/long.txt'],
      ])
      const rest = await run('read_file', {location_id: 'tmp', path: 'long.txt', offset: 201})
      expect((rest.text as string).split('\n')).to.deep.equal(lines.slice(200).map((l, i) => `${201 + i}| ${l}`))
      expect(rest.data).to.include({total_lines: 250, has_more: false, next_offset: null})
      const two = await run('read_file', {location_id: 'tmp', path: 'long.txt', offset: 3, limit: 2})
      expect(two.text).to.equal(
        '3| line 3\n4| line 4\n--- More lines available. Use offset=5 to continue reading. Total lines: 250 ---'
      )
      const past = await run('read_file', {location_id: 'tmp', path: 'long.txt', offset: 251})
      expect(past.error?.code).to.equal('INVALID_INPUT')
    })

    it('validates offset and limit as the spec says', () => {
      const input = tool('read_file').input
      expect(input.safeParse({location_id: 'tmp', path: 'a', offset: 0}).success).to.equal(false)
      expect(input.safeParse({location_id: 'tmp', path: 'a', limit: 201}).success).to.equal(false)
      expect(input.safeParse({location_id: 'tmp', path: 'a', limit: 0}).success).to.equal(false)
      expect(input.safeParse({location_id: 'tmp'}).success).to.equal(false)
      expect(input.safeParse({path: 'a'}).success).to.equal(false)
    })

    it('refuses binary files and files over the limit before reading them', async () => {
      writeFileSync(path.join(tmp, 'image.bin'), Buffer.from([0x89, 0x50, 0x00, 0x47]))
      const binary = await run('read_file', {location_id: 'tmp', path: 'image.bin'})
      expect(binary.error?.code).to.equal('UNSUPPORTED')
      expect(binary.error?.message).to.equal('image.bin is not a text file (it holds NUL bytes or is not valid UTF-8)')
      writeFileSync(path.join(tmp, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9]))
      expect((await run('read_file', {location_id: 'tmp', path: 'latin1.txt'})).error?.code).to.equal('UNSUPPORTED')
      writeFileSync(path.join(tmp, 'big.txt'), 'x'.repeat(101))
      const big = await run('read_file', {location_id: 'tmp', path: 'big.txt'}, {files: {maxBytes: 100}})
      expect(big.error?.code).to.equal('FILE_TOO_LARGE')
      expect(big.sent.some((c) => c[1] === 'RECV')).to.equal(false)
    })

    it('stops reading a file past the limit when its size said less: the sync STAT gives sizes in 32 bits', async () => {
      const sparse = path.join(tmp, 'huge.txt')
      writeFileSync(sparse, '')
      truncateSync(sparse, 2 ** 32 + 5)
      try {
        const listed = await run('list_files', {location_id: 'tmp', path: ''})
        expect(JSON.stringify(listed.data)).to.contain('"name":"huge.txt"')
        const huge = await run('read_file', {location_id: 'tmp', path: 'huge.txt'}, {files: {maxBytes: 200_000}})
        expect(huge.error?.code).to.equal('FILE_TOO_LARGE')
        expect(huge.sent.filter((c) => c[1] === 'RECV')).to.have.length(1)
        // The connection it read on was closed: the device goes on answering.
        expect((await run('read_file', {location_id: 'tmp', path: 'long.txt', limit: 1})).error).to.equal(undefined)
      } finally {
        rmSync(sparse)
      }
    })

    it('reports a missing file, a folder and an unknown location', async () => {
      expect((await run('read_file', {location_id: 'tmp', path: 'nope.txt'})).error?.code).to.equal('NOT_FOUND')
      mkdirSync(path.join(tmp, 'folder'), {recursive: true})
      expect((await run('read_file', {location_id: 'tmp', path: 'folder'})).error?.code).to.equal('INVALID_INPUT')
      const unknown = await run('read_file', {location_id: 'nowhere', path: 'a.txt'})
      expect(unknown.error?.code).to.equal('NOT_FOUND')
      expect(unknown.error?.message).to.equal('storage location not found: "nowhere"')
      expect(unknown.sent).to.deep.equal([])
    })

    it('refuses writes where the location does not allow them, and content over the limit, before touching the device', async () => {
      const config: ArcConfig = {
        files: {
          locations: [{id: 'ro', path: '/data/local/tmp', description: '', allowWrite: false, allowDelete: false}],
        },
      }
      for (const [name, input] of [
        ['write_file', {content: 'x'}],
        ['append_file', {content: 'x'}],
        ['file_replace', {old_string: 'a', new_string: 'b'}],
        ['download_from_url', {url: 'https://example.com/x'}],
      ] as const) {
        const r = await run(name, {location_id: 'ro', path: 'a.txt', ...input}, config)
        expect(r.error?.code, name).to.equal('PERMISSION_DENIED')
        expect(r.error?.message, name).to.equal('write not allowed in storage location ro (/data/local/tmp)')
        expect(r.sent, name).to.deep.equal([])
      }
      const big = await run(
        'write_file',
        {location_id: 'tmp', path: 'big2.txt', content: 'é'.repeat(51)},
        {files: {maxBytes: 100}}
      )
      expect(big.error?.code).to.equal('FILE_TOO_LARGE')
      expect(big.sent).to.deep.equal([])
    })

    it('writes an empty file, and refuses to write over a folder', async () => {
      expect((await run('write_file', {location_id: 'tmp', path: 'empty.txt', content: ''})).error).to.equal(undefined)
      expect(statSync(path.join(tmp, 'empty.txt')).size).to.equal(0)
      expect((await run('read_file', {location_id: 'tmp', path: 'empty.txt'})).data).to.include({total_lines: 0})
      mkdirSync(path.join(tmp, 'dir-target'), {recursive: true})
      expect((await run('write_file', {location_id: 'tmp', path: 'dir-target', content: 'x'})).error?.code).to.equal(
        'INVALID_INPUT'
      )
    })
  })

  describe('append_file, file_replace, delete_file', () => {
    it('appends to an existing file and refuses a missing one', async () => {
      writeFileSync(path.join(tmp, 'todo.txt'), 'Buy groceries')
      const r = await run('append_file', {location_id: 'tmp', path: 'todo.txt', content: '\nFeed the cat'})
      expect(r.text).to.equal('Content appended successfully to: todo.txt')
      expect(readFileSync(path.join(tmp, 'todo.txt'), 'utf8')).to.equal('Buy groceries\nFeed the cat')
      expect((await run('append_file', {location_id: 'tmp', path: 'missing.txt', content: 'x'})).error?.code).to.equal(
        'NOT_FOUND'
      )
      const over = await run(
        'append_file',
        {location_id: 'tmp', path: 'todo.txt', content: 'x'.repeat(20)},
        {files: {maxBytes: 30}}
      )
      expect(over.error?.code).to.equal('FILE_TOO_LARGE')
      expect(readFileSync(path.join(tmp, 'todo.txt'), 'utf8')).to.equal('Buy groceries\nFeed the cat')
    })

    it('replaces the first occurrence, or all, literally', async () => {
      writeFileSync(path.join(tmp, 'r.txt'), 'a.b a.b a.b')
      const one = await run('file_replace', {location_id: 'tmp', path: 'r.txt', old_string: 'a.b', new_string: '$&'})
      expect(one.text).to.equal('Replaced 1 occurrence(s) in: r.txt')
      expect(readFileSync(path.join(tmp, 'r.txt'), 'utf8')).to.equal('$& a.b a.b')
      const all = await run('file_replace', {
        location_id: 'tmp',
        path: 'r.txt',
        old_string: 'a.b',
        new_string: 'x',
        replace_all: true,
      })
      expect(all.text).to.equal('Replaced 2 occurrence(s) in: r.txt')
      expect(readFileSync(path.join(tmp, 'r.txt'), 'utf8')).to.equal('$& x x')
      const missing = await run('file_replace', {location_id: 'tmp', path: 'r.txt', old_string: 'zzz', new_string: 'x'})
      expect(missing.error?.code).to.equal('NOT_FOUND')
      expect(missing.error?.message).to.equal('old_string not found in r.txt')
      expect(
        tool('file_replace').input.safeParse({location_id: 'tmp', path: 'r.txt', old_string: '', new_string: 'x'})
          .success
      ).to.equal(false)
    })

    it('deletes files only, where the location allows it', async () => {
      writeFileSync(path.join(tmp, 'old-todo.txt'), 'x')
      const r = await run('delete_file', {location_id: 'tmp', path: 'old-todo.txt'})
      expect(r.text).to.equal('File deleted successfully: old-todo.txt')
      expect(r.sent.at(-1)).to.deep.equal(['rm', '--', '/data/local/tmp/old-todo.txt'])
      expect(existsSync(path.join(tmp, 'old-todo.txt'))).to.equal(false)
      expect((await run('delete_file', {location_id: 'tmp', path: 'old-todo.txt'})).error?.code).to.equal('NOT_FOUND')
      mkdirSync(path.join(tmp, 'keep-dir'), {recursive: true})
      const dir = await run('delete_file', {location_id: 'tmp', path: 'keep-dir'})
      expect(dir.error?.code).to.equal('INVALID_INPUT')
      expect(existsSync(path.join(tmp, 'keep-dir'))).to.equal(true)
      writeFileSync(path.join(downloads, 'keep.txt'), 'x')
      const denied = await run('delete_file', {location_id: 'downloads', path: 'keep.txt'})
      expect(denied.error?.code).to.equal('PERMISSION_DENIED')
      expect(denied.sent).to.deep.equal([])
      expect(existsSync(path.join(downloads, 'keep.txt'))).to.equal(true)
    })
  })

  describe('list_files', () => {
    it('lists folders first, then files, alphabetically, with paging', async () => {
      const dir = path.join(tmp, 'listing')
      mkdirSync(path.join(dir, 'Zeta'), {recursive: true})
      mkdirSync(path.join(dir, 'alpha'), {recursive: true})
      writeFileSync(path.join(dir, 'b.txt'), 'hello')
      writeFileSync(path.join(dir, 'A.json'), '{}')
      writeFileSync(path.join(dir, 'c'), '')
      const r = await run('list_files', {location_id: 'tmp', path: 'listing'})
      const result = JSON.parse(r.text as string) as {
        files: Array<Record<string, unknown>>
        total_count: number
        has_more: boolean
      }
      expect(result.files.map((f) => [f.name, f.path, f.is_directory, f.size, f.mime_type])).to.deep.equal([
        ['alpha', 'listing/alpha', true, 0, null],
        ['Zeta', 'listing/Zeta', true, 0, null],
        ['A.json', 'listing/A.json', false, 2, 'application/json'],
        ['b.txt', 'listing/b.txt', false, 5, 'text/plain'],
        ['c', 'listing/c', false, 0, null],
      ])
      expect(result.files[3]?.last_modified).to.be.a('number')
      expect(result.files[0]?.last_modified).to.equal(null)
      expect([result.total_count, result.has_more]).to.deep.equal([5, false])
      const page = await run('list_files', {location_id: 'tmp', path: 'listing', offset: 1, limit: 2})
      const paged = JSON.parse(page.text as string) as {
        files: Array<{name: string}>
        total_count: number
        has_more: boolean
      }
      expect([paged.files.map((f) => f.name), paged.total_count, paged.has_more]).to.deep.equal([
        ['Zeta', 'A.json'],
        5,
        true,
      ])
      expect(page.sent.at(-1)).to.deep.equal(['sync', 'LIST', '/data/local/tmp/listing'])
      expect((await run('list_files', {location_id: 'tmp', path: 'no/such'})).error?.code).to.equal('NOT_FOUND')
      expect((await run('list_files', {location_id: 'tmp', path: 'listing/b.txt'})).error?.code).to.equal(
        'INVALID_INPUT'
      )
      expect(tool('list_files').input.safeParse({location_id: 'tmp', limit: 201}).success).to.equal(false)
      expect(tool('list_files').input.safeParse({location_id: 'tmp', offset: -1}).success).to.equal(false)
    })

    it('refuses a folder the shell user may not read instead of calling it empty (adbd answers LIST with DONE alone)', async () => {
      const secret = path.join(tmp, 'secret')
      mkdirSync(secret, {recursive: true})
      writeFileSync(path.join(secret, 'token.txt'), 'x')
      chmodSync(secret, 0o700)
      mkdirSync(path.join(tmp, 'empty'), {recursive: true})
      try {
        const denied = await run('list_files', {location_id: 'tmp', path: 'secret'})
        expect(denied.error?.code).to.equal('DEVICE_ACCESS_DENIED')
        expect(denied.error?.message).to.equal(
          "permission denied on emu-1: the device's shell user may not read the folder /data/local/tmp/secret"
        )
        expect(denied.sent.slice(-2)).to.deep.equal([
          ['sync', 'LIST', '/data/local/tmp/secret'],
          ['ls', '-a', '/data/local/tmp/secret'],
        ])
        // A folder that is really empty stays an empty listing.
        const empty = await run('list_files', {location_id: 'tmp', path: 'empty'})
        expect(JSON.parse(empty.text as string)).to.deep.equal({files: [], total_count: 0, has_more: false})
      } finally {
        chmodSync(secret, 0o755)
      }
    })
  })

  describe('paths the device keeps from its shell user (adbd answers a STAT it cannot lstat with zeros)', () => {
    // As on a phone: an app's data folder (0700: the shell user may not even look inside, so adbd's STAT of
    // anything in it is all zeros, as for a missing path) and a system file it may see but not open (0640).
    let appData: string
    let systemFile: string
    before(() => {
      appData = path.join(tmp, 'app-data')
      mkdirSync(path.join(appData, 'databases'), {recursive: true})
      writeFileSync(path.join(appData, 'databases/x.db'), 'rows')
      writeFileSync(path.join(appData, 'notes.txt'), 'private notes\n')
      chmodSync(path.join(appData, 'databases'), 0o771)
      chmodSync(appData, 0o700)
      systemFile = path.join(tmp, 'packages.xml')
      writeFileSync(systemFile, '<packages/>\n')
      chmodSync(systemFile, 0o640)
    })
    after(() => {
      chmodSync(appData, 0o755)
      chmodSync(systemFile, 0o644)
    })

    const reachDenied = (devicePath: string) =>
      `permission denied on emu-1: the device's shell user may not look into a folder on the way to ${devicePath}, so arc can neither read it nor tell whether it exists`

    it('the seam: statFile finds nothing there; asked to be sure, it says the path is refused (one ls -ld, no second STAT)', async () => {
      const driver = await h.driver('emu-1')
      try {
        const from = h.emu.commands.length
        expect(await driver.statFile('/data/local/tmp/app-data/notes.txt')).to.equal(undefined)
        const error = await driver.statFile('/data/local/tmp/app-data/notes.txt', {sure: true}).then(
          () => undefined,
          (e: unknown) => e as ArcError
        )
        expect(error?.code).to.equal('DEVICE_ACCESS_DENIED')
        expect(h.argvSince(from)).to.deep.equal([
          ['STAT', '/data/local/tmp/app-data/notes.txt'],
          ['ls', '-ld', '/data/local/tmp/app-data/notes.txt'],
        ])
        // Missing for sure: a STAT and the shell's word.
        expect(await driver.statFile('/data/local/tmp/nothing-here', {sure: true})).to.equal(undefined)
      } finally {
        await driver.close()
      }
    })

    it('read_file of a file in a folder the shell may not look into: DEVICE_ACCESS_DENIED naming it, not NOT_FOUND', async () => {
      const r = await run('read_file', {location_id: 'tmp', path: 'app-data/notes.txt'})
      expect(r.error?.code).to.equal('DEVICE_ACCESS_DENIED')
      expect(r.error?.message).to.equal(reachDenied('/data/local/tmp/app-data/notes.txt'))
      expect(r.error?.details).to.include({
        serial: 'emu-1',
        path: '/data/local/tmp/app-data/notes.txt',
        output: 'ls: /data/local/tmp/app-data/notes.txt: Permission denied',
      })
      expect(r.error?.actions.join('\n')).to.include('run-as PKG').and.include('adb root')
      // The STAT came back zeroed, so the shell was asked once, quoted; nothing was pulled.
      expect(r.sent).to.deep.equal([
        ['realpath', '--', '/data/local/tmp'],
        ['realpath', '--', '/data/local/tmp/app-data'],
        ['sync', 'STAT', '/data/local/tmp/app-data/notes.txt'],
        ['ls', '-ld', '/data/local/tmp/app-data/notes.txt'],
      ])
      // Whether a name exists in there cannot be told: a missing one is refused the same way.
      expect((await run('read_file', {location_id: 'tmp', path: 'app-data/typo.txt'})).error?.message).to.equal(
        reachDenied('/data/local/tmp/app-data/typo.txt')
      )
    })

    it('deeper in: realpath says Permission denied, so the folder on the way is named (read, list, write, delete)', async () => {
      const before = tree(tmp)
      for (const [name, input] of [
        ['read_file', {path: 'app-data/databases/x.db'}],
        ['list_files', {path: 'app-data/databases'}],
        ['write_file', {path: 'app-data/databases/new.db', content: 'x'}],
        ['delete_file', {path: 'app-data/databases/x.db'}],
      ] as const) {
        const r = await run(name, {location_id: 'tmp', ...input})
        expect(r.error?.code, name).to.equal('DEVICE_ACCESS_DENIED')
        expect(r.error?.message, name).to.equal(reachDenied('/data/local/tmp/app-data/databases'))
        expect(
          r.sent.some(
            (c) => ['SEND', 'RECV', 'LIST'].includes(c[1] as string) || ['mv', 'rm', 'mkdir'].includes(c[0] as string)
          ),
          name
        ).to.equal(false)
      }
      expect(tree(tmp)).to.deep.equal(before)
    })

    it('an edit or delete in a folder the shell may not look into sends nothing and leaves every file as it was', async () => {
      const before = tree(tmp)
      for (const [name, input] of [
        ['append_file', {path: 'app-data/notes.txt', content: 'x'}],
        ['file_replace', {path: 'app-data/notes.txt', old_string: 'private', new_string: 'public'}],
        ['delete_file', {path: 'app-data/notes.txt'}],
      ] as const) {
        const r = await run(name, {location_id: 'tmp', ...input})
        expect(r.error?.code, name).to.equal('DEVICE_ACCESS_DENIED')
        expect(
          r.sent.some(
            (c) => ['SEND', 'RECV'].includes(c[1] as string) || ['mv', 'rm', 'mkdir'].includes(c[0] as string)
          ),
          name
        ).to.equal(false)
      }
      expect(tree(tmp)).to.deep.equal(before)
    })

    it('write_file of a new file there: its STAT finds nothing, as for any new file, and adbd refuses the SEND; nothing is left', async () => {
      const before = tree(tmp)
      const r = await run('write_file', {location_id: 'tmp', path: 'app-data/new.txt', content: 'x'})
      expect(r.error?.code).to.equal('DEVICE_ACCESS_DENIED')
      expect(r.error?.message).to.equal(
        "permission denied on emu-1: the device's shell user may not write in the folder /data/local/tmp/app-data"
      )
      const temp = (r.sent.find((c) => c[1] === 'SEND') as string[])[2] as string
      expect(r.sent).to.deep.equal([
        ['realpath', '--', '/data/local/tmp'],
        ['realpath', '--', '/data/local/tmp/app-data'],
        ['sync', 'STAT', '/data/local/tmp/app-data/new.txt'],
        // The file's lock (docs/files.md), then the folder listed for temporary files killed writes left.
        ['mkdir', '-p', 'data/local/tmp/.arc-locks'],
        ['flock', '9'],
        ['sync', 'LIST', '/data/local/tmp/app-data'],
        ['sync', 'SEND', temp, '33188'],
        ['rm', '-f', '--', temp],
      ])
      expect(tree(tmp)).to.deep.equal(before)
    })

    it("the driver's mkdir -p into such a folder: toybox's Permission denied is DEVICE_ACCESS_DENIED, nothing made", async () => {
      const before = tree(tmp)
      const driver = await h.driver()
      const error = await driver.makeDirs('/data/local/tmp/app-data/sub/folder').then(
        () => undefined,
        (e: ArcError) => e
      )
      expect(error?.code).to.equal('DEVICE_ACCESS_DENIED')
      expect(error?.message).to.equal(
        "permission denied on emu-1: the device's shell user may not create the folder /data/local/tmp/app-data/sub/folder"
      )
      expect(existsSync(path.join(appData, 'sub'))).to.equal(false)
      expect(tree(tmp)).to.deep.equal(before)
    })

    it("the driver's write into such a folder: adbd's couldn't create file: Permission denied is DEVICE_ACCESS_DENIED", async () => {
      const before = tree(tmp)
      const driver = await h.driver()
      const error = await driver.writeFile('/data/local/tmp/app-data/new.txt', Buffer.from('x')).then(
        () => undefined,
        (e: ArcError) => e
      )
      expect(error?.code).to.equal('DEVICE_ACCESS_DENIED')
      expect(error?.message).to.equal(
        "permission denied on emu-1: the device's shell user may not write in the folder /data/local/tmp/app-data"
      )
      expect(tree(tmp)).to.deep.equal(before)
    })

    it('a storage location inside such a folder is refused, not reported missing', async () => {
      const config: ArcConfig = {
        files: {
          locations: [
            {
              id: 'app',
              path: '/data/local/tmp/app-data/databases',
              description: '',
              allowWrite: true,
              allowDelete: false,
            },
          ],
        },
      }
      const r = await run('read_file', {location_id: 'app', path: 'x.db'}, config)
      expect(r.error?.code).to.equal('DEVICE_ACCESS_DENIED')
      expect(r.error?.message).to.equal(reachDenied('/data/local/tmp/app-data/databases'))
      expect(r.sent).to.deep.equal([['realpath', '--', '/data/local/tmp/app-data/databases']])
    })

    it('a file the shell may see but not open: adbd fails the RECV with Permission denied, and so does arc', async () => {
      const r = await run('read_file', {location_id: 'tmp', path: 'packages.xml'})
      expect(r.error?.code).to.equal('DEVICE_ACCESS_DENIED')
      expect(r.error?.message).to.equal(
        "permission denied on emu-1: the device's shell user may not read /data/local/tmp/packages.xml"
      )
      expect(r.sent.map((c) => c.slice(0, 2))).to.deep.equal([
        ['realpath', '--'],
        ['sync', 'STAT'],
        ['sync', 'RECV'],
      ])
    })

    it('a missing file is still NOT_FOUND: before saying so, arc asks the shell once, and it says No such file or directory', async () => {
      const r = await run('read_file', {location_id: 'tmp', path: 'no-such-file.txt'})
      expect(r.error?.code).to.equal('NOT_FOUND')
      expect(r.error?.message).to.equal('file not found: no-such-file.txt in storage location tmp')
      expect(r.sent).to.deep.equal([
        ['realpath', '--', '/data/local/tmp'],
        ['sync', 'STAT', '/data/local/tmp/no-such-file.txt'],
        ['ls', '-ld', '/data/local/tmp/no-such-file.txt'],
      ])
      const list = await run('list_files', {location_id: 'tmp', path: 'no-such-folder'})
      expect(list.error?.code).to.equal('NOT_FOUND')
      expect(list.sent.slice(-2)).to.deep.equal([
        ['sync', 'STAT', '/data/local/tmp/no-such-folder'],
        ['ls', '-ld', '/data/local/tmp/no-such-folder'],
      ])
      const del = await run('delete_file', {location_id: 'tmp', path: 'gone/no-such-file.txt'})
      expect(del.error?.code).to.equal('NOT_FOUND')
      expect(del.sent.at(-1)).to.deep.equal(['ls', '-ld', '/data/local/tmp/gone/no-such-file.txt'])
    })

    it('a name that merely contains "Permission denied" is still NOT_FOUND (only the end of the message counts)', async () => {
      const r = await run('read_file', {location_id: 'tmp', path: 'x: Permission denied'})
      expect(r.error?.code).to.equal('NOT_FOUND')
    })

    it('arc files read: exit 19 with the code, the path and what to try; stdout empty; a missing file stays exit 14', async () => {
      const env = {ADB_SERVER_SOCKET: `tcp:127.0.0.1:${h.emu.port}`}
      const denied = await runArc(['files', 'read', 'tmp', 'app-data/databases/x.db'], {env})
      expect(denied.code).to.equal(19)
      expect(denied.stdout).to.equal('')
      expect(denied.stderr).to.include(
        `Error [DEVICE_ACCESS_DENIED]: ${reachDenied('/data/local/tmp/app-data/databases')}\n`
      )
      expect(denied.stderr).to.include('Try: ')
      const json = await runArc(['files', 'read', 'tmp', 'packages.xml', '--json'], {env})
      expect(json.code).to.equal(19)
      expect(JSON.parse(json.stdout).error).to.include({code: 'DEVICE_ACCESS_DENIED', exitCode: 19})
      const missing = await runArc(['files', 'read', 'tmp', 'no-such-file.txt'], {env})
      expect([missing.code, missing.stdout]).to.deep.equal([14, ''])
      expect(missing.stderr).to.include('Error [NOT_FOUND]: file not found: no-such-file.txt in storage location tmp')
    })
  })

  describe('paths cannot leave their location', () => {
    let outside: () => Record<string, string>
    before(() => {
      // Everything on the device except the location under test: no escape may change it.
      outside = () => {
        const all = tree(root)
        return Object.fromEntries(Object.entries(all).filter(([k]) => !k.startsWith('data/local/tmp/jail/')))
      }
      const jail = path.join(tmp, 'jail')
      mkdirSync(path.join(jail, 'inner'), {recursive: true})
      writeFileSync(path.join(root, 'data/local/secret.txt'), 'secret')
      symlinkSync('/data/local', path.join(jail, 'abs-out'))
      symlinkSync('..', path.join(jail, 'rel-out'))
      symlinkSync('../../../secret.txt', path.join(jail, 'inner/file-out'))
      symlinkSync('loop-b', path.join(jail, 'loop-a'))
      symlinkSync('loop-a', path.join(jail, 'loop-b'))
      symlinkSync('/nowhere/at/all', path.join(jail, 'dangling'))
      symlinkSync('inner', path.join(jail, 'inner-link'))
    })
    const jailConfig: ArcConfig = {
      files: {
        locations: [{id: 'jail', path: '/data/local/tmp/jail', description: '', allowWrite: true, allowDelete: true}],
      },
    }

    const refused: Array<[string, string]> = [
      ['..', 'PERMISSION_DENIED'],
      ['../secret.txt', 'PERMISSION_DENIED'],
      ['inner/../../secret.txt', 'PERMISSION_DENIED'],
      ['inner//..//..//x.txt', 'PERMISSION_DENIED'],
      ['/data/local/secret.txt', 'PERMISSION_DENIED'],
      ['//data/local/x.txt', 'PERMISSION_DENIED'],
      ['x\0.txt', 'INVALID_INPUT'],
      ['abs-out/secret.txt', 'PERMISSION_DENIED'],
      ['abs-out/new.txt', 'PERMISSION_DENIED'],
      ['rel-out/secret.txt', 'PERMISSION_DENIED'],
      ['rel-out/deeper/new.txt', 'PERMISSION_DENIED'],
      ['inner/file-out', 'PERMISSION_DENIED'],
      ['loop-a', 'PERMISSION_DENIED'],
      ['loop-a/x.txt', 'PERMISSION_DENIED'],
      ['dangling', 'PERMISSION_DENIED'],
      ['dangling/x.txt', 'PERMISSION_DENIED'],
    ]
    const operations: Array<[string, Record<string, unknown>]> = [
      ['read_file', {}],
      ['write_file', {content: 'pwned'}],
      ['append_file', {content: 'pwned'}],
      ['file_replace', {old_string: 'secret', new_string: 'pwned'}],
      ['delete_file', {}],
      ['list_files', {}],
    ]
    for (const [bad, code] of refused) {
      it(`refuses ${JSON.stringify(bad)} for every file tool (${code})`, async () => {
        const before = outside()
        for (const [name, extra] of operations) {
          const r = await run(name, {location_id: 'jail', path: bad, ...extra}, jailConfig)
          expect(r.error?.code, `${name} ${JSON.stringify(bad)}`).to.equal(code)
          expect(
            r.sent.some(
              (c) => ['SEND', 'RECV', 'LIST'].includes(c[1] as string) || ['mv', 'rm', 'mkdir'].includes(c[0] as string)
            ),
            name
          ).to.equal(false)
        }
        expect(outside()).to.deep.equal(before)
      })
    }

    it('keeps look-alike names (encoded and backslash separators, doubled slashes) inside the location', async () => {
      const before = outside()
      for (const name of [
        '..%2F..%2Fescape.txt',
        '%2e%2e/escape.txt',
        '..\\..\\escape.txt',
        'inner//./double.txt',
        '...',
        '.. .txt',
        'inner-link/via-link.txt',
      ]) {
        const r = await run('write_file', {location_id: 'jail', path: name, content: name}, jailConfig)
        expect(r.error, name).to.equal(undefined)
        expect((await run('read_file', {location_id: 'jail', path: name}, jailConfig)).text, name).to.equal(
          `1| ${name}`
        )
      }
      expect(outside()).to.deep.equal(before)
      expect(readFileSync(path.join(tmp, 'jail/%2e%2e/escape.txt'), 'utf8')).to.equal('%2e%2e/escape.txt')
      expect(readFileSync(path.join(tmp, 'jail/inner/double.txt'), 'utf8')).to.equal('inner//./double.txt')
      expect(readFileSync(path.join(tmp, 'jail/inner/via-link.txt'), 'utf8')).to.equal('inner-link/via-link.txt')
    })
  })

  // A write replaces a file by a temporary sibling renamed over it, and that sibling was pushed with mode 0644, which
  // adbd makes 0666 (daemon/file_sync_service.cpp, send_impl: the owner's bits copied to group and others): an edit
  // of a 0755 script left it not executable, and of a 0600 file left it readable and writable by every app's user.
  it('a write, append, replace or push of an existing file keeps its permission bits', async () => {
    const modeOf = (name: string) => statSync(path.join(tmp, name)).mode & 0o777
    const work = mkdtempSync(path.join(os.tmpdir(), 'arc-modes-'))
    writeFileSync(path.join(work, 'new.sh'), 'echo new\n')
    const edits: Array<[string, Record<string, unknown>]> = [
      ['write_file', {content: 'echo written\n'}],
      ['append_file', {content: 'echo more\n'}],
      ['file_replace', {old_string: 'echo', new_string: 'printf'}],
      ['push_file', {source: path.join(work, 'new.sh')}],
    ]
    // The virtual device's shell user reads only what others may read (docs/emulate.md): append and replace read the
    // file first, so they are shown modes with that bit; write and push, a private file's too.
    for (const mode of [0o755, 0o644, 0o705, 0o600]) {
      for (const [name, extra] of edits) {
        if ((mode & 0o004) === 0 && (name === 'append_file' || name === 'file_replace')) continue
        writeFileSync(path.join(tmp, 'kept.sh'), 'echo old\n')
        chmodSync(path.join(tmp, 'kept.sh'), mode)
        const r = await run(name, {location_id: 'tmp', path: 'kept.sh', ...extra})
        expect(r.error, name).to.equal(undefined)
        expect(modeOf('kept.sh').toString(8), `${name} of a ${mode.toString(8)} file`).to.equal(mode.toString(8))
      }
    }
    expect(readdirSync(tmp).filter((n) => n.startsWith('.kept.sh'))).to.deep.equal([])
    rmSync(work, {recursive: true, force: true})
  })

  // A path ending in `/` names a folder. The file tools dropped the slash: `write_file reports/` created a FILE named
  // reports (`adb push x /sdcard/reports/` puts x inside an existing folder and fails on a missing one), and
  // `delete_file link/` (naming the folder a link leads to) removed the link.
  // The default tmp location is the shell user's scratch folder, where arc keeps its on-device helper (run with
  // app_process, reused where its size matches), install APKs and the file tools' locks: an agent served the file
  // tools without shell could put its own code in the helper's place, or remove another caller's lock.
  describe("arc's own files in /data/local/tmp are refused to every file tool", () => {
    const own = [
      'arc-helper-0123456789abcdef.dex',
      'arc-helper-0123456789abcdef.dex.1a2b3c4d.tmp',
      'arc-install-aa.apk',
    ]
    it('write, append, replace, delete, read and a write through a link', async () => {
      mkdirSync(path.join(tmp, '.arc-locks'), {recursive: true})
      writeFileSync(path.join(tmp, '.arc-locks', 'held'), '')
      for (const name of own) writeFileSync(path.join(tmp, name), 'arc')
      symlinkSync(own[0] as string, path.join(tmp, 'to-helper'))
      const before = tree(tmp)
      for (const file of [...own, '.arc-locks/held', '.arc-locks/new', 'to-helper']) {
        for (const [name, input] of [
          ['write_file', {content: 'mine'}],
          ['append_file', {content: 'mine'}],
          ['file_replace', {old_string: 'arc', new_string: 'mine'}],
          ['delete_file', {}],
          ['read_file', {}],
        ] as const) {
          const r = await run(name, {location_id: 'tmp', path: file, ...input})
          expect(r.error?.code, `${name} ${file}`).to.equal('PERMISSION_DENIED')
          expect(r.error?.message, `${name} ${file}`).to.include("one of arc's own files")
        }
      }
      expect(tree(tmp)).to.deep.equal(before)
      // A name that only starts alike elsewhere, or sits deeper, is the user's.
      const mine = await run('write_file', {location_id: 'tmp', path: 'sub/arc-helper-notes.txt', content: 'ok'})
      expect(mine.error).to.equal(undefined)
    })
  })

  describe('a path ending in / names a folder: refused by every tool that works on one file', () => {
    const fileTools: Array<[string, Record<string, unknown>]> = [
      ['read_file', {}],
      ['write_file', {content: 'x'}],
      ['append_file', {content: 'x'}],
      ['file_replace', {old_string: 'a', new_string: 'b'}],
      ['delete_file', {}],
    ]
    for (const bad of ['reports/', 'reports/.', 'notes.txt/', 'folder-link/', 'deep/er//']) {
      it(`refuses ${JSON.stringify(bad)}: INVALID_INPUT naming the path, nothing sent that writes, nothing changed`, async () => {
        writeFileSync(path.join(tmp, 'notes.txt'), 'a')
        mkdirSync(path.join(tmp, 'target-folder'), {recursive: true})
        rmSync(path.join(tmp, 'folder-link'), {force: true})
        symlinkSync('target-folder', path.join(tmp, 'folder-link'))
        const before = tree(tmp)
        for (const [name, extra] of fileTools) {
          const r = await run(name, {location_id: 'tmp', path: bad, ...extra})
          expect(r.error?.code, `${name} ${bad}`).to.equal('INVALID_INPUT')
          expect(r.error?.message, name).to.include(`path ${JSON.stringify(bad)} ends with "/"`)
          expect(r.sent, name).to.deep.equal([])
        }
        expect(tree(tmp)).to.deep.equal(before)
      })
    }

    it('list_files takes a folder with its slash', async () => {
      mkdirSync(path.join(tmp, 'listed'), {recursive: true})
      writeFileSync(path.join(tmp, 'listed/a.txt'), 'a')
      const r = await run('list_files', {location_id: 'tmp', path: 'listed/'})
      expect(r.error).to.equal(undefined)
      expect(r.text).to.include('a.txt')
    })
  })

  describe('contents and names arrive byte for byte', () => {
    it('round-trips nasty names and random UTF-8 contents', async function () {
      this.timeout(120_000)
      const names = NASTY_STRINGS.filter(
        (s) => s.trim() !== '' && !s.includes('/') && !s.includes('\0') && s !== '.' && s !== '..'
      )
      for (const [i, name] of names.entries()) {
        const content = `${NASTY_STRINGS[(i * 7) % NASTY_STRINGS.length]}\n${randomBytes(64).toString('base64')}\n😀 ${name}`
        const w = await run('write_file', {location_id: 'tmp', path: `fuzz/${name}`, content})
        expect(w.error, name).to.equal(undefined)
        expect(readFileSync(path.join(tmp, 'fuzz', name), 'utf8'), name).to.equal(content)
        const r = await run('read_file', {location_id: 'tmp', path: `fuzz/${name}`})
        expect((r.data as {lines: string[]}).lines.join('\n'), name).to.equal(content)
      }
      const listed = JSON.parse((await run('list_files', {location_id: 'tmp', path: 'fuzz'})).text as string) as {
        files: Array<{name: string}>
      }
      expect(listed.files.map((f) => f.name)).to.have.members(names)
    })

    it('round-trips random names and contents (seeded, so a failure can be replayed)', async function () {
      this.timeout(120_000)
      let seed = 12345
      const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
      const alphabet = [...' \'"$`\\;&|<>(){}[]*?~#!%\t\r-_.,:=+@^abcXYZ019éß中文😀\u200b\u00a0']
      const pick = (n: number) => Array.from({length: n}, () => alphabet[Math.floor(next() * alphabet.length)]).join('')
      for (let i = 0; i < 12; i++) {
        const name = `${pick(1 + Math.floor(next() * 12))}${i}`
        const content = pick(Math.floor(next() * 300)) + '\n'
        if (name === '.' || name === '..') continue
        const w = await run('write_file', {location_id: 'tmp', path: `random/${name}`, content})
        expect(w.error, JSON.stringify(name)).to.equal(undefined)
        expect(readFileSync(path.join(tmp, 'random', name), 'utf8'), JSON.stringify(name)).to.equal(content)
      }
    })

    it('writes over 64 KiB (several sync DATA chunks) exactly', async () => {
      const content = 'abcdefghij\n'.repeat(20_000)
      expect((await run('write_file', {location_id: 'tmp', path: 'large.txt', content})).error).to.equal(undefined)
      expect(readFileSync(path.join(tmp, 'large.txt'), 'utf8')).to.equal(content)
    })
  })

  describe('an interrupted write leaves the old file', () => {
    it('when the rename fails, the old content stays and the temporary file is removed', async () => {
      writeFileSync(path.join(tmp, 'precious.txt'), 'old content')
      h.emu.device('emu-1').addFault({command: 'mv', kind: 'error', message: 'mv: rename failed: I/O error\n'})
      const r = await run('write_file', {location_id: 'tmp', path: 'precious.txt', content: 'new content'})
      expect(r.error?.code).to.equal('DEVICE_COMMAND_FAILED')
      expect(readFileSync(path.join(tmp, 'precious.txt'), 'utf8')).to.equal('old content')
      expect(readdirSync(tmp).filter((n) => n.includes('precious.txt.arc-'))).to.deep.equal([])
    })

    it('when the device stops answering mid-write, the old content stays', async () => {
      writeFileSync(path.join(tmp, 'precious2.txt'), 'old content')
      h.emu.device('emu-1').addFault({command: 'mv', kind: 'hang'})
      const driver = await h.driver(undefined, 1500)
      const ctx = toolContext(driver)
      const error = await tool('write_file')
        .handler(
          ctx,
          tool('write_file').input.parse({location_id: 'tmp', path: 'precious2.txt', content: 'new content'})
        )
        .then(
          () => undefined,
          (e: ArcError) => e
        )
      expect(error?.code).to.equal('TIMEOUT')
      expect(readFileSync(path.join(tmp, 'precious2.txt'), 'utf8')).to.equal('old content')
    })
  })

  describe('a rename whose answer is lost: the result is the truth (rename(2) is atomic: done whole or not at all)', () => {
    /** Runs write_file through a driver with a short time limit; the error it threw, if any. */
    async function write(file: string, content: string) {
      const driver = await h.driver(undefined, 1500)
      const ctx = toolContext(driver)
      try {
        return await tool('write_file')
          .handler(ctx, tool('write_file').input.parse({location_id: 'tmp', path: file, content}))
          .then(
            () => undefined,
            (e: ArcError) => e
          )
      } finally {
        await driver.close()
      }
    }
    const temps = (name: string) => readdirSync(tmp).filter((n) => n.startsWith(`.${name}.arc-`))

    it('a mv that renamed and then hung past the time limit: reported written, and the new content is there', async () => {
      writeFileSync(path.join(tmp, 'lost-answer.txt'), 'old content')
      h.emu.device('emu-1').addFault({command: 'mv', kind: 'hang', after: true})
      expect(await write('lost-answer.txt', 'new content')).to.equal(undefined)
      expect(readFileSync(path.join(tmp, 'lost-answer.txt'), 'utf8')).to.equal('new content')
      expect(temps('lost-answer.txt')).to.deep.equal([])
    })

    it('a mv that hung before renaming: TIMEOUT, the old content, no temporary file', async () => {
      writeFileSync(path.join(tmp, 'hung.txt'), 'old content')
      h.emu.device('emu-1').addFault({command: 'mv', kind: 'hang'})
      expect((await write('hung.txt', 'new content'))?.code).to.equal('TIMEOUT')
      expect(readFileSync(path.join(tmp, 'hung.txt'), 'utf8')).to.equal('old content')
      expect(temps('hung.txt')).to.deep.equal([])
    })

    it('a device gone after the rename: DEVICE_UNAVAILABLE saying the file holds old or new whole; the next write clears what is left', async () => {
      const device = h.emu.device('emu-1')
      writeFileSync(path.join(tmp, 'gone.txt'), 'old content')
      device.addFault({command: 'mv', kind: 'disconnect'})
      const error = await write('gone.txt', 'new content')
      device.reconnect()
      expect(error?.code).to.equal('DEVICE_UNAVAILABLE')
      expect(error?.message).to.match(
        /^writing \/data\/local\/tmp\/gone\.txt on emu-1: the rename of the new content over it was sent but not answered/
      )
      expect(error?.actions?.[0]).to.equal(
        'The file holds its old content or the new one, whole (a rename is atomic): read it once the device is back.'
      )
      // This mv never ran: the old content, and the temporary file the next write removes.
      expect(readFileSync(path.join(tmp, 'gone.txt'), 'utf8')).to.equal('old content')
      expect(temps('gone.txt')).to.have.length(1)
      expect(await write('gone.txt', 'newer content')).to.equal(undefined)
      expect(readFileSync(path.join(tmp, 'gone.txt'), 'utf8')).to.equal('newer content')
      expect(temps('gone.txt')).to.deep.equal([])
    })

    it('temporary files of killed writes are removed by the next write of that file, and only of that file', async () => {
      writeFileSync(path.join(tmp, 'killed.txt'), 'old')
      writeFileSync(path.join(tmp, '.killed.txt.arc-0123abcd.tmp'), 'half')
      writeFileSync(path.join(tmp, '.killed.txt.arc-deadbeef.tmp'), 'half')
      writeFileSync(path.join(tmp, '.other.txt.arc-0123abcd.tmp'), 'not ours to remove')
      writeFileSync(path.join(tmp, '.killed.txt.arc-notours.tmp'), 'a name arc never makes')
      expect(await write('killed.txt', 'new')).to.equal(undefined)
      expect(temps('killed.txt')).to.deep.equal(['.killed.txt.arc-notours.tmp'])
      expect(existsSync(path.join(tmp, '.other.txt.arc-0123abcd.tmp'))).to.equal(true)
    })
  })

  describe('the file lock', () => {
    it('an edit waits for the lock another arc holds, and goes on once that arc is gone (its connection closed)', async () => {
      writeFileSync(path.join(tmp, 'locked.txt'), 'a\n')
      const holder = await h.driver()
      let entered!: () => void
      const inside = new Promise<void>((resolve) => (entered = resolve))
      // An arc killed while holding the lock: its work never ends; only its connections close.
      void holder.withFileLock('/data/local/tmp/locked.txt', () => {
        entered()
        return new Promise(() => {})
      })
      await inside
      const waiting = run('append_file', {location_id: 'tmp', path: 'locked.txt', content: 'b\n'})
      await new Promise((resolve) => setTimeout(resolve, 500))
      expect(readFileSync(path.join(tmp, 'locked.txt'), 'utf8')).to.equal('a\n')
      await holder.close()
      expect((await waiting).error).to.equal(undefined)
      expect(readFileSync(path.join(tmp, 'locked.txt'), 'utf8')).to.equal('a\nb\n')
    })

    it('a lock held past the time limit: TIMEOUT naming the file, nothing written', async () => {
      writeFileSync(path.join(tmp, 'busy.txt'), 'a\n')
      const holder = await h.driver()
      let entered!: () => void
      const inside = new Promise<void>((resolve) => (entered = resolve))
      let finish!: () => void
      const held = holder.withFileLock('/data/local/tmp/busy.txt', () => {
        entered()
        return new Promise<void>((resolve) => (finish = resolve))
      })
      await inside
      const driver = await h.driver(undefined, 1000)
      const ctx = toolContext(driver)
      const error = await tool('append_file')
        .handler(ctx, tool('append_file').input.parse({location_id: 'tmp', path: 'busy.txt', content: 'b\n'}))
        .then(
          () => undefined,
          (e: ArcError) => e
        )
      await driver.close()
      finish()
      await held
      await holder.close()
      expect(error?.code).to.equal('TIMEOUT')
      expect(error?.message).to.equal(
        'waiting to edit /data/local/tmp/busy.txt on emu-1: other edits of it have held it for 3000 ms'
      )
      expect(readFileSync(path.join(tmp, 'busy.txt'), 'utf8')).to.equal('a\n')
    })
  })

  describe('the file lock on shared storage, where a phone finds a name whatever its case', () => {
    it('an edit of notes.TXT waits for the lock held on Notes.txt: they are one file there', async () => {
      writeFileSync(path.join(downloads, 'Notes.txt'), 'a\n')
      const holder = await h.driver()
      let entered!: () => void
      const inside = new Promise<void>((resolve) => (entered = resolve))
      let finish!: () => void
      const held = holder.withFileLock('/storage/emulated/0/Download/Notes.txt', () => {
        entered()
        return new Promise<void>((resolve) => (finish = resolve))
      })
      await inside
      const driver = await h.driver(undefined, 1000)
      const error = await tool('append_file')
        .handler(
          toolContext(driver),
          tool('append_file').input.parse({location_id: 'downloads', path: 'notes.TXT', content: 'b\n'})
        )
        .then(
          () => undefined,
          (e: ArcError) => e
        )
      await driver.close()
      finish()
      await held
      await holder.close()
      expect(error?.code).to.equal('TIMEOUT')
      expect(readFileSync(path.join(downloads, 'Notes.txt'), 'utf8')).to.equal('a\n')
    })

    it('the next write of Notes.txt removes what killed writes of notes.TXT left: they wrote the same file', async () => {
      writeFileSync(path.join(downloads, 'Notes.txt'), 'old')
      writeFileSync(path.join(downloads, '.notes.TXT.arc-0123abcd.tmp'), 'half')
      writeFileSync(path.join(downloads, '.Other.txt.arc-0123abcd.tmp'), 'not ours to remove')
      expect((await run('write_file', {location_id: 'downloads', path: 'Notes.txt', content: 'new'})).error).to.equal(
        undefined
      )
      expect(existsSync(path.join(downloads, '.notes.TXT.arc-0123abcd.tmp'))).to.equal(false)
      expect(existsSync(path.join(downloads, '.Other.txt.arc-0123abcd.tmp'))).to.equal(true)
      expect(readFileSync(path.join(downloads, 'Notes.txt'), 'utf8')).to.equal('new')
    })

    it('in /data/local/tmp, whose file system tells case apart, Notes.txt and notes.txt are two files and two locks', async () => {
      writeFileSync(path.join(tmp, 'Notes.txt'), 'upper\n')
      writeFileSync(path.join(tmp, 'notes.txt'), 'lower\n')
      const holder = await h.driver()
      let entered!: () => void
      const inside = new Promise<void>((resolve) => (entered = resolve))
      let finish!: () => void
      const held = holder.withFileLock('/data/local/tmp/Notes.txt', () => {
        entered()
        return new Promise<void>((resolve) => (finish = resolve))
      })
      await inside
      const appended = await run('append_file', {location_id: 'tmp', path: 'notes.txt', content: 'b\n'})
      finish()
      await held
      await holder.close()
      expect(appended.error).to.equal(undefined)
      expect(readFileSync(path.join(tmp, 'notes.txt'), 'utf8')).to.equal('lower\nb\n')
      expect(readFileSync(path.join(tmp, 'Notes.txt'), 'utf8')).to.equal('upper\n')
    })
  })

  describe('download_from_url', () => {
    let server: http.Server
    let base: string
    const payload = randomBytes(150_000)
    before(async () => {
      server = http.createServer((req, res) => {
        if (req.url === '/file.bin') res.end(payload)
        else if (req.url === '/redirect') res.writeHead(302, {location: '/file.bin'}).end()
        else if (req.url === '/slow') setTimeout(() => res.end('late'), 3000)
        else res.writeHead(404).end('no')
      })
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    })
    after(() => {
      server.closeAllConnections()
      server.close()
    })
    // The test's server is on this machine's loopback, which downloads reach only where the config allows it.
    const allowHttp = (more: Record<string, unknown> = {}): ArcConfig => ({
      files: {download: {allowHttp: true, allowPrivateAddresses: true, ...more}},
    })

    // An agent over MCP, or a flow from a repository, names the URL: the host fetched what only it could reach (a
    // service on its loopback, an intranet page, a cloud's instance metadata) onto the device, for read_file.
    it('refuses a non-public address, written or resolved from a name, unless files.download.allowPrivateAddresses', async () => {
      const port = (server.address() as AddressInfo).port
      for (const [url, address] of [
        [`http://127.0.0.1:${port}/file.bin`, '127.0.0.1'],
        [`http://2130706433:${port}/file.bin`, '127.0.0.1'],
        [`http://[::ffff:127.0.0.1]:${port}/file.bin`, '::ffff:7f00:1'],
        [`http://localhost:${port}/file.bin`, undefined],
        [`http://169.254.169.254/latest/meta-data/`, '169.254.169.254'],
        [`http://10.1.2.3:${port}/file.bin`, '10.1.2.3'],
      ] as const) {
        const r = await run(
          'download_from_url',
          {location_id: 'tmp', path: 'private.bin', url},
          {
            files: {download: {allowHttp: true}},
          }
        )
        expect(r.error?.code, url).to.equal('PERMISSION_DENIED')
        expect(r.error?.message, url).to.match(
          new RegExp(
            `^download from a non-public address not allowed: \\S+ is ${address === undefined ? '(127\\.0\\.0\\.1|::1)' : address.replaceAll('.', '\\.')} `
          )
        )
      }
      expect(existsSync(path.join(tmp, 'private.bin'))).to.equal(false)
      const allowed = await run(
        'download_from_url',
        {location_id: 'tmp', path: 'private.bin', url: `http://localhost:${port}/file.bin`},
        allowHttp()
      )
      expect(allowed.error).to.equal(undefined)
      expect(readFileSync(path.join(tmp, 'private.bin')).equals(payload)).to.equal(true)
    })

    it('refuses plain http unless the config allows it', async () => {
      const r = await run('download_from_url', {location_id: 'tmp', path: 'dl.bin', url: `${base}/file.bin`})
      expect(r.error?.code).to.equal('PERMISSION_DENIED')
      expect(r.error?.message).to.equal(`HTTP not allowed: ${base}/file.bin is not https`)
      expect(existsSync(path.join(tmp, 'dl.bin'))).to.equal(false)
    })

    it('downloads on the host and pushes the bytes exactly, following a redirect', async () => {
      const r = await run(
        'download_from_url',
        {location_id: 'tmp', path: 'images/dl.bin', url: `${base}/redirect`},
        allowHttp()
      )
      expect(r.text).to.equal('File downloaded successfully: images/dl.bin')
      expect(readFileSync(path.join(tmp, 'images/dl.bin')).equals(payload)).to.equal(true)
    })

    it('reports HTTP errors, the size limit, the time limit and bad URLs', async () => {
      expect(
        (await run('download_from_url', {location_id: 'tmp', path: 'x', url: `${base}/missing`}, allowHttp())).error
          ?.code
      ).to.equal('DOWNLOAD_FAILED')
      expect(
        (
          await run(
            'download_from_url',
            {location_id: 'tmp', path: 'x', url: `${base}/file.bin`},
            allowHttp({maxBytes: 1000})
          )
        ).error?.code
      ).to.equal('FILE_TOO_LARGE')
      expect(
        (
          await run(
            'download_from_url',
            {location_id: 'tmp', path: 'x', url: `${base}/slow`},
            allowHttp({timeoutMs: 300})
          )
        ).error?.code
      ).to.equal('TIMEOUT')
      expect((await run('download_from_url', {location_id: 'tmp', path: 'x', url: 'not a url'})).error?.code).to.equal(
        'INVALID_INPUT'
      )
      expect(
        (await run('download_from_url', {location_id: 'tmp', path: 'x', url: 'ftp://example.com/x'})).error?.code
      ).to.equal('INVALID_INPUT')
      expect(existsSync(path.join(tmp, 'x'))).to.equal(false)
    })
  })

  describe('download_from_url over https with a certificate that does not verify', () => {
    let server: https.Server | undefined
    let url = ''
    before(async function () {
      // A throwaway self-signed certificate (openssl on the test machine; skipped without it).
      const dir = mkdtempSync(path.join(os.tmpdir(), 'arc-cert-'))
      try {
        execFileSync(
          'openssl',
          [
            'req',
            '-x509',
            '-newkey',
            'rsa:2048',
            '-nodes',
            '-keyout',
            path.join(dir, 'key.pem'),
            '-out',
            path.join(dir, 'cert.pem'),
            '-days',
            '1',
            '-subj',
            '/CN=127.0.0.1',
          ],
          {stdio: 'ignore'}
        )
      } catch {
        rmSync(dir, {recursive: true, force: true})
        this.skip()
      }
      server = https.createServer(
        {key: readFileSync(path.join(dir, 'key.pem')), cert: readFileSync(path.join(dir, 'cert.pem'))},
        (_req, res) => res.end('secret-ish')
      )
      rmSync(dir, {recursive: true, force: true})
      await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve))
      url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/x.txt`
    })
    after(() => {
      server?.closeAllConnections()
      server?.close()
    })

    it('refuses it by default and accepts it with allowUnverifiedHttps', async () => {
      const refused = await run(
        'download_from_url',
        {location_id: 'tmp', path: 'tls/x.txt', url},
        {files: {download: {allowPrivateAddresses: true}}}
      )
      expect(refused.error?.code).to.equal('PERMISSION_DENIED')
      expect(refused.error?.message).to.match(
        /^unverified HTTPS not allowed: the certificate of 127\.0\.0\.1:\d+ does not verify \(DEPTH_ZERO_SELF_SIGNED_CERT\)$/
      )
      expect(existsSync(path.join(tmp, 'tls/x.txt'))).to.equal(false)
      const allowed = await run(
        'download_from_url',
        {location_id: 'tmp', path: 'tls/x.txt', url},
        {files: {download: {allowUnverifiedHttps: true, allowPrivateAddresses: true}}}
      )
      expect(allowed.error).to.equal(undefined)
      expect(readFileSync(path.join(tmp, 'tls/x.txt'), 'utf8')).to.equal('secret-ish')
    })
  })

  describe('from the CLI', () => {
    it('arc files write / read / delete: positional location and path, the spec texts, exit codes', async () => {
      const env = {ADB_SERVER_SOCKET: `tcp:127.0.0.1:${h.emu.port}`}
      const write = await runArc(['files', 'write', 'tmp', 'cli/notes.txt', '--content', "it's\nhere"], {env})
      expect([write.code, write.stdout, write.stderr]).to.deep.equal([
        0,
        'File written successfully: cli/notes.txt\n',
        '',
      ])
      expect(readFileSync(path.join(tmp, 'cli/notes.txt'), 'utf8')).to.equal("it's\nhere")
      const read = await runArc(['files', 'read', 'tmp', 'cli/notes.txt', '--json'], {env})
      expect(read.code).to.equal(0)
      expect(JSON.parse(read.stdout)).to.include({path: 'cli/notes.txt', total_lines: 2})
      const denied = await runArc(['files', 'delete', 'downloads', 'x.txt'], {env})
      expect(denied.code).to.equal(15)
      expect(denied.stderr).to.include(
        'Error [PERMISSION_DENIED]: delete not allowed in storage location downloads (/sdcard/Download)'
      )
    })
  })
})
