import {spawn} from 'node:child_process'
import {mkdir, mkdtemp, readFile, readdir} from 'node:fs/promises'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

import {expect} from 'chai'

import {ROOT} from '@arc-cli/test-support/paths'
import {runArc} from '@arc-cli/test-support/run-arc'
import {DEMO_DIR, useEmulator} from '@arc-cli/test-support/emulator-support'

/** Resolves once `check` holds, polling every 20 ms (fails after 10 s). */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 20))
  if (!check()) throw new Error('condition never held')
}

const isMp4 = (data: Buffer) => data.subarray(4, 8).toString('latin1') === 'ftyp'

describe('screenrecord through the ADB driver', () => {
  const h = useEmulator({devices: [{serial: 'emu-1', snapshot: DEMO_DIR}]})
  const device = () => h.emu.device('emu-1')
  const recorded = (from: number) => h.argvSince(from).filter((a) => a[0] !== 'QUIT' && a[0] !== 'STAT')

  it('records until the time limit, pulls the video and removes it from the device', async () => {
    const driver = await h.driver()
    const from = h.emu.commands.length
    const video = await driver.screenRecord(1)
    const argv = recorded(from)
    const remote = argv[0]?.[3] as string
    expect(remote).to.match(/^\/data\/local\/tmp\/arc-rec-[0-9a-f]{12}\.mp4$/)
    expect(argv).to.deep.equal([
      ['screenrecord', '--time-limit', '1', remote],
      ['RECV', remote],
      ['rm', '-f', remote],
    ])
    expect(isMp4(video)).to.equal(true)
    expect(await readdir(path.dirname(device().files.hostPath(remote)))).not.to.include(path.basename(remote))
    await driver.close()
  })

  it('an abort stops that one recording with SIGINT and still returns the video', async () => {
    const driver = await h.driver()
    const from = h.emu.commands.length
    const controller = new AbortController()
    const recording = driver.screenRecord(180, controller.signal)
    await until(() => recorded(from).some((a) => a[0] === 'screenrecord'))
    controller.abort()
    const video = await recording
    expect(isMp4(video)).to.equal(true)
    expect(device().recordings.at(-1)?.seconds).to.be.below(10)
    await driver.close()
  })

  it('a device without screenrecord is UNSUPPORTED, and nothing is left on it', async () => {
    device().screenrecord = false
    const driver = await h.driver()
    const from = h.emu.commands.length
    try {
      await driver.screenRecord(1)
      expect.fail('should fail')
    } catch (error) {
      expect((error as {code: string}).code).to.equal('UNSUPPORTED')
      expect((error as Error).message).to.equal(
        'emu-1 has no screenrecord command (it arrived in Android 4.4; some builds leave it out)'
      )
    } finally {
      device().screenrecord = true
      await driver.close()
    }
    expect(recorded(from).at(-1)?.slice(0, 2)).to.deep.equal(['rm', '-f'])
  })

  it('arc screenrecord -o FILE records until Ctrl-C, writes the file and announces it', async function () {
    this.timeout(60_000)
    const dir = await mkdtemp(path.join(os.tmpdir(), 'arc-rec-'))
    const from = h.emu.commands.length
    const child = spawn(
      process.execPath,
      ['--conditions=arc-source', path.join(ROOT, 'bin', 'dev.js'), 'screenrecord', '-o', 'clip.mp4'],
      {
        cwd: dir,
        env: {...process.env, NODE_OPTIONS: '', NO_COLOR: '1', ...h.env},
      }
    )
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
    await until(() => recorded(from).some((a) => a[0] === 'screenrecord'))
    child.kill('SIGINT')
    expect(await exited, stderr).to.equal(0)
    const file = path.join(dir, 'clip.mp4')
    expect(stdout).to.match(
      new RegExp(`^Screen recording saved: ${file.replaceAll('.', '\\.')} \\([\\d.]+ s, 32 bytes\\)\\n$`)
    )
    expect(isMp4(await readFile(file))).to.equal(true)
    expect((await readdir(dir)).sort()).to.deep.equal(['clip.mp4'])
  })

  // The target was first looked at once the video was on this machine: a recording of up to 180 s (perhaps of a bug
  // that shows once) was made, then thrown away for a folder that was never there.
  it('an -o that cannot be written (missing folder, a folder, a socket): exit 13 before anything is recorded', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'arc-rec-'))
    await mkdir(path.join(dir, 'folder.mp4'))
    const sock = path.join(dir, 'sock.mp4')
    const server = net.createServer()
    await new Promise<void>((resolve) => server.listen(sock, resolve))
    const from = h.emu.commands.length
    try {
      for (const [target, why] of [
        ['nope/clip.mp4', 'the folder does not exist'],
        ['folder.mp4', 'it is a folder'],
        ['sock.mp4', 'it is a socket'],
      ] as const) {
        const run = await runArc(['screenrecord', '-o', target, '--time-limit', '1'], {env: h.env, cwd: dir})
        expect(run.code, run.stderr).to.equal(13)
        expect(run.stderr).to.include(`--output: cannot write ${path.join(dir, target)}: ${why}`)
      }
      expect((await readdir(dir)).sort()).to.deep.equal(['folder.mp4', 'sock.mp4'])
    } finally {
      server.close()
    }
    expect(recorded(from)).to.deep.equal([])
  })

  it('input errors exit 2 before anything is sent', async () => {
    const from = h.emu.commands.length
    for (const args of [[], ['-o', 'clip.avi'], ['-o', 'clip.mp4', '--time-limit', '181']]) {
      const run = await runArc(['screenrecord', ...args], {env: h.env})
      expect(run.code, args.join(' ')).to.equal(2)
      expect(run.stderr).to.contain('[INVALID_INPUT]')
    }
    expect(recorded(from)).to.deep.equal([])
  })
})
