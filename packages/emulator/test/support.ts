import {mkdirSync, writeFileSync} from 'node:fs'
import type {Duplex} from 'node:stream'
import path from 'node:path'

import adbkit from '@devicefarmer/adbkit'
import {DEMO_DIR} from '@arc-cli/core'
import {startEmulator, type Emulator, type EmulatorOptions} from '@arc-cli/emulator'
import {tempDir} from '@arc-cli/test-support/temp-dir'

// Imported as ESM the default export is module.exports ({Adb, KeyCodes…}); when mocha require()s a test file
// through tsx's CommonJS path it is the Adb class itself. Accept both.
const Adb = ((adbkit as unknown as {Adb?: unknown}).Adb ?? adbkit) as typeof adbkit.Adb
export {Adb, DEMO_DIR, tempDir}

export type AdbClient = ReturnType<typeof Adb.createClient>

/** The single-quote quoting arc (and adb.md §3.1) uses for device shell words. */
export const shq = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`

/** A client that never spawns a real adb server (bin: /bin/false) pointed at the emulator. */
export function clientFor(emu: Emulator): AdbClient {
  return Adb.createClient({host: '127.0.0.1', port: emu.port, bin: '/bin/false'})
}

/** Starts an emulator; the caller closes it (after() hooks). */
export async function emulate(options: Partial<EmulatorOptions> = {}): Promise<Emulator> {
  return startEmulator({port: 0, devices: [{serial: 'emu-1', snapshot: DEMO_DIR}], ...options})
}

export async function readAll(stream: Duplex | NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(Buffer.from(chunk))
  return Buffer.concat(chunks)
}

/** Runs a v1 `shell:` command through adbkit and returns its merged output. */
export async function shell(client: AdbClient, serial: string, command: string | string[]): Promise<string> {
  return (await readAll(await client.getDevice(serial).shell(command))).toString('utf8')
}

export interface V2Result {
  stdout: Buffer
  stderr: Buffer
  exitCode?: number
}

/** Runs `shell,v2,raw:<command>` through adbkit's openLocal and decodes the v2 packets. */
export async function shellV2(client: AdbClient, serial: string, command: string, stdin?: Buffer): Promise<V2Result> {
  const stream = await client.getDevice(serial).openLocal(`shell,v2,raw:${command}`)
  const packet = (id: number, data: Buffer) => {
    const head = Buffer.alloc(5)
    head[0] = id
    head.writeUInt32LE(data.length, 1)
    return Buffer.concat([head, data])
  }
  if (stdin) stream.write(packet(0, stdin))
  stream.write(packet(4, Buffer.alloc(0)))
  let raw = await readAll(stream)
  const out: V2Result = {stdout: Buffer.alloc(0), stderr: Buffer.alloc(0)}
  while (raw.length >= 5) {
    const id = raw[0]
    const length = raw.readUInt32LE(1)
    const data = raw.subarray(5, 5 + length)
    raw = raw.subarray(5 + length)
    if (id === 1) out.stdout = Buffer.concat([out.stdout, data])
    else if (id === 2) out.stderr = Buffer.concat([out.stderr, data])
    else if (id === 3) out.exitCode = data[0]
  }
  return out
}

/** Runs `exec:<command>` and returns the raw bytes. */
export async function exec(client: AdbClient, serial: string, command: string): Promise<Buffer> {
  return readAll(await client.getDevice(serial).openLocal(`exec:${command}`))
}

/** Polls `condition` every 20 ms until true or `ms` pass (for state that settles asynchronously). */
export async function eventually(condition: () => boolean, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (condition()) return true
    await new Promise((r) => setTimeout(r, 20))
  }
  return condition()
}

/**
 * A small hand-made snapshot with known elements, in a temp folder: a 720x1280 screen with a "Sign in" button
 * (resource-id com.example:id/sign_in, bounds [40,1000][680,1100]) and a "Help" link; meta.json names the app.
 */
export function makeSnapshot(dir: string, title: string, extraMeta: Record<string, unknown> = {}): string {
  mkdirSync(dir, {recursive: true})
  const xml =
    `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">` +
    `<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.example" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][720,1280]">` +
    `<node index="0" text="${title}" resource-id="com.example:id/title" class="android.widget.TextView" package="com.example" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[40,100][680,180]" />` +
    `<node index="1" text="Sign in" resource-id="com.example:id/sign_in" class="android.widget.Button" package="com.example" content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[40,1000][680,1100]" />` +
    `<node index="2" text="" resource-id="" class="android.widget.ImageView" package="com.example" content-desc="Help" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[600,20][700,80]" />` +
    `</node></hierarchy>`
  writeFileSync(path.join(dir, 'window_dump.xml'), xml)
  writeFileSync(
    path.join(dir, 'meta.json'),
    JSON.stringify({
      format: 'arc-snapshot/1',
      width: 720,
      height: 1280,
      density: 320,
      rotation: 0,
      package: 'com.example',
      activity: '.LoginActivity',
      ...extraMeta,
    })
  )
  return dir
}
