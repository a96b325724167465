import {expect} from 'chai'
import type {Emulator} from '@arc-cli/emulator'

import {clientFor, emulate, exec, readAll, shell, shellV2, type AdbClient} from './support.js'

/** PNG's signature as a cooked PTY passes it on: each LF written as CR LF. */
const MANGLED_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0d, 0x0a, 0x1a, 0x0d, 0x0a])
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/** `host-serial:S:features` as the server answers it. */
async function features(client: AdbClient, serial: string): Promise<string> {
  const conn = await client.connection()
  const request = `host-serial:${serial}:features`
  conn.write(Buffer.from(`${request.length.toString(16).padStart(4, '0')}${request}`))
  const reply = (await readAll(conn.socket)).toString('latin1')
  expect(reply.slice(0, 4)).to.equal('OKAY')
  return reply.slice(8, 8 + Number.parseInt(reply.slice(4, 8), 16))
}

describe('a device whose adbd is older than Android 7 (ro.build.version.sdk below 24)', () => {
  let emu: Emulator
  let client: AdbClient
  before(async () => {
    emu = await emulate({devices: [{serial: 'old'}, {serial: 'new'}].map((d) => ({...d, app: 'demo' as const}))})
    emu.device('old').properties.set('ro.build.version.sdk', '23')
    client = clientFor(emu)
  })
  after(async () => emu.close())

  it('announces no shell protocol (no features at all), where Android 7+ announces shell_v2', async () => {
    expect(await features(client, 'old')).to.equal('')
    expect((await features(client, 'new')).split(',')).to.include('shell_v2')
  })

  it('refuses a `shell,v2,…:` service (adbd knew only `shell:`): the server reports it closed', async () => {
    const error = await shellV2(client, 'old', 'echo hi').then(
      () => undefined,
      (e: unknown) => e as Error
    )
    expect(error?.message).to.match(/closed/)
    expect((await shellV2(client, 'new', 'echo hi')).stdout.toString()).to.equal('hi\n')
  })

  it('runs `shell:` commands in a PTY: every LF arrives as CR LF, stderr merged in order', async () => {
    expect(await shell(client, 'old', "printf 'a\\nb\\r\\n'; ls /nope")).to.equal(
      // Toolbox's ls (Android 6.0's) says a missing path as perror(PATH) does.
      'a\r\nb\r\r\n/nope: No such file or directory\r\n'
    )
    expect(await shell(client, 'new', "printf 'a\\nb\\r\\n'")).to.equal('a\nb\r\n')
  })

  it('keeps `exec:` raw, so `exec-out screencap -p` is the PNG and `shell screencap -p` is mangled', async () => {
    const raw = await exec(client, 'old', 'screencap -p')
    expect(raw.subarray(0, 8).equals(PNG_SIGNATURE)).to.equal(true)
    const cooked = await readAll(await client.getDevice('old').shell('screencap -p'))
    expect(cooked.subarray(0, 10).equals(MANGLED_SIGNATURE)).to.equal(true)
    expect(Buffer.from(cooked.toString('latin1').replaceAll('\r\n', '\n'), 'latin1').equals(raw)).to.equal(true)
  })
})

describe("toolbox's ls, df and mkdir on a device older than Android 7 (they were toybox's from 7.0, mkdir from 6.0)", () => {
  let emu: Emulator
  let client: AdbClient
  before(async () => {
    emu = await emulate({devices: ['l', 'm', 'n'].map((serial) => ({serial, app: 'demo' as const}))})
    emu.device('l').properties.set('ro.build.version.sdk', '22')
    emu.device('m').properties.set('ro.build.version.sdk', '23')
    emu.device('n').properties.set('ro.build.version.sdk', '24')
  })
  after(async () => emu.close())
  before(() => (client = clientFor(emu)))

  /** What a command printed (stdout and stderr, as the PTY merges them, CR LF undone) and its status. */
  async function run(serial: string, command: string): Promise<string> {
    return (await shell(client, serial, `${command}; echo "status=$?"`)).replaceAll('\r\n', '\n')
  }

  it('ls takes `--` for an unknown option and lists nothing; a path starting with / is never an option', async () => {
    for (const serial of ['l', 'm']) {
      expect(await run(serial, 'ls -ld -- /sdcard/Download')).to.equal("ls: Unknown option '--'. Aborting.\nstatus=1\n")
      expect(await run(serial, 'ls -a /sdcard/Download/')).to.equal('.\n..\nstatus=0\n')
      expect(await run(serial, 'ls -ld /sdcard/nothing')).to.equal(
        '/sdcard/nothing: No such file or directory\nstatus=1\n'
      )
    }
    expect(await run('n', 'ls -ld -- /sdcard/nothing')).to.equal(
      'ls: /sdcard/nothing: No such file or directory\nstatus=1\n'
    )
  })

  it('mkdir (toolbox up to 5.1) makes `--` in the read-only / and not the folder after it', async () => {
    expect(await run('l', 'mkdir -p -- /sdcard/Download/new/deep')).to.equal(
      'mkdir failed for --/, Read-only file system\nstatus=255\n'
    )
    expect(await run('l', 'ls /sdcard/Download/new')).to.equal(
      '/sdcard/Download/new: No such file or directory\nstatus=1\n'
    )
    expect(await run('l', 'mkdir -p /sdcard/Download/new/deep')).to.equal('status=0\n')
    expect(await run('l', 'ls -a /sdcard/Download/new/deep')).to.equal('.\n..\nstatus=0\n')
    // Android 6.0 ran toybox's mkdir, which takes `--`.
    expect(await run('m', 'mkdir -p -- /sdcard/Download/six/deep')).to.equal('status=0\n')
  })

  it('df takes no options: -k and -- are paths it cannot statfs; its own columns for the rest', async () => {
    const out = await run('m', 'df -k -- /sdcard/Download')
    const lines = out.split('\n')
    expect(lines.slice(0, 3)).to.deep.equal([
      'Filesystem               Size     Used     Free   Blksize',
      '-k: No such file or directory',
      '--: No such file or directory',
    ])
    expect(lines[3]).to.match(/^\/sdcard\/Download {6}( *\d+\.\d[KMG]){3} {3}\d+$/)
    expect(lines[4]).to.equal('status=1')
    expect(await run('n', 'df -k -- /sdcard/Download')).to.match(/^Filesystem +1K-blocks +Used +Available/)
  })
})
