import net from 'node:net'

import {expect} from 'chai'
import type {Emulator} from '@arc-cli/emulator'

import {clientFor, DEMO_DIR, emulate, eventually, type AdbClient} from './support.js'

/** Sends raw hex4-framed requests on one connection and returns everything the server wrote until it closed. */
async function raw(port: number, ...requests: string[]): Promise<string> {
  const socket = net.connect(port, '127.0.0.1')
  const chunks: Buffer[] = []
  socket.on('data', (c) => chunks.push(c))
  for (const r of requests) socket.write(`${Buffer.byteLength(r).toString(16).padStart(4, '0')}${r}`)
  await new Promise((resolve) => socket.on('close', resolve))
  return Buffer.concat(chunks).toString('latin1')
}

describe('emulator host protocol (adbkit)', () => {
  let emu: Emulator
  let client: AdbClient
  before(async () => {
    emu = await emulate({
      devices: [
        {serial: 'emu-1', snapshot: DEMO_DIR},
        {serial: 'emu-2', snapshot: DEMO_DIR},
        {serial: 'locked', snapshot: DEMO_DIR, state: 'unauthorized'},
      ],
    })
    client = clientFor(emu)
  })
  after(() => emu.close())

  it('answers host:version with 41', async () => {
    expect(await client.version()).to.equal(41)
    expect(await raw(emu.port, 'host:version')).to.equal('OKAY00040029')
  })

  it('lists devices with their states', async () => {
    expect(await client.listDevices()).to.deep.equal([
      {id: 'emu-1', type: 'device'},
      {id: 'emu-2', type: 'device'},
      {id: 'locked', type: 'unauthorized'},
    ])
  })

  it('lists devices-l with product, model and transport id in the real layout', async () => {
    const text = await raw(emu.port, 'host:devices-l')
    expect(text.slice(0, 4)).to.equal('OKAY')
    const lines = text.slice(8).trim().split('\n')
    expect(lines[0]).to.match(
      /^emu-1 {18}device product:arc_emu model:arc_emulated_device device:arc_emu transport_id:1$/
    )
    expect(lines[2]).to.equal(`${'locked'.padEnd(22)} unauthorized transport_id:3`)
    const withPaths = await client.listDevicesWithPaths()
    expect(withPaths.map((d: {id: string}) => d.id)).to.deep.equal(['emu-1', 'emu-2', 'locked'])
  })

  it('reports features per device and the state', async () => {
    expect(await raw(emu.port, 'host-serial:emu-1:features')).to.equal('OKAY0019shell_v2,fixed_push_mkdir')
    expect(await client.getDevice('emu-2').getState()).to.equal('device')
    expect(await client.getDevice('locked').getState()).to.equal('unauthorized')
    expect(await raw(emu.port, 'host:features')).to.match(/^FAIL[0-9a-f]{4}more than one device\/emulator$/)
  })

  it('switches with host:tport and answers the 8-byte transport id', async () => {
    const socket = net.connect(emu.port, '127.0.0.1')
    const got: Buffer[] = []
    socket.on('data', (c) => got.push(c))
    socket.write('0017host:tport:serial:emu-2')
    await eventually(() => Buffer.concat(got).length >= 12)
    const reply = Buffer.concat(got)
    expect(reply.subarray(0, 4).toString()).to.equal('OKAY')
    expect(reply.readBigUInt64LE(4)).to.equal(2n)
    socket.destroy()
  })

  it('fails a transport to an unknown or unauthorized device with the real messages', async () => {
    expect(await raw(emu.port, 'host:transport:nope')).to.match(/^FAIL[0-9a-f]{4}device 'nope' not found$/)
    const err = await client
      .getDevice('locked')
      .shell('echo hi')
      .then(
        () => undefined,
        (e: Error) => e
      )
    expect(err?.message).to.match(/device unauthorized\./)
    expect(await raw(emu.port, 'host:frobnicate')).to.match(/^FAIL[0-9a-f]{4}unknown host service$/)
  })

  it('tracks devices: the list at once, then on every change', async () => {
    const tracker = await client.trackDevices()
    const seen: string[] = []
    tracker.on('add', (d: {id: string}) => seen.push(`add ${d.id}`))
    tracker.on('remove', (d: {id: string}) => seen.push(`remove ${d.id}`))
    tracker.on('change', (d: {id: string; type: string}) => seen.push(`change ${d.id} ${d.type}`))
    // The first list may be read before the listeners exist; the tracker keeps it.
    const known = tracker as unknown as {deviceList: {id: string}[]}
    expect(await eventually(() => known.deviceList.length === 3)).to.equal(true)
    emu.device('emu-2').disconnect()
    expect(await eventually(() => seen.includes('remove emu-2'))).to.equal(true)
    emu.device('emu-2').reconnect()
    expect(await eventually(() => seen.includes('add emu-2'))).to.equal(true)
    emu.device('locked').setState('device')
    expect(await eventually(() => seen.includes('change locked device'))).to.equal(true)
    emu.device('locked').setState('unauthorized')
    tracker.end()
  })

  it('records every host request', () => {
    expect(emu.requests.map((r) => r.raw)).to.include('host:version')
  })
})
