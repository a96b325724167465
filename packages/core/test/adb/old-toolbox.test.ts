import {chmodSync, existsSync, mkdirSync, writeFileSync} from 'node:fs'
import path from 'node:path'

import {expect} from 'chai'

import type {ArcError} from '../../src/errors/arc-error.js'
import {useEmulator} from '@arc-cli/test-support/emulator-support'

/**
 * Android 5.1 ran Android's own toolbox for ls, mkdir and df, and 6.0 for ls and df (system/core toolbox/Android.mk;
 * the virtual device does as that toolbox: docs/emulate.md). Its ls takes `--` for an unknown option, its mkdir
 * for a folder to make in `/`, its df for a path: arc's file operations must work there without it.
 */
describe("arc's file operations on toolbox's ls, mkdir and df (Android 5.1 and 6.0)", () => {
  const h = useEmulator({devices: ['l', 'm'].map((serial) => ({serial, app: 'demo' as const}))})
  before(() => {
    h.emu.device('l').properties.set('ro.build.version.sdk', '22')
    h.emu.device('m').properties.set('ro.build.version.sdk', '23')
  })

  for (const serial of ['l', 'm']) {
    it(`${serial === 'l' ? '5.1' : '6.0'}: makes folders, lists an empty one, and tells a refused path from a missing one`, async () => {
      const device = h.emu.device(serial)
      const host = (devicePath: string) => path.join(device.files.root, devicePath)
      const driver = await h.driver(serial)
      try {
        await driver.makeDirs('/sdcard/Download/new/deep')
        expect(existsSync(host('storage/emulated/0/Download/new/deep'))).to.equal(true)
        await driver.writeFile('/sdcard/Download/new/deep/a.txt', Buffer.from('a'))
        mkdirSync(host('storage/emulated/0/Download/empty'))
        expect(await driver.listDir('/sdcard/Download/empty')).to.deep.equal([])
        mkdirSync(host('data/local/tmp/app'), {recursive: true})
        writeFileSync(host('data/local/tmp/app/notes.txt'), 'private')
        chmodSync(host('data/local/tmp/app'), 0o700)
        try {
          const refused = await driver.statFile('/data/local/tmp/app/notes.txt', {sure: true}).then(
            () => undefined,
            (e: unknown) => e as ArcError
          )
          expect(refused?.code).to.equal('DEVICE_ACCESS_DENIED')
          const unlisted = await driver.listDir('/data/local/tmp/app').then(
            () => undefined,
            (e: unknown) => e as ArcError
          )
          expect(unlisted?.code).to.equal('DEVICE_ACCESS_DENIED')
        } finally {
          chmodSync(host('data/local/tmp/app'), 0o755)
        }
        expect(await driver.statFile('/data/local/tmp/nothing', {sure: true})).to.equal(undefined)
        // Toolbox's df has no -k and rounds its sizes: no exact count, and no error either.
        expect(await driver.freeBytes('/sdcard/Download')).to.equal(undefined)
      } finally {
        await driver.close()
      }
    })
  }
})
