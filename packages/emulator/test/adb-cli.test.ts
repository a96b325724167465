import {execFile} from 'node:child_process'
import {randomBytes} from 'node:crypto'
import {readFileSync, writeFileSync} from 'node:fs'
import path from 'node:path'
import {promisify} from 'node:util'

import {expect} from 'chai'
import type {Emulator} from '@arc-cli/emulator'

import {DEMO_DIR, emulate, tempDir} from './support.js'

const run = promisify(execFile)

function findAdb(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    try {
      const file = path.join(dir, 'adb')
      readFileSync(file)
      return file
    } catch {
      // not here
    }
  }
  return undefined
}

describe('emulator with the real adb CLI', function () {
  const adb = findAdb()
  let emu: Emulator
  const tmp = tempDir()
  // `adb -H 127.0.0.1` counts as a remote server, so the CLI never starts its own.
  const cli = async (...args: string[]) => {
    try {
      const r = await run(adb as string, ['-H', '127.0.0.1', '-P', String(emu.port), ...args], {
        encoding: 'buffer',
        maxBuffer: 64 * 1024 * 1024,
      })
      return {stdout: r.stdout, stderr: r.stderr.toString(), code: 0}
    } catch (error) {
      const e = error as {stdout: Buffer; stderr: Buffer; code: number}
      return {stdout: e.stdout, stderr: e.stderr.toString(), code: e.code}
    }
  }

  before(async function () {
    if (!adb) {
      console.log('    (skipped: no `adb` on PATH; install the Debian package `adb` to run these)')
      this.skip()
    }
    emu = await emulate({devices: [{serial: 'demo', snapshot: DEMO_DIR}]})
  })
  after(async () => {
    await emu?.close()
    tmp.cleanup()
  })

  it('adb devices', async () => {
    expect((await cli('devices')).stdout.toString()).to.equal('List of devices attached\ndemo\tdevice\n\n')
  })

  it('adb shell: output, exit codes, stderr, quoting', async () => {
    expect((await cli('shell', 'echo', 'ok')).stdout.toString()).to.equal('ok\n')
    const failed = await cli('shell', 'nope')
    expect([failed.stderr, failed.code]).to.deep.equal(['/system/bin/sh: nope: not found\n', 127])
    expect((await cli('shell', 'exit 5')).code).to.equal(5)
    await cli('-s', 'demo', 'shell', "input text 'it'\\''s $(id)'")
    expect(emu.commands.at(-1)?.argv).to.deep.equal(['input', 'text', "it's $(id)"])
    expect(emu.commands.at(-1)?.service).to.equal('shell,v2')
  })

  it('adb exec-out screencap -p is the PNG byte for byte', async () => {
    const r = await cli('exec-out', 'screencap', '-p')
    expect(r.stdout.equals(readFileSync(path.join(DEMO_DIR, 'screen.png')))).to.equal(true)
    expect(emu.commands.at(-1)).to.include({service: 'exec', raw: "screencap '-p'"})
  })

  it('adb push and pull round-trip a 300 KB file', async () => {
    const local = path.join(tmp.dir, 'big.bin')
    const back = path.join(tmp.dir, 'back.bin')
    const data = randomBytes(300_000)
    writeFileSync(local, data)
    expect((await cli('push', local, '/sdcard/Download/big.bin')).code).to.equal(0)
    expect((await cli('pull', '/sdcard/Download/big.bin', back)).code).to.equal(0)
    expect(readFileSync(back).equals(data)).to.equal(true)
    expect((await cli('shell', 'ls', '/sdcard/Download')).stdout.toString()).to.equal('big.bin\n')
  })

  it('adb -s unknown reports the device as not found', async () => {
    const r = await cli('-s', 'nope', 'shell', 'ls')
    expect(r.stderr).to.match(/device 'nope' not found/)
    expect(r.code).to.not.equal(0)
  })
})
