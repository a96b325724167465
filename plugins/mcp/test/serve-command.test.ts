import {spawn} from 'node:child_process'
import os from 'node:os'
import path from 'node:path'

import {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js'
import {expect} from 'chai'

import {connect, ROOT} from './support.js'

describe('arc mcp serve (spawned, HTTP)', () => {
  it('without a token prints a generated one once with a client config, warns off loopback, and stops on SIGINT', async function () {
    this.timeout(60_000)
    const env: NodeJS.ProcessEnv = {...process.env, NODE_OPTIONS: '', NO_COLOR: '1'}
    delete env.ARC_MCP_TOKEN
    // The Claude Desktop config carries these into its env when set; this test expects none.
    for (const name of [
      'ADB_SERVER_SOCKET',
      'ANDROID_ADB_SERVER_ADDRESS',
      'ANDROID_ADB_SERVER_PORT',
      'ANDROID_SERIAL',
      'ARC_CONFIG',
      'ARC_HELPER',
      'ARC_HELPER_HOLD_MS',
    ])
      delete env[name]
    const child = spawn(
      process.execPath,
      [
        '--conditions=arc-source',
        path.join(ROOT, 'bin', 'dev.js'),
        'mcp',
        'serve',
        '--device',
        'demo',
        '--port',
        '0',
        '--host',
        '0.0.0.0',
      ],
      {cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe']}
    )
    let stderr = ''
    let stdout = ''
    child.stdout.on('data', (d) => (stdout += d))
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
    await new Promise<void>((resolve, reject) => {
      child.stderr.on('data', (d) => {
        stderr += d
        if (/Claude Desktop \(.*\n.*\n/.test(stderr)) resolve()
      })
      child.once('exit', () => reject(new Error(stderr)))
    })
    expect(stderr).to.match(/warning: listening on 0\.0\.0\.0, reachable from other machines/)
    const port = /listening on http:\/\/0\.0\.0\.0:(\d+)\/mcp/.exec(stderr)?.[1]
    const token = /generated one for this run:\n([A-Za-z0-9_-]{43})\n/.exec(stderr)?.[1]
    expect(port).to.be.a('string')
    expect(token).to.be.a('string')
    expect(
      stderr.split(token as string).length - 1,
      'the token alone, then in the VS Code, Cursor and Claude Code configs'
    ).to.equal(4)
    // Each client's config on the line after its label, in the form that client documents (docs/mcp.md).
    const after = (label: string) => {
      const lines = stderr.split('\n')
      return JSON.parse(lines[lines.findIndex((l) => l.startsWith(label)) + 1] as string) as unknown
    }
    const url = `http://0.0.0.0:${port}/mcp`
    const headers = {Authorization: `Bearer ${token}`}
    expect(after('VS Code (.vscode/mcp.json)')).to.deep.equal({servers: {arc: {type: 'http', url, headers}}})
    expect(after('Cursor (~/.cursor/mcp.json)')).to.deep.equal({mcpServers: {arc: {url, headers}}})
    expect(stderr).to.include(
      `Claude Code: claude mcp add --transport http arc ${url} --header "Authorization: Bearer ${token}"`
    )
    const desktop = after('Claude Desktop (claude_desktop_config.json') as {
      mcpServers: {arc: {command: string; args: string[]; env?: Record<string, string>}}
    }
    expect(Object.keys(desktop.mcpServers.arc).sort()).to.deep.equal(['args', 'command'])
    expect(desktop.mcpServers.arc.command).to.equal(process.execPath)
    expect(desktop.mcpServers.arc.args).to.deep.equal([
      '--conditions=arc-source',
      path.join(ROOT, 'bin', 'dev.js'),
      'mcp',
      'serve',
      '--stdio',
      '--device',
      'demo',
    ])
    // What Claude Desktop would do with it: start that command (from elsewhere) and talk to it over stdio.
    const desktopClient = new Client({name: 'claude-desktop-like', version: '0'})
    await desktopClient.connect(
      new StdioClientTransport({...desktop.mcpServers.arc, cwd: os.tmpdir(), env: {PATH: process.env.PATH ?? ''}})
    )
    expect((await desktopClient.listTools()).tools.map((t) => t.name)).to.include('android_get_screen_state')
    await desktopClient.close()
    const client = await connect(`http://127.0.0.1:${port}/mcp`, token)
    expect((await client.listTools()).tools.length).to.be.greaterThan(10)
    await client.close()
    child.kill('SIGINT')
    expect(await exited).to.equal(0)
    expect(stdout).to.equal('')
  })
})

describe('arc mcp serve (spawned, HTTP): signals', () => {
  // SIGHUP is what a server started in a terminal or an SSH session gets when that goes away: it ended the process
  // at once, a call in flight cut off without its put-backs.
  for (const signal of ['SIGTERM', 'SIGHUP'] as const)
    it(`stops cleanly on ${signal}, exit 0, after closing`, async function () {
      this.timeout(60_000)
      const child = spawn(
        process.execPath,
        [
          '--conditions=arc-source',
          path.join(ROOT, 'bin', 'dev.js'),
          'mcp',
          'serve',
          '--device',
          'demo',
          '--port',
          '0',
        ],
        {
          cwd: ROOT,
          env: {...process.env, NODE_OPTIONS: '', NO_COLOR: '1', ARC_MCP_TOKEN: 'signal-test-token-0123456789'},
        }
      )
      let stderr = ''
      const listening = new Promise<void>((resolve) =>
        child.stderr.on('data', (d: Buffer) => {
          stderr += d.toString()
          if (stderr.includes('listening on')) resolve()
        })
      )
      const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
        child.once('exit', (code, killed) => resolve([code, killed]))
      )
      await listening
      child.kill(signal)
      expect(await exited, stderr).to.deep.equal([0, null])
    })
})

describe('arc mcp serve: flags that contradict --stdio', () => {
  // --port, --host and --allow-origin configure the HTTP server; with --stdio they were dropped without a word, so
  // `--stdio --port 5000` served on stdin/stdout while its user waited for a port that never listened.
  it('--stdio with --port, --host or --allow-origin is INVALID_INPUT naming the flag, before anything is served', async function () {
    this.timeout(60_000)
    const {runArc} = await import('@arc-cli/test-support/run-arc')
    for (const extra of [
      ['--port', '5000'],
      ['--host', '0.0.0.0'],
      ['--allow-origin', 'https://example.com'],
    ]) {
      const run = await runArc(['mcp', 'serve', '--stdio', '--device', 'demo', ...extra], {input: ''})
      expect(run.code, run.stderr).to.equal(2)
      expect(run.stderr).to.include(`${extra[0]} is for HTTP`).and.include('--stdio')
      expect(run.stdout).to.equal('')
    }
  })

  // The config's mcp.maxBodyBytes stops at 1 GiB; the flag had no bound: --max-body 5000000000 was taken, and a
  // message that big was buffered whole.
  it('--max-body above 1 GiB is INVALID_INPUT, as mcp.maxBodyBytes is INVALID_CONFIG', async function () {
    this.timeout(60_000)
    const {runArc} = await import('@arc-cli/test-support/run-arc')
    const run = await runArc(['mcp', 'serve', '--stdio', '--device', 'demo', '--max-body', '5000000000'], {input: ''})
    expect(run.code, run.stderr).to.equal(2)
    expect(run.stderr).to.match(/^Error \[INVALID_INPUT\]: .*max-body/m)
    const most = await runArc(['mcp', 'serve', '--stdio', '--device', 'demo', '--max-body', String(1024 ** 3)], {
      input: '',
    })
    expect(most.code, most.stderr).to.equal(0)
  })
})
