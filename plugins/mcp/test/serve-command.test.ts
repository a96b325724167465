import {spawn} from 'node:child_process'
import path from 'node:path'

import {expect} from 'chai'

import {connect, ROOT} from './support.js'

describe('arc mcp serve (spawned, HTTP)', () => {
  it('without a token prints a generated one once with a client config, warns off loopback, and stops on SIGINT', async function () {
    this.timeout(60_000)
    const env: NodeJS.ProcessEnv = {...process.env, NODE_OPTIONS: '', NO_COLOR: '1'}
    delete env.ARC_MCP_TOKEN
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
        if (stderr.includes('Claude Code:')) resolve()
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
      'token in the config and the claude line, once each block'
    ).to.equal(3)
    expect(JSON.parse(stderr.slice(stderr.indexOf('{'), stderr.lastIndexOf('}') + 1))).to.deep.equal({
      mcpServers: {arc: {type: 'http', url: `http://0.0.0.0:${port}/mcp`, headers: {Authorization: `Bearer ${token}`}}},
    })
    const client = await connect(`http://127.0.0.1:${port}/mcp`, token)
    expect((await client.listTools()).tools.length).to.be.greaterThan(10)
    await client.close()
    child.kill('SIGINT')
    expect(await exited).to.equal(0)
    expect(stdout).to.equal('')
  })
})
