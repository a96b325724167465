/**
 * install_app over MCP takes only APKs inside the folder the server was given (--apk-folder, apps.apkFolder), and
 * its errors never tell whether a file outside that folder exists; without a folder it is not served at all.
 */
import {mkdir, mkdtemp, rm, symlink, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

import {DEMO_DIR} from '@arc-cli/core'
import type {StartedHttp} from '@arc-cli/plugin-mcp'
import {startEmulator, type Emulator} from '@arc-cli/emulator'
import {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js'
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js'
import {expect} from 'chai'

import {allTools, connect, ROOT, startServer} from './support.js'

const textOf = (result: CallToolResult) => (result.content[0] as {text: string}).text

describe('install_app over MCP: APKs from the allowed folder only', () => {
  let emu: Emulator
  let root: string
  let folder: string
  let server: StartedHttp
  before(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'arc-apk-folder-'))
    folder = path.join(root, 'apks')
    await mkdir(path.join(folder, 'sub'), {recursive: true})
    const apk = Buffer.concat([
      Buffer.from('PK\u0003\u0004', 'latin1'),
      Buffer.from('ARC_EMULATE_PACKAGE=com.example.ok'),
    ])
    await writeFile(path.join(folder, 'sub', 'ok.apk'), apk)
    // Outside the folder: a file that exists, and links from inside to it and to nothing.
    await writeFile(path.join(root, 'secret.apk'), apk)
    await symlink(path.join(root, 'secret.apk'), path.join(folder, 'escape.apk'))
    await symlink(path.join(root, 'nothing.apk'), path.join(folder, 'dangling.apk'))
    emu = await startEmulator({port: 0, devices: [{serial: 'emu-1', snapshot: DEMO_DIR}]})
    server = await startServer({devices: [], adbHost: '127.0.0.1', adbPort: emu.port, apkFolder: folder})
  })
  after(async () => {
    await server?.close()
    await emu?.close()
    await rm(root, {recursive: true, force: true})
  })

  const install = async (apk: string) => {
    const from = emu.commands.length
    const result = (await server.host.call('android_install_app', {apk, replace: true})) as CallToolResult
    return {result, text: textOf(result), sent: emu.commands.slice(from).map((c) => c.argv.join(' '))}
  }

  it('installs an APK named relative to the folder (or by its absolute path inside it)', async () => {
    for (const apk of ['sub/ok.apk', path.join(folder, 'sub', 'ok.apk')]) {
      const {result, text, sent} = await install(apk)
      expect(result.isError, text).to.not.equal(true)
      expect(text).to.equal(`App installed successfully: ${path.join(folder, 'sub', 'ok.apk')}`)
      expect(sent.some((c) => c.startsWith('pm install'))).to.equal(true)
    }
  })

  it('refuses any path outside the folder with one answer, whether or not the file exists, sending nothing', async () => {
    const answers = new Set<string>()
    for (const apk of [path.join(root, 'secret.apk'), path.join(root, 'nothing.apk'), '../secret.apk', '/etc/passwd']) {
      const {result, text, sent} = await install(apk)
      expect(result.isError, apk).to.equal(true)
      expect(sent, apk).to.deep.equal([])
      answers.add(text)
    }
    expect([...answers]).to.have.length(1)
    expect([...answers][0]).to.match(/^Error \[INVALID_INPUT\]: apk must name a file inside the APK folder /)
  })

  it('answers a link out of the folder as a missing file, whether its target exists or not', async () => {
    const answers = new Set<string>()
    for (const apk of ['escape.apk', 'dangling.apk', 'missing.apk', 'sub']) {
      const {result, text, sent} = await install(apk)
      expect(result.isError, apk).to.equal(true)
      expect(sent, apk).to.deep.equal([])
      answers.add(text.replace(JSON.stringify(apk), '<apk>'))
    }
    expect([...answers]).to.have.length(1)
    expect([...answers][0]).to.match(/^Error \[INVALID_INPUT\]: apk: no APK <apk> in the APK folder /)
  })

  it('is not served without a folder; --apk-folder must name a folder', async () => {
    const plain = await startServer({devices: ['demo']})
    try {
      const client = await connect(plain.url)
      const names = (await client.listTools()).tools.map((t) => t.name)
      await client.close()
      expect(names).to.not.include('android_install_app')
      expect(names).to.include('android_uninstall_app')
      expect((await allTools()).some((t) => t.name === 'install_app')).to.equal(true)
    } finally {
      await plain.close()
    }
    let error: {code?: string; message?: string} | undefined
    try {
      await startServer({devices: ['demo'], apkFolder: path.join(root, 'no-such-folder')})
    } catch (caught) {
      error = caught as typeof error
    }
    expect(error?.code).to.equal('INVALID_INPUT')
    expect(error?.message).to.match(/^--apk-folder: .* is not a folder$/)
  })

  it('arc mcp serve --apk-folder (a spawned arc, stdio): INVALID_INPUT outside the folder, a link out as missing', async function () {
    this.timeout(60_000)
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        '--conditions=arc-source',
        path.join(ROOT, 'bin', 'dev.js'),
        ...['mcp', 'serve', '--stdio', '--adb-port', String(emu.port), '--apk-folder', folder],
      ],
      cwd: ROOT,
      env: {...(process.env as Record<string, string>), NODE_OPTIONS: '', NO_COLOR: '1'},
      stderr: 'pipe',
    })
    const client = new Client({name: 'arc-test', version: '0.0.0'})
    await client.connect(transport)
    try {
      for (const [apk, message] of [
        [path.join(root, 'secret.apk'), 'apk must name a file inside the APK folder'],
        ['escape.apk', 'apk: no APK "escape.apk" in the APK folder'],
      ] as const) {
        const result = (await client.callTool({name: 'android_install_app', arguments: {apk}})) as CallToolResult
        expect(textOf(result)).to.include(`Error [INVALID_INPUT]: ${message} ${folder} `)
      }
    } finally {
      await client.close()
    }
  })
})
