import {expect} from 'chai'
import {chmod, lstat, mkdir, mkdtemp, readdir, readFile, symlink, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

import {FileDeviceState, MemoryDeviceState, arcCacheDir, serialFolderName} from '@arc-cli/core'
import {isRoot, mountTmpfs} from '@arc-cli/test-support/hostile'

/** Accepts any value: these tests are about storage, not shapes. */
const any = (value: unknown): value is unknown => value !== undefined

describe('device state', () => {
  it('finds the cache folder from ARC_CACHE_DIR, XDG_CACHE_HOME, then the platform default', () => {
    expect(arcCacheDir({ARC_CACHE_DIR: '/tmp/x'}, 'linux')).to.equal('/tmp/x')
    expect(arcCacheDir({XDG_CACHE_HOME: '/c'}, 'linux')).to.equal('/c/arc')
    expect(arcCacheDir({}, 'darwin')).to.equal(path.join(os.homedir(), 'Library', 'Caches', 'arc'))
    expect(arcCacheDir({}, 'linux')).to.equal(path.join(os.homedir(), '.cache', 'arc'))
  })

  it('gives every serial its own folder name, safe on any file system', () => {
    const serials = ['emulator-5554', '192.168.1.5:5555', './snapshots/login', 'a/b', 'a%2Fb', '..', 'ü']
    const names = serials.map(serialFolderName)
    expect(new Set(names).size).to.equal(serials.length)
    for (const name of names)
      expect(name)
        .to.match(/^[A-Za-z0-9._%-]+$/)
        .and.not.match(/^\.\.?$/)
  })

  it('keeps JSON per key in a file and reads a corrupt file as missing', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'arc-state-'))
    const state = new FileDeviceState('192.168.1.5:5555', dir)
    expect(await state.get('ids', any)).to.equal(undefined)
    await state.set('ids', {a: 1})
    expect(await state.get('ids', any)).to.deep.equal({a: 1})
    expect(await readdir(state.dir)).to.deep.equal(['ids.json'])
    await writeFile(path.join(state.dir, 'ids.json'), '{not json')
    expect(await state.get('ids', any)).to.equal(undefined)
    await state.delete('ids')
    expect(await readdir(state.dir)).to.deep.equal([])
    await state.set('x', 1)
    expect(await new FileDeviceState('192.168.1.5:5555', dir).get('x', any)).to.equal(1)
    expect(await new FileDeviceState('other', dir).get('x', any)).to.equal(undefined)
  })

  it('refuses keys that are not plain words', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'arc-state-'))
    for (const state of [new FileDeviceState('s', dir), new MemoryDeviceState()]) {
      let caught: unknown
      await state.set('../x', 1).catch((error) => (caught = error))
      expect(String(caught)).to.match(/not a plain word/)
    }
  })

  it('copies values in and out of memory', async () => {
    const state = new MemoryDeviceState()
    const value = {list: [1]}
    await state.set('k', value)
    value.list.push(2)
    const read = await state.get('k', any)
    expect(read).to.deep.equal({list: [1]})
  })

  describe('a damaged or unwritable cache is no error', () => {
    const isNumber = (value: unknown): value is number => typeof value === 'number'
    const unmounts: Array<() => Promise<void>> = []
    after(async () => {
      for (const unmount of unmounts) await unmount()
    })

    it('an entry of another shape, a folder in its place, a huge file: read as nothing; the next write replaces it', async () => {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'arc-state-'))
      const state = new FileDeviceState('s', dir)
      await state.set('n', 'not a number')
      expect(await state.get('n', isNumber)).to.equal(undefined)
      await mkdir(path.join(state.dir, 'f.json', 'inside'), {recursive: true})
      expect(await state.get('f', any)).to.equal(undefined)
      await state.set('f', 7)
      expect(await state.get('f', isNumber)).to.equal(7)
      expect((await lstat(path.join(state.dir, 'f.json'))).isFile()).to.equal(true)
    })

    it('a link planted where a temporary file goes is never followed: temporary names are random and created exclusively', async () => {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'arc-state-'))
      const victim = path.join(dir, 'victim.txt')
      await writeFile(victim, 'VICTIM')
      const state = new FileDeviceState('s', dir)
      await mkdir(state.dir, {recursive: true})
      // The name the old code used, and a link at the entry itself: neither is written through.
      await symlink(victim, path.join(state.dir, `k.json.${process.pid}.tmp`))
      await symlink(victim, path.join(state.dir, 'k.json'))
      await state.set('k', 1)
      expect(await readFile(victim, 'utf8')).to.equal('VICTIM')
      expect(await state.get('k', isNumber)).to.equal(1)
      expect((await lstat(path.join(state.dir, 'k.json'))).isFile()).to.equal(true)
    })

    for (const [what, folder] of [
      [
        'ARC_CACHE_DIR naming a file',
        async (dir: string) => {
          await writeFile(path.join(dir, 'afile'), 'x')
          return path.join(dir, 'afile')
        },
      ],
      ["ARC_CACHE_DIR under /proc (Node's recursive mkdir loops there for ever)", async () => '/proc/arc-cache-x'],
      [
        'a read-only cache folder',
        async (dir: string) => {
          // As root a 0555 folder is writable all the same: a read-only file system stands for it (EROFS).
          const disk = isRoot ? await mountTmpfs({sizeKb: 64, readOnly: true}) : undefined
          if (disk) {
            unmounts.push(disk.unmount)
            return disk.dir
          }
          await mkdir(path.join(dir, 'ro'))
          await chmod(path.join(dir, 'ro'), 0o555)
          return path.join(dir, 'ro')
        },
      ],
    ] as const) {
      it(`${what}: values live in memory for the process, and one warning names the folder and the variable`, async function () {
        const dir = await mkdtemp(path.join(os.tmpdir(), 'arc-state-'))
        const cache = await folder(dir)
        if (what === 'a read-only cache folder' && isRoot && unmounts.length === 0) this.skip() // root writes through 0555, and no tmpfs could be mounted
        const warnings: string[] = []
        const state = new FileDeviceState('s', cache, (message) => warnings.push(message), 'ARC_CACHE_DIR')
        await state.set('k', 1)
        await state.set('k', 2)
        expect(await state.get('k', isNumber)).to.equal(2)
        const second = new FileDeviceState('t', cache, (message) => warnings.push(message), 'ARC_CACHE_DIR')
        await second.set('k', 3)
        expect(warnings).to.have.length(1)
        expect(warnings[0]).to.match(
          new RegExp(`^arc cannot write its cache folder ${cache.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(`)
        )
        expect(warnings[0]).to.include('Point ARC_CACHE_DIR at a writable folder.')
      })
    }
  })
})
