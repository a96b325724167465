/**
 * `npm run bench -- png-black`: what `arc screenshot`'s black-capture check (core png.ts `pngLooksBlack`) costs per
 * screenshot, CPU time in this process: on the real screens in ../shared/fixtures/real (anything on them ends the
 * check in its first rows) and on a black 1080x2400 RGBA PNG as a secure window or a sleeping display gives (every
 * row read). Skips the real screens where the fixtures are absent.
 */
import {existsSync, readdirSync, readFileSync} from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {crc32, deflateSync} from 'node:zlib'

import {pngLooksBlack} from '@arc-cli/core'

import {fmt, median} from './stats.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const REAL = path.join(ROOT, '..', 'shared', 'fixtures', 'real')

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, 'latin1')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0)
  return Buffer.concat([head, data, crc])
}

/** An opaque black RGBA PNG, rows unfiltered, as Android's screencap writes a black screen (zlib's default level). */
function blackPng(width: number, height: number): Buffer {
  const row = Buffer.alloc(1 + width * 4)
  for (let i = 4; i < row.length; i += 4) row[i] = 0xff
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr[8] = 8
  ihdr[9] = 6
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({length: height}, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

function cpuMs(fn: () => unknown, runs: number): number[] {
  fn()
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const start = process.cpuUsage()
    fn()
    const used = process.cpuUsage(start)
    times.push((used.user + used.system) / 1000)
  }
  return times
}

export default async function bench(): Promise<void> {
  const black = blackPng(1080, 2400)
  if (pngLooksBlack(black) !== true) throw new Error('the black PNG was not judged black')
  const blackTimes = cpuMs(() => pngLooksBlack(black), 20)
  console.log(
    `black 1080x2400 RGBA (${black.length} B): median ${fmt(median(blackTimes))} CPU per check (every row read; 20 runs)`
  )
  if (!existsSync(REAL)) {
    console.log(`real screens: skipped (${REAL} is absent)`)
    return
  }
  const shots = readdirSync(REAL)
    .map((name) => path.join(REAL, name, 'screen.png'))
    .filter((file) => existsSync(file))
    .map((file) => readFileSync(file))
  const perShot: number[] = []
  let judgedBlack = 0
  let unknown = 0
  for (const png of shots) {
    const verdict = pngLooksBlack(png)
    if (verdict === true) judgedBlack++
    if (verdict === undefined) unknown++
    perShot.push(median(cpuMs(() => pngLooksBlack(png), 10)))
  }
  console.log(
    `${shots.length} real screens: median ${fmt(median(perShot))}, max ${fmt(Math.max(...perShot))} CPU per check; ${judgedBlack} judged black, ${unknown} not decodable by it (10 runs each)`
  )
}
