/**
 * Cancelling a call over HTTP stops its work on the device. The SDK's HTTP client cancels with a
 * `notifications/cancelled` in a later POST and keeps the call's own connection open; the server matches it to the
 * call by the client's Mcp-Session-Id and the request id. A client that closes its connection cancels too. Both
 * checked on the virtual device's command log: after the server took the cancellation, the device is read no more.
 */
import {request} from 'node:http'

import {expect} from 'chai'

import {DEMO_DIR} from '@arc-cli/core'
import {startEmulator, type Emulator} from '@arc-cli/emulator'

import {connect, startServer, TOKEN} from './support.js'

/** Screen reads the device received (uiautomator dumps), from the command log. */
const reads = (emu: Emulator, from = 0) => emu.commands.slice(from).filter((c) => c.argv[0] === 'uiautomator').length

const tick = () => new Promise((resolve) => setTimeout(resolve, 20))

/** Until the device received its first screen read. */
async function firstRead(emu: Emulator, failed: () => string | undefined): Promise<void> {
  while (reads(emu) < 1) {
    const why = failed()
    if (why !== undefined) throw new Error(`the call ended before reading the device: ${why}`)
    await tick()
  }
}

/** Waits for `done`, or gives up (false) once the device was read `reads` more times: the work went on regardless. */
async function until(done: () => boolean, emu: Emulator, more: number): Promise<boolean> {
  const from = emu.commands.length
  while (!done()) {
    if (reads(emu, from) >= more) return false
    await tick()
  }
  return true
}

/**
 * Reads after the client's cancel before the test says the server ignored it: the wait polls every 500 ms, so this
 * leaves the server seconds to take the cancellation on a loaded machine, and a server that ignores it still runs
 * into it long before the wait's own 30 s end.
 */
const MORE = 8

const WAIT = {name: 'android_wait_for_element', arguments: {by: 'text', value: 'no element says this', timeout: 30_000}}

describe('arc mcp serve over HTTP: a cancelled call stops reading the device', function () {
  this.timeout(90_000)
  let emu: Emulator
  beforeEach(async () => {
    emu = await startEmulator({port: 0, devices: [{serial: 'emu-1', snapshot: DEMO_DIR}]})
  })
  afterEach(async () => {
    await emu.close()
  })

  it('notifications/cancelled from the SDK client (same session, later POST) aborts the call', async () => {
    const logs: string[] = []
    const server = await startServer({
      devices: ['emu-1'],
      adbHost: '127.0.0.1',
      adbPort: emu.port,
      // Reads as uiautomator dumps, each a command in the log (the helper would answer them over one socket).
      config: {adb: {helper: 'off'}},
      log: (m) => logs.push(m),
    })
    const client = await connect(server.url)
    try {
      const controller = new AbortController()
      const call = client.callTool(WAIT, undefined, {signal: controller.signal, timeout: 90_000})
      let ended: string | undefined
      call.then(
        (r) => (ended = JSON.stringify(r)),
        (e: Error) => (ended = e.message)
      )
      await firstRead(emu, () => ended)
      controller.abort()
      await call.catch(() => undefined)
      const taken = await until(() => logs.some((l) => l.startsWith('cancelled call')), emu, MORE)
      expect(
        taken,
        `the device was read ${MORE} more times after the client cancelled; log: ${logs.join(' | ')}`
      ).to.equal(true)
      const from = emu.commands.length
      await server.host.idle()
      expect(reads(emu, from), 'reads after the server took the cancellation').to.equal(0)
      // The read in flight is cut off: its shell ends once the emulator sees the connection go.
      while (emu.runningShells().length > 0) await tick()
      expect(logs.find((l) => l.startsWith('call android_wait_for_element'))).to.match(
        /^call android_wait_for_element device=emu-1 \d+ ms error CANCELLED$/
      )
    } finally {
      await client.close()
      await server.close()
    }
  })

  it('a client that closes its connection cancels its call', async () => {
    const logs: string[] = []
    const server = await startServer({
      devices: ['emu-1'],
      adbHost: '127.0.0.1',
      adbPort: emu.port,
      // Reads as uiautomator dumps, each a command in the log (the helper would answer them over one socket).
      config: {adb: {helper: 'off'}},
      log: (m) => logs.push(m),
    })
    try {
      const req = request(server.url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${TOKEN}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
      })
      req.on('error', () => undefined)
      req.end(JSON.stringify({jsonrpc: '2.0', id: 1, method: 'tools/call', params: WAIT}))
      await firstRead(emu, () => logs.find((l) => l.startsWith('call ')))
      req.destroy()
      const taken = await until(() => logs.some((l) => l.startsWith('a client closed its connection')), emu, MORE)
      expect(taken, `the device was read ${MORE} more times after the client left; log: ${logs.join(' | ')}`).to.equal(
        true
      )
      const from = emu.commands.length
      await server.host.idle()
      expect(reads(emu, from)).to.equal(0)
      // The read in flight is cut off: its shell ends once the emulator sees the connection go.
      while (emu.runningShells().length > 0) await tick()
    } finally {
      await server.close()
    }
  })

  // SIGINT/SIGTERM (`arc mcp serve` calls close()): the connections were destroyed with their calls, so an agent got
  // a dropped connection, not an answer, and could not tell a cancelled action from a lost server.
  it('a server that stops cancels the calls in flight and answers each CANCELLED before it closes', async () => {
    const server = await startServer({
      devices: ['emu-1'],
      adbHost: '127.0.0.1',
      adbPort: emu.port,
      config: {adb: {helper: 'off'}},
    })
    const client = await connect(server.url)
    try {
      const hang = emu.device('emu-1').hangNext('input')
      const call = client.callTool({name: 'android_tap', arguments: {x: 10, y: 20}}, undefined, {timeout: 60_000})
      call.catch(() => undefined)
      await hang.arrived
      await server.close()
      const result = (await call) as {isError?: boolean; structuredContent?: {error?: {code?: string}}}
      expect(result.isError).to.equal(true)
      expect(result.structuredContent?.error?.code).to.equal('CANCELLED')
      // The device command was cut off, not left to run to adb's 20 s time limit: its shell ends once the emulator
      // sees the connection go.
      const cut = Date.now() + 10_000
      while (emu.runningShells().length > 0 && Date.now() < cut) await tick()
      expect(emu.runningShells()).to.deep.equal([])
    } finally {
      await client.close().catch(() => undefined)
      await server.close()
    }
  })
})
