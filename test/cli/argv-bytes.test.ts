import {writeFileSync} from 'node:fs'
import path from 'node:path'

import {expect} from 'chai'

import {arcNodeArgs} from '@arc-cli/test-support/built-cli'
import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {runArc, runProgram} from '@arc-cli/test-support/run-arc'

/**
 * Bytes that are not UTF-8 on arc's command line (a terminal in Latin-1, a name from an old file system): Node.js
 * reads them as U+FFFD, and the device would get U+FFFD's bytes for them. arc refuses such an argument, and a
 * script holding such bytes, before anything reaches the device.
 */
describe('arguments and scripts whose bytes are not UTF-8', function () {
  this.timeout(60_000)
  const h = useEmulator({devices: [{serial: 'emu-1', app: 'demo'}]})

  /** arc with `args`, then one more argument: the bytes `printf` makes of `printfBytes` (octal escapes). */
  function arcWithBytes(args: string[], printfBytes: string) {
    return runProgram(
      '/bin/sh',
      ['-c', `exec "$@" "$(printf '${printfBytes}')"`, 'sh', process.execPath, ...arcNodeArgs(args)],
      {cwd: process.cwd(), env: {...process.env, ...h.env, NODE_OPTIONS: '', NO_COLOR: '1'}}
    )
  }

  const sentSince = (from: number) => h.emu.commands.slice(from).map((c) => c.argv.join(' '))

  it('arc shell: a Latin-1 é is refused, naming the argument; no command reaches the device', async function () {
    if (process.platform === 'win32') this.skip()
    const from = h.emu.commands.length
    const run = await arcWithBytes(['shell', '-d', 'emu-1', '--', 'echo'], 'caf\\351')
    expect(run.code).to.equal(2)
    expect(run.stderr).to.include(
      'argument 6 ("caf\uFFFD") holds bytes that are not UTF-8 (shown as U+FFFD): arc reads its command line as UTF-8'
    )
    expect(sentSince(from).some((c) => c.includes('echo'))).to.equal(false)
  })

  it('arc type: the text is refused and nothing is typed', async function () {
    if (process.platform === 'win32') this.skip()
    const device = h.emu.device('emu-1')
    const before = device.inputEvents.length
    const field = ['--res-id', 'dev.arc.demo.groceries:id/new_item']
    const run = await arcWithBytes(['type', 'append', '-d', 'emu-1', ...field], 'Rye \\377')
    expect(run.code).to.equal(2)
    expect(run.stderr).to.include('argument 7 ("Rye \uFFFD") holds bytes that are not UTF-8')
    expect(device.inputEvents.length).to.equal(before)
  })

  it('U+FFFD written as its own UTF-8 bytes is text like any other (the command line shows which it was)', async function () {
    if (process.platform !== 'linux') this.skip()
    const run = await arcWithBytes(['shell', '-d', 'emu-1', '--', 'echo'], 'caf\\357\\277\\275')
    expect(run.stderr).to.equal('')
    expect(run.stdout).to.equal('caf\uFFFD\n')
    expect(run.code).to.equal(0)
  })

  it("arc test: a flow's ${NAME} from an environment variable with such bytes fails that step; nothing is sent", async function () {
    if (process.platform !== 'linux') this.skip()
    const file = path.join(h.dir, 'env.flow')
    writeFileSync(file, 'shell -- echo ${WORD}\n')
    const from = h.emu.commands.length
    const run = await runProgram(
      '/bin/sh',
      [
        '-c',
        `WORD="$(printf 'caf\\351')" exec "$@"`,
        'sh',
        process.execPath,
        ...arcNodeArgs(['test', file, '-d', 'emu-1']),
      ],
      {cwd: process.cwd(), env: {...process.env, ...h.env, NODE_OPTIONS: '', NO_COLOR: '1'}}
    )
    expect(run.code).to.equal(2)
    expect(run.stderr).to.include(`${file}:1: the environment variable WORD holds bytes that are not UTF-8`)
    expect(sentSince(from).some((c) => c.includes('echo'))).to.equal(false)
  })

  it('arc test: a flow file with such bytes is refused naming its line, before any step', async () => {
    const file = path.join(h.dir, 'latin1.flow')
    writeFileSync(
      file,
      Buffer.concat([Buffer.from('shell -- echo first\nshell -- echo caf'), Buffer.from([0xe9, 0x0a])])
    )
    const from = h.emu.commands.length
    const run = await runArc(['test', file, '-d', 'emu-1'], {env: h.env})
    expect(run.code).to.equal(2)
    expect(run.stderr).to.include(`flow file ${file}, line 2, holds bytes that are not UTF-8`)
    expect(sentSince(from).some((c) => c.includes('echo'))).to.equal(false)
  })

  it('arc batch: a file with such bytes is refused naming its line, and no line runs', async () => {
    const file = path.join(h.dir, 'latin1.txt')
    writeFileSync(
      file,
      Buffer.concat([Buffer.from('shell -- echo first\nshell -- echo caf'), Buffer.from([0xe9, 0x0a])])
    )
    const from = h.emu.commands.length
    const run = await runArc(['batch', file], {env: h.env})
    expect(run.code).to.equal(2)
    expect(run.stderr).to.include(`batch file ${file}, line 2, holds bytes that are not UTF-8`)
    expect(sentSince(from).some((c) => c.includes('echo'))).to.equal(false)
  })
})
