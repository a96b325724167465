/**
 * `npm run bench -- mcp-clients`: 50 MCP clients at once against one `arc mcp serve` (HTTP, its own process) driving
 * `arc emulate` (its own process, the live demo app, waits scaled to 0 so the figures are arc's cost and not a
 * phone's 1 s per dump). Each client connects with the SDK (its own session) and calls get_screen_state
 * (detail compact) 10 times, one after another; all clients start together. Latency is per call as the client sees
 * it, queueing included: reads of one device run one at a time (a phone runs one UiAutomation at a time), so with
 * one device the 50 clients wait in line, and with 5 devices 10 clients share each.
 */
import {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {StreamableHTTPClientTransport} from '@modelcontextprotocol/sdk/client/streamableHttp.js'

import {fmt, percentile} from './stats.js'
import {startEmulate, startMcpHttp} from './support/arc-processes.js'

const CLIENTS = 50
const CALLS = Number(process.env.MCP_CLIENTS_CALLS ?? 10)
const TOKEN = 'bench-token-0123456789abcdef'

async function connect(url: string): Promise<Client> {
  const client = new Client({name: 'bench', version: '0'})
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {requestInit: {headers: {Authorization: `Bearer ${TOKEN}`}}})
  )
  return client
}

async function run(devices: string[]): Promise<void> {
  const emulator = await startEmulate(
    devices.map((d) => `${d}=demo`),
    0
  )
  const server = await startMcpHttp(
    devices.flatMap((d) => ['--device', `${d}=${d}`]),
    emulator.port,
    TOKEN
  )
  try {
    const clients = await Promise.all(Array.from({length: CLIENTS}, () => connect(server.url)))
    const args = (i: number) => ({
      detail: 'compact',
      ...(devices.length > 1 ? {device: devices[i % devices.length]} : {}),
    })
    // One call each first: connections, driver caches and the device helper warm, as in a server that has run.
    await Promise.all(clients.map((c, i) => c.callTool({name: 'android_get_screen_state', arguments: args(i)})))
    const latencies: number[] = []
    let failed = 0
    const start = performance.now()
    await Promise.all(
      clients.map(async (c, i) => {
        for (let n = 0; n < CALLS; n++) {
          const t = performance.now()
          const result = await c.callTool({name: 'android_get_screen_state', arguments: args(i)})
          latencies.push(performance.now() - t)
          if (result.isError) failed++
        }
      })
    )
    const seconds = (performance.now() - start) / 1000
    const total = CLIENTS * CALLS
    console.log(
      `${CLIENTS} clients, ${devices.length} device${devices.length > 1 ? 's' : ''}, ${total} get_screen_state calls: p50 ${fmt(percentile(latencies, 50))}, p99 ${fmt(percentile(latencies, 99))}, max ${fmt(Math.max(...latencies))}; ${(total / seconds).toFixed(0)} calls/s; ${failed} errors`
    )
    await Promise.all(clients.map((c) => c.close()))
  } finally {
    await server.stop()
    await emulator.stop()
  }
}

export default async function bench(): Promise<void> {
  await run(['d0'])
  await run(['d0', 'd1', 'd2', 'd3', 'd4'])
}
