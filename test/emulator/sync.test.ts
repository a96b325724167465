import {randomBytes} from 'node:crypto'
import {Readable} from 'node:stream'

import {expect} from 'chai'
import type {Emulator} from '@arc-cli/emulator'

import {clientFor, emulate, readAll, shell, type AdbClient} from './support.js'

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
    expect(stats.mode & 0o777).to.equal(0o640)
    expect((await client.getDevice('emu-1').stat('/sdcard')).isSymbolicLink()).to.equal(true)
    expect((await client.getDevice('emu-1').stat('/sdcard/')).isDirectory()).to.equal(true)
    const missing = await client
      .getDevice('emu-1')
      .stat('/sdcard/nope')
      .then(() => undefined, (e: NodeJS.ErrnoException) => e)
    expect(missing?.code).to.equal('ENOENT')
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
    expect(await shell(client, 'emu-1', 'rm /sdcard/notes.txt; cat /sdcard/notes.txt')).to.equal('cat: /sdcard/notes.txt: No such file or directory\n')
    expect(await shell(client, 'emu-1', 'rm /sdcard/a')).to.equal('rm: /sdcard/a: Is a directory\n')
    expect(await shell(client, 'emu-1', 'rm -rf /sdcard/a; ls /sdcard/a')).to.equal('ls: /sdcard/a: No such file or directory\n')
    expect(await shell(client, 'emu-1', 'cat /sdcard/../../../../etc/hostname')).to.equal('cat: /sdcard/../../../../etc/hostname: No such file or directory\n')
  })
})

describe('emulator sync limits', () => {
  it('rejects a DATA chunk over 64 KiB as adbd does (adbkit pushing an objectMode stream)', async () => {
    const emu = await emulate()
    try {
      const transfer = await clientFor(emu).getDevice('emu-1').push(Readable.from([randomBytes(100_000)]), '/sdcard/x.bin')
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
      .then(() => undefined, (e: NodeJS.ErrnoException) => e)
    expect(missing?.code).to.equal('ENOENT')
    symlinkSync('loop2', path.join(device.files.root, 'data/local/tmp/loop1'))
    symlinkSync('loop1', path.join(device.files.root, 'data/local/tmp/loop2'))
    expect(await shell(client, 'emu-1', 'realpath /data/local/tmp/loop1')).to.match(/Too many levels of symbolic links/)
    expect(await shell(client, 'emu-1', 'realpath /sdcard/Download')).to.equal('/storage/emulated/0/Download\n')
  })
})
