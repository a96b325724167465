import {randomBytes} from 'node:crypto'
import {existsSync, readdirSync, readFileSync} from 'node:fs'
import path from 'node:path'
import {Readable} from 'node:stream'

import {expect} from 'chai'
import type {Emulator} from '@arc-cli/emulator'

import {clientFor, emulate, readAll, shell, shellV2, type AdbClient} from './support.js'

async function push(client: AdbClient, data: Buffer, to: string, mode?: number): Promise<void> {
  const transfer = await client.getDevice('emu-1').push(Readable.from(data, {objectMode: false}), to, mode)
  await new Promise<void>((resolve, reject) => {
    transfer.on('end', () => resolve())
    transfer.on('error', reject)
  })
}

async function pull(client: AdbClient, from: string): Promise<Buffer> {
  return readAll(await client.getDevice('emu-1').pull(from))
}

describe('emulator sync service', () => {
  let emu: Emulator
  let client: AdbClient
  before(async () => {
    emu = await emulate()
    client = clientFor(emu)
  })
  after(() => emu.close())

  it('pushes and pulls a file over 64 KiB byte-exact, in ≤ 64 KiB DATA chunks', async () => {
    const data = randomBytes(200_000 + 7)
    await push(client, data, '/sdcard/Download/big.bin')
    expect((await pull(client, '/sdcard/Download/big.bin')).equals(data)).to.equal(true)
    expect(emu.commands.filter((c) => c.service === 'sync').map((c) => c.argv[0])).to.include.members(['SEND', 'RECV'])
  })

  it('stats files with lstat semantics: /sdcard is a link, a missing path is ENOENT', async () => {
    await push(client, Buffer.from('hello'), '/data/local/tmp/a.txt', 0o640)
    const stats = await client.getDevice('emu-1').stat('/data/local/tmp/a.txt')
    expect(stats.size).to.equal(5)
    expect(stats.isFile()).to.equal(true)
    // adbd copies the owner's permission bits to group and others (daemon/file_sync_service.cpp, send_impl).
    expect(stats.mode & 0o777).to.equal(0o666)
    expect((await client.getDevice('emu-1').stat('/sdcard')).isSymbolicLink()).to.equal(true)
    expect((await client.getDevice('emu-1').stat('/sdcard/')).isDirectory()).to.equal(true)
    const missing = await client
      .getDevice('emu-1')
      .stat('/sdcard/nope')
      .then(
        () => undefined,
        (e: NodeJS.ErrnoException) => e
      )
    expect(missing?.code).to.equal('ENOENT')
  })

  // adbd's send_impl (daemon/file_sync_service.cpp) unlinks a file or link at the path, creates the file anew and
  // fchmods it to the mode sent, its owner bits copied to group and others; the virtual device kept an existing
  // file's mode and wrote through a link to its target.
  it('SEND: mode as adbd sets it (owner bits to group and others), a link at the path replaced, not written through', async () => {
    const files = emu.device('emu-1').files
    await push(client, Buffer.from('x'), '/data/local/tmp/exec.sh', 0o755)
    expect((await client.getDevice('emu-1').stat('/data/local/tmp/exec.sh')).mode & 0o777).to.equal(0o777)
    await shell(client, 'emu-1', 'chmod 700 /data/local/tmp/exec.sh')
    await push(client, Buffer.from('y'), '/data/local/tmp/exec.sh', 0o644)
    expect((await client.getDevice('emu-1').stat('/data/local/tmp/exec.sh')).mode & 0o777).to.equal(0o666)
    await push(client, Buffer.from('target'), '/data/local/tmp/target.txt')
    await shell(client, 'emu-1', 'ln -s target.txt /data/local/tmp/link.txt')
    await push(client, Buffer.from('new'), '/data/local/tmp/link.txt')
    expect((await client.getDevice('emu-1').stat('/data/local/tmp/link.txt')).isFile()).to.equal(true)
    expect(readFileSync(path.join(files.root, 'data/local/tmp/target.txt'), 'utf8')).to.equal('target')
    expect(await shell(client, 'emu-1', 'chmod u+x /data/local/tmp/exec.sh; echo $?')).to.equal(
      "chmod: bad mode 'u+x'\n1\n"
    )
    expect(await shell(client, 'emu-1', 'chmod 0750 /data/local/tmp/exec.sh; echo $?')).to.equal('0\n')
    expect((await client.getDevice('emu-1').stat('/data/local/tmp/exec.sh')).mode & 0o777).to.equal(0o750)
  })

  it('lists a folder (without . and .. in adbkit) and an empty list for a missing one', async () => {
    await push(client, Buffer.from('x'), '/sdcard/Pictures/one.png')
    const names = (await client.getDevice('emu-1').readdir('/sdcard/Pictures')).map((e: {name: string}) => e.name)
    expect(names).to.deep.equal(['one.png'])
    expect(await client.getDevice('emu-1').readdir('/sdcard/none')).to.deep.equal([])
  })

  it('fails a pull of a missing file with the device’s message', async () => {
    const transfer = await client.getDevice('emu-1').pull('/sdcard/missing.bin')
    const error = await new Promise<Error>((resolve) => transfer.on('error', resolve))
    expect(error.message).to.match(/open failed: No such file or directory/)
  })

  it('shares files with the shell: ls, cat, rm, mkdir', async () => {
    await push(client, Buffer.from('notes\n'), '/sdcard/notes.txt')
    expect(await shell(client, 'emu-1', 'cat /sdcard/notes.txt')).to.equal('notes\n')
    expect(await shell(client, 'emu-1', 'ls /sdcard/')).to.include('notes.txt\n')
    expect(await shell(client, 'emu-1', 'mkdir -p /sdcard/a/b && ls /sdcard/a')).to.equal('b\n')
    expect(await shell(client, 'emu-1', 'mkdir /sdcard/a')).to.equal("mkdir: '/sdcard/a': File exists\n")
    expect(await shell(client, 'emu-1', 'rm /sdcard/notes.txt; cat /sdcard/notes.txt')).to.equal(
      'cat: /sdcard/notes.txt: No such file or directory\n'
    )
    expect(await shell(client, 'emu-1', 'rm /sdcard/a')).to.equal('rm: /sdcard/a: Is a directory\n')
    expect(await shell(client, 'emu-1', 'rm -rf /sdcard/a; ls /sdcard/a')).to.equal(
      'ls: /sdcard/a: No such file or directory\n'
    )
    expect(await shell(client, 'emu-1', 'cat /sdcard/../../../../etc/hostname')).to.equal(
      'cat: /sdcard/../../../../etc/hostname: No such file or directory\n'
    )
  })
})

describe('emulator sync limits', () => {
  it('rejects a DATA chunk over 64 KiB as adbd does (adbkit pushing an objectMode stream)', async () => {
    const emu = await emulate()
    try {
      const transfer = await clientFor(emu)
        .getDevice('emu-1')
        .push(Readable.from([randomBytes(100_000)]), '/sdcard/x.bin')
      const error = await new Promise<Error>((resolve) => transfer.on('error', resolve))
      expect(error.message).to.match(/oversize data message/)
    } finally {
      await emu.close()
    }
  })
})

describe('emulator device files', () => {
  let emu: Emulator
  let client: AdbClient
  before(async () => {
    emu = await emulate()
    client = clientFor(emu)
  })
  after(() => emu.close())

  it('shared storage finds a name whatever its case, as a phone does; /data/local/tmp tells case apart', async () => {
    const device = emu.device('emu-1')
    const ask = (command: string) => shellV2(client, 'emu-1', command)
    await push(client, Buffer.from('first'), '/sdcard/Download/Notes.txt')
    expect((await pull(client, '/sdcard/DOWNLOAD/notes.TXT')).toString()).to.equal('first')
    expect((await client.getDevice('emu-1').stat('/storage/emulated/0/download/NOTES.txt')).size).to.equal(5)
    // A write under another case is a write of the same file, which keeps the name it was made with.
    await push(client, Buffer.from('second'), '/sdcard/download/notes.txt')
    expect(readdirSync(path.join(device.files.root, 'storage/emulated/0/Download'))).to.include('Notes.txt')
    expect(readdirSync(path.join(device.files.root, 'storage/emulated/0/Download'))).to.not.include('notes.txt')
    expect(readFileSync(path.join(device.files.root, 'storage/emulated/0/Download/Notes.txt'), 'utf8')).to.equal(
      'second'
    )
    // Unicode case and normalization forms too (ext4/f2fs casefold: NFD, then case folded).
    await push(client, Buffer.from('e'), '/sdcard/Download/Caf\u00e9.txt')
    expect((await pull(client, '/sdcard/Download/CAFE\u0301.TXT')).toString()).to.equal('e')
    expect((await ask("ls -- '/sdcard/DownLoad/NOTES.TXT'")).stdout.toString()).to.equal('/sdcard/DownLoad/NOTES.TXT\n')
    expect((await ask("rm -- '/sdcard/download/notes.txt'")).exitCode).to.equal(0)
    expect(existsSync(path.join(device.files.root, 'storage/emulated/0/Download/Notes.txt'))).to.equal(false)
    // /data is ext4 or f2fs without casefold: two names, two files.
    await push(client, Buffer.from('upper'), '/data/local/tmp/Case.txt')
    await push(client, Buffer.from('lower'), '/data/local/tmp/case.txt')
    expect((await pull(client, '/data/local/tmp/Case.txt')).toString()).to.equal('upper')
    expect((await pull(client, '/data/local/tmp/case.txt')).toString()).to.equal('lower')
    const missing = await client
      .getDevice('emu-1')
      .stat('/data/local/tmp/CASE.txt')
      .then(
        () => undefined,
        (e: NodeJS.ErrnoException) => e
      )
    expect(missing?.code).to.equal('ENOENT')
  })

  it('resolves device symlinks in device space: an absolute link never reaches the host’s files', async () => {
    const device = emu.device('emu-1')
    const {symlinkSync} = await import('node:fs')
    const path = await import('node:path')
    await push(client, Buffer.from('device hosts'), '/system/etc/hosts')
    symlinkSync('/system/etc/hosts', path.join(device.files.root, 'data/local/tmp/hosts-link'))
    symlinkSync('/etc', path.join(device.files.root, 'data/local/tmp/etc-link'))
    expect((await pull(client, '/data/local/tmp/hosts-link')).toString()).to.equal('device hosts')
    expect((await client.getDevice('emu-1').stat('/data/local/tmp/hosts-link')).isSymbolicLink()).to.equal(true)
    // The host has /etc/hostname; the device has no /etc at all.
    const missing = await client
      .getDevice('emu-1')
      .stat('/data/local/tmp/etc-link/hostname')
      .then(
        () => undefined,
        (e: NodeJS.ErrnoException) => e
      )
    expect(missing?.code).to.equal('ENOENT')
    symlinkSync('loop2', path.join(device.files.root, 'data/local/tmp/loop1'))
    symlinkSync('loop1', path.join(device.files.root, 'data/local/tmp/loop2'))
    expect(await shell(client, 'emu-1', 'realpath /data/local/tmp/loop1')).to.match(/Too many levels of symbolic links/)
    expect(await shell(client, 'emu-1', 'realpath /sdcard/Download')).to.equal('/storage/emulated/0/Download\n')
  })
})

describe('emulator: paths closed to the shell user, as adbd and toybox answer them', () => {
  let emu: Emulator
  let client: AdbClient
  let root: string
  before(async () => {
    emu = await emulate()
    client = clientFor(emu)
    root = emu.device('emu-1').files.root
    const {chmodSync, mkdirSync, writeFileSync} = await import('node:fs')
    const path = await import('node:path')
    // An app's data folder (0700: the shell may not look inside) and a system file it may see but not open (0640).
    mkdirSync(path.join(root, 'data/data/com.example/databases'), {recursive: true})
    writeFileSync(path.join(root, 'data/data/com.example/databases/x.db'), 'rows')
    chmodSync(path.join(root, 'data/data/com.example'), 0o700)
    mkdirSync(path.join(root, 'data/system'), {recursive: true})
    writeFileSync(path.join(root, 'data/system/packages.xml'), '<packages/>')
    chmodSync(path.join(root, 'data/system/packages.xml'), 0o640)
  })
  after(async () => {
    const {chmodSync} = await import('node:fs')
    chmodSync(`${root}/data/data/com.example`, 0o755)
    await emu.close()
  })

  /** One raw sync STAT (v1): adbd's 12 bytes after `STAT` (mode, size, mtime), with no client reading them for us. */
  async function rawStat(target: string): Promise<Buffer> {
    const stream = await client.getDevice('emu-1').openLocal('sync:')
    const name = Buffer.from(target, 'utf8')
    const head = Buffer.alloc(8)
    head.write('STAT', 0, 'latin1')
    head.writeUInt32LE(name.length, 4)
    stream.write(Buffer.concat([head, name]))
    const reply = await new Promise<Buffer>((resolve) => {
      let got = Buffer.alloc(0)
      stream.on('data', (chunk: Buffer) => {
        got = Buffer.concat([got, chunk])
        if (got.length >= 16) resolve(got)
      })
    })
    stream.end()
    expect(reply.toString('latin1', 0, 4)).to.equal('STAT')
    return reply.subarray(4, 16)
  }

  it('sync STAT of a path inside a folder the shell may not search is all zeros, as for a missing path', async () => {
    expect(await rawStat('/data/data/com.example/databases/x.db')).to.deep.equal(Buffer.alloc(12))
    expect(await rawStat('/data/data/com.example/databases')).to.deep.equal(Buffer.alloc(12))
    expect(await rawStat('/data/data/no-such-app')).to.deep.equal(Buffer.alloc(12))
    // The folder itself, and a file the shell may see but not open, are there to lstat.
    expect((await rawStat('/data/data/com.example')).readUInt32LE(0) & 0o170777).to.equal(0o040700)
    expect((await rawStat('/data/system/packages.xml')).readUInt32LE(0) & 0o170777).to.equal(0o100640)
  })

  it('LIST is empty, RECV and SEND fail with Permission denied', async () => {
    expect(await client.getDevice('emu-1').readdir('/data/data/com.example')).to.deep.equal([])
    expect(await client.getDevice('emu-1').readdir('/data/data/com.example/databases')).to.deep.equal([])
    for (const target of ['/data/data/com.example/databases/x.db', '/data/system/packages.xml']) {
      const transfer = await client.getDevice('emu-1').pull(target)
      const error = await new Promise<Error>((resolve) => transfer.on('error', resolve))
      expect(error.message, target).to.equal("Failure: 'open failed: Permission denied'")
    }
    const error = await push(client, Buffer.from('x'), '/data/data/com.example/new.txt').then(
      () => undefined,
      (e: Error) => e
    )
    expect(error?.message).to.equal("Failure: 'couldn't create file: Permission denied'")
  })

  it('toybox says Permission denied where it cannot look, No such file or directory where nothing is', async () => {
    const ask = (command: string) => shellV2(client, 'emu-1', command)
    const denied = await ask("ls -ld -- '/data/data/com.example/databases/x.db'")
    expect([denied.stdout.toString(), denied.stderr.toString(), denied.exitCode]).to.deep.equal([
      '',
      'ls: /data/data/com.example/databases/x.db: Permission denied\n',
      1,
    ])
    const missing = await ask("ls -ld -- '/data/data/no-such-app'")
    expect([missing.stderr.toString(), missing.exitCode]).to.deep.equal([
      'ls: /data/data/no-such-app: No such file or directory\n',
      1,
    ])
    expect((await ask('ls -ld -- /data/data/com.example')).stdout.toString()).to.match(
      /^drwx------ .* \/data\/data\/com\.example\n$/
    )
    expect((await ask('ls -a -- /data/data/com.example')).stderr.toString()).to.equal(
      'ls: /data/data/com.example: Permission denied\n'
    )
    expect((await ask('cat /data/system/packages.xml')).stderr.toString()).to.equal(
      'cat: /data/system/packages.xml: Permission denied\n'
    )
    expect((await ask('realpath -- /data/data/com.example/databases')).stderr.toString()).to.equal(
      'realpath: /data/data/com.example/databases: Permission denied\n'
    )
    expect((await ask('rm -f -- /data/data/com.example/databases/x.db')).stderr.toString()).to.equal(
      'rm: /data/data/com.example/databases/x.db: Permission denied\n'
    )
  })
})
