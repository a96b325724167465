/**
 * arc mcp serve: what the MCP layer adds to a tool call. get_screen_state on the demo device, 1,000 calls through
 * the SDK client over Streamable HTTP against the same call through runTool in process (the handler's own time,
 * device opening included); 20 clients at once against a separate server process; the size of tools/list in o200k tokens. Run: npm run bench mcp
 */
import {spawn} from 'node:child_process'
import path from 'node:path'

import {DEMO_DIR, MemoryDeviceState, openSnapshot, runTool} from '@arc-cli/core'
import type {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {encode} from 'gpt-tokenizer/encoding/o200k_base'

import {allTools, connect, ROOT, startServer, TOKEN} from '../plugins/mcp/test/support.js'
import {fmt, percentile, timeRuns} from './stats.js'

const CALLS = Number(process.env.MCP_BENCH_CALLS ?? 1000)
const CLIENTS = 20

export default async function bench(): Promise<void> {
  const tools = await allTools()
  const tool = tools.find((t) => t.name === 'get_screen_state')!
  const state = new MemoryDeviceState()
  const direct = await timeRuns(
    () =>
      runTool(
        tool,
        {input: {}},
        {config: {}, cwd: process.cwd(), openDriver: () => openSnapshot(DEMO_DIR, 'demo'), stateFor: () => state}
      ),
    CALLS,
    50
  )

  const server = await startServer({devices: ['demo']})
  try {
    // Server side alone: from the request's arrival to its last byte written, and the tool call inside it.
    const inner: number[] = []
    const whole: number[] = []
    const call0 = server.host.call.bind(server.host)
    server.host.call = async (...args: Parameters<typeof call0>) => {
      const t = performance.now()
      const result = await call0(...args)
      inner.push(performance.now() - t)
      return result
    }
    server.server.prependListener('request', (_req, res) => {
      const t = performance.now()
      res.once('finish', () => whole.push(performance.now() - t))
    })
    const client = await connect(server.url)
    const call = () => client.callTool({name: 'android_get_screen_state', arguments: {}})
    const served = await timeRuns(call, CALLS, 50)
    const serverSide = whole.slice(-CALLS).map((w, i) => w - (inner.slice(-CALLS)[i] as number))
    const p = (values: number[], q: number) => percentile(values, q)
    console.log(`get_screen_state, ${CALLS} calls one after another:`)
    console.log(`  handler (runTool in process): p50 ${fmt(p(direct, 50))}, p99 ${fmt(p(direct, 99))}`)
    console.log(`  tools/call over HTTP:         p50 ${fmt(p(served, 50))}, p99 ${fmt(p(served, 99))}`)
    console.log(
      `  in the server, beyond the tool call (HTTP checks, SDK transport and protocol): p50 ${fmt(p(serverSide, 50))}, p99 ${fmt(p(serverSide, 99))}`
    )
    console.log(
      `  MCP overhead (client and server in this one process): p50 ${fmt(p(served, 50) - p(direct, 50))}, p99 ${fmt(p(served, 99) - p(direct, 99))} (target p50 <= 3 ms)`
    )

    // Concurrency with the server in its own process (as in use), so the clients' work does not slow it down.
    const child = spawn(
      process.execPath,
      ['--conditions=arc-source', path.join(ROOT, 'bin', 'dev.js'), 'mcp', 'serve', '--device', 'demo', '--port', '0'],
      {
        env: {...process.env, NODE_OPTIONS: '', ARC_MCP_TOKEN: TOKEN},
        stdio: ['ignore', 'ignore', 'pipe'],
      }
    )
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let err = ''
        child.stderr.on('data', (d) => {
          err += d
          const m = /listening on (http:\S+)/.exec(err)
          if (m) resolve(m[1] as string)
        })
        child.once('exit', () => reject(new Error(`arc mcp serve ended: ${err}`)))
      })
      const clients: Client[] = await Promise.all(Array.from({length: CLIENTS}, () => connect(url)))
      for (const c of clients) await c.callTool({name: 'android_get_screen_state', arguments: {}})
      const latencies: number[] = []
      const per = CALLS / CLIENTS
      const start = process.hrtime.bigint()
      await Promise.all(
        clients.map(async (c) => {
          for (let i = 0; i < per; i++) {
            const t = process.hrtime.bigint()
            await c.callTool({name: 'android_get_screen_state', arguments: {}})
            latencies.push(Number(process.hrtime.bigint() - t) / 1e6)
          }
        })
      )
      const seconds = Number(process.hrtime.bigint() - start) / 1e9
      console.log(
        `${CLIENTS} clients at once against a separate arc mcp serve, ${CALLS} calls: ${(CALLS / seconds).toFixed(0)} calls/s, p50 ${fmt(p(latencies, 50))}, p99 ${fmt(p(latencies, 99))}`
      )
      await Promise.all(clients.map((c) => c.close()))
    } finally {
      child.kill('SIGTERM')
    }

    const listing = await client.listTools()
    const tokens = encode(JSON.stringify(listing.tools)).length
    console.log(
      `tools/list: ${listing.tools.length} tools, ${tokens} o200k tokens (${Math.round(tokens / listing.tools.length)} per tool; budget 6000)`
    )
    await client.close()
  } finally {
    await server.close()
  }
}
