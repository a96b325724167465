/**
 * Round trip of one device command through adbkit against `arc emulate`: a shell builtin (`echo`: the cost of the
 * protocol plus one device sh), and an emulated program (`wm size`: plus one helper process, with the helper the
 * emulator chose and with the Node.js one), plus a 1 MB pull.
 */
import {randomBytes} from 'node:crypto'
import {Readable} from 'node:stream'

import adbkit from '@devicefarmer/adbkit'
import {DEMO_DIR} from '@arc-cli/core'
import {startEmulator} from '@arc-cli/emulator'

import {fmt, median, percentile, timeRuns} from './stats.js'

const Adb = ((adbkit as unknown as {Adb?: unknown}).Adb ?? adbkit) as typeof adbkit.Adb

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(Buffer.from(chunk))
  return Buffer.concat(chunks)
}

export default async function bench(): Promise<void> {
  // timeScale 0: these figures are arc's own overhead, not a phone's idle waits (android11.bench.ts has those).
  const emu = await startEmulator({port: 0, devices: [{serial: 'bench', snapshot: DEMO_DIR}], timeScale: 0})
  try {
    const device = Adb.createClient({host: '127.0.0.1', port: emu.port, bin: '/bin/false'}).getDevice('bench')
    const report = (name: string, times: number[]) =>
      console.log(
        `${name.padEnd(34)} median ${fmt(median(times))}  p90 ${fmt(percentile(times, 90))}  (n=${times.length})`
      )
    report('shell:echo ok (builtin)', await timeRuns(async () => readAll(await device.shell('echo ok')), 50))
    report(
      `shell:wm size (${emu.programHelper} helper)`,
      await timeRuns(async () => readAll(await device.shell('wm size')), 30)
    )
    if (emu.programHelper !== 'node') {
      const nodeEmu = await startEmulator({
        port: 0,
        devices: [{serial: 'bench', snapshot: DEMO_DIR}],
        programHelper: 'node',
      })
      try {
        const nodeDevice = Adb.createClient({host: '127.0.0.1', port: nodeEmu.port, bin: '/bin/false'}).getDevice(
          'bench'
        )
        report(
          'shell:wm size (node helper)',
          await timeRuns(async () => readAll(await nodeDevice.shell('wm size')), 30)
        )
      } finally {
        await nodeEmu.close()
      }
    }
    const data = randomBytes(1024 * 1024)
    const push = await device.push(Readable.from(data, {objectMode: false}), '/data/local/tmp/bench.bin')
    await new Promise((resolve, reject) => push.on('end', resolve).on('error', reject))
    report('sync pull 1 MiB', await timeRuns(async () => readAll(await device.pull('/data/local/tmp/bench.bin')), 20))
  } finally {
    await emu.close()
  }
}
