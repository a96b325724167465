import {expect} from 'chai'
import {mkdtemp, readdir, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

import {FileDeviceState, MemoryDeviceState, arcCacheDir, serialFolderName} from '@arc-cli/core'

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
    for (const name of names) expect(name).to.match(/^[A-Za-z0-9._%-]+$/).and.not.match(/^\.\.?$/)
  })

  it('keeps JSON per key in a file and reads a corrupt file as missing', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'arc-state-'))
    const state = new FileDeviceState('192.168.1.5:5555', dir)
    expect(await state.get('ids')).to.equal(undefined)
    await state.set('ids', {a: 1})
    expect(await state.get('ids')).to.deep.equal({a: 1})
    expect(await readdir(state.dir)).to.deep.equal(['ids.json'])
    await writeFile(path.join(state.dir, 'ids.json'), '{not json')
    expect(await state.get('ids')).to.equal(undefined)
    await state.delete('ids')
    expect(await readdir(state.dir)).to.deep.equal([])
    await state.set('x', 1)
    expect(await new FileDeviceState('192.168.1.5:5555', dir).get('x')).to.equal(1)
    expect(await new FileDeviceState('other', dir).get('x')).to.equal(undefined)
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
    const read = await state.get<{list: number[]}>('k')
    expect(read).to.deep.equal({list: [1]})
  })
})
