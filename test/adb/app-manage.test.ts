import {readdirSync} from 'node:fs'
import {mkdtemp, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

import {expect} from 'chai'

import {tools} from '../../src/tools/index.js'
import {useDemoDevice} from '@arc-cli/test-support/emulator-support'
import {NASTY_STRINGS} from '@arc-cli/test-support/nasty-strings'
import {toolContext} from '@arc-cli/test-support/tool-context'

const tool = (name: string) => tools.find((t) => t.name === name)!

/** A file `pm install` on `arc emulate` takes for an APK: a ZIP header and the emulator's package marker. */
function fakeApk(name: string, versionCode = 1): Buffer {
  return Buffer.concat([
    Buffer.from('PK\u0003\u0004', 'latin1'),
    Buffer.from(`....ARC_EMULATE_PACKAGE=${name};versionCode=${versionCode}....`),
  ])
}

describe('app install, uninstall, clear, open-url and permissions through the ADB driver', () => {
  const h = useDemoDevice({
    packages: [
      {
        name: 'com.example.cam',
        versionCode: 5,
        launcher: '.Main',
        permissions: ['android.permission.CAMERA'],
        links: ['cam://'],
      },
    ],
  })
  let dir: string
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'arc-apps-'))
    await writeFile(path.join(dir, 'new.apk'), fakeApk('com.example.fresh', 3))
    await writeFile(path.join(dir, 'old.apk'), fakeApk('com.example.cam', 2))
    await writeFile(path.join(dir, 'notzip.apk'), 'hello')
  })

  async function run(name: string, input: Record<string, unknown>) {
    const driver = await h.driver()
    const from = h.emu.commands.length
    const ctx = toolContext(driver, {cwd: dir})
    try {
      const parsed = tool(name).input.safeParse(input)
      if (!parsed.success) throw parsed.error
      const result = await tool(name).handler(ctx, parsed.data)
      return {...result, argv: h.argvSince(from)}
    } finally {
      await driver.close()
    }
  }
  async function fails(name: string, input: Record<string, unknown>) {
    const from = h.emu.commands.length
    try {
      await run(name, input)
    } catch (error) {
      return {
        error: error as Error & {code?: string; details?: Record<string, unknown>; actions?: string[]},
        argv: h.argvSince(from),
      }
    }
    throw new Error(`${name} did not fail`)
  }
  const installed = (name: string) => h.emu.device('emu-1').findPackage(name)

  it('install pushes the APK to a fresh file, runs pm install with the flags, then removes it', async () => {
    const r = await run('install_app', {apk: 'new.apk', grant_all: true})
    const [push, install, rm] = r.argv as [string[], string[], string[]]
    expect(push[0]).to.equal('SEND')
    const remote = push[1] as string
    expect(remote).to.match(/^\/data\/local\/tmp\/arc-install-[0-9a-f]{12}\.apk$/)
    expect(install).to.deep.equal(['pm', 'install', '-g', remote])
    expect(rm).to.deep.equal(['rm', '-f', remote])
    expect(r.text).to.equal(`App installed successfully: ${path.join(dir, 'new.apk')}`)
    expect(r.data).to.deep.include({grant_all: true, replace: false})
    expect(installed('com.example.fresh')?.versionCode).to.equal(3)
  })

  it('an install cut off while pm installs (a cancelled call) still removes the pushed APK before its close ends', async () => {
    const device = h.emu.device('emu-1')
    const installing = device.holdNext('pm install', 'before')
    const driver = await h.driver()
    const from = h.emu.commands.length
    const ctx = toolContext(driver, {cwd: dir})
    const call = tool('install_app')
      .handler(ctx, tool('install_app').input.parse({apk: 'new.apk', replace: true}))
      .then(
        () => undefined,
        (e: unknown) => e
      )
    await installing.arrived
    await driver.close()
    installing.release()
    await call
    const remote = h.argvSince(from).find((a) => a[0] === 'SEND')?.[1] as string
    expect(remote).to.match(/^\/data\/local\/tmp\/arc-install-/)
    expect(h.argvSince(from)).to.deep.include(['rm', '-f', remote])
    expect(
      readdirSync(device.files.hostPath('/data/local/tmp')).filter((f) => f.startsWith('arc-install-'))
    ).to.deep.equal([])
  })

  it('a write cut off while its rename runs (a cancelled call) is CANCELLED, and its temporary file is removed', async () => {
    const device = h.emu.device('emu-1')
    const renaming = device.holdNext('mv', 'before')
    const driver = await h.driver()
    const from = h.emu.commands.length
    const writing = driver.writeFile('/sdcard/cut.txt', Buffer.from('new')).then(
      () => undefined,
      (e: unknown) => e
    )
    await renaming.arrived
    await driver.close()
    renaming.release()
    expect(await writing).to.have.property('code', 'CANCELLED')
    const temp = h.argvSince(from).find((a) => a[0] === 'SEND')?.[1] as string
    expect(h.argvSince(from)).to.deep.include(['rm', '-f', '--', temp])
    expect(readdirSync(device.files.hostPath('/sdcard')).filter((f) => f.startsWith('cut.txt'))).to.deep.equal([])
  })

  it('install without --replace over an installed app fails with the reason and a next step, and cleans up', async () => {
    const {error, argv} = await fails('install_app', {apk: 'old.apk', replace: false})
    expect(error.code).to.equal('DEVICE_COMMAND_FAILED')
    expect(error.details?.reason).to.equal('INSTALL_FAILED_ALREADY_EXISTS')
    expect(error.actions?.[0]).to.contain('--replace')
    expect(argv.at(-1)?.slice(0, 2)).to.deep.equal(['rm', '-f'])
  })

  it('install --replace of a lower version needs --downgrade; -r -d installs it', async () => {
    const {error} = await fails('install_app', {apk: 'old.apk', replace: true})
    expect(error.details?.reason).to.equal('INSTALL_FAILED_VERSION_DOWNGRADE')
    expect(error.actions?.[0]).to.contain('--downgrade')
    const r = await run('install_app', {apk: 'old.apk', replace: true, downgrade: true, allow_test: true})
    expect(r.argv[1]?.slice(0, 5)).to.deep.equal(['pm', 'install', '-r', '-d', '-t'])
    expect(installed('com.example.cam')?.versionCode).to.equal(2)
  })

  it('install refuses a missing file, a folder and a non-APK before anything is sent', async () => {
    for (const apk of ['missing.apk', '.', 'notzip.apk']) {
      const {error, argv} = await fails('install_app', {apk})
      expect(error.code, apk).to.equal('INVALID_INPUT')
      expect(error.message).to.contain('argument <apk>')
      expect(argv, apk).to.deep.equal([])
    }
  })

  it('grant and revoke send pm grant/revoke with the full permission name (short names expanded)', async () => {
    const g = await run('grant_permission', {package_id: 'com.example.cam', permission: 'CAMERA'})
    expect(g.argv).to.deep.equal([['pm', 'grant', 'com.example.cam', 'android.permission.CAMERA']])
    expect(g.text).to.equal('Permission granted successfully: android.permission.CAMERA to com.example.cam')
    expect([...(installed('com.example.cam')?.granted ?? [])]).to.deep.equal(['android.permission.CAMERA'])
    const r = await run('revoke_permission', {package_id: 'com.example.cam', permission: 'android.permission.CAMERA'})
    expect(r.argv).to.deep.equal([['pm', 'revoke', 'com.example.cam', 'android.permission.CAMERA']])
    expect(r.data).to.deep.equal({
      package_id: 'com.example.cam',
      permission: 'android.permission.CAMERA',
      granted: false,
    })
    expect(installed('com.example.cam')?.granted?.size).to.equal(0)
  })

  // Android stops an app whose granted runtime permission is revoked (PermissionManagerServiceImpl,
  // revokeRuntimePermissionInternal: onPermissionRevoked kills the uid); the virtual device left it running.
  it('revoke of a granted permission stops the app, as Android does; of one not granted, leaves it running', async () => {
    const device = h.emu.device('emu-1')
    await run('grant_permission', {package_id: 'com.example.cam', permission: 'CAMERA'})
    device.launch(device.findPackage('com.example.cam')!)
    expect(device.running.has('com.example.cam')).to.equal(true)
    await run('revoke_permission', {package_id: 'com.example.cam', permission: 'CAMERA'})
    expect(device.running.has('com.example.cam')).to.equal(false)
    expect(device.foreground.package).to.not.equal('com.example.cam')
    device.launch(device.findPackage('com.example.cam')!)
    await run('revoke_permission', {package_id: 'com.example.cam', permission: 'CAMERA'})
    expect(device.running.has('com.example.cam')).to.equal(true)
    expect(tool('revoke_permission').description).to.include('Android stops the app')
  })

  it('grant of an undeclared permission or to an unknown app fails clearly', async () => {
    const undeclared = await fails('grant_permission', {package_id: 'com.example.cam', permission: 'READ_CONTACTS'})
    expect(undeclared.error.code).to.equal('DEVICE_COMMAND_FAILED')
    expect(undeclared.error.message).to.contain('has not requested permission android.permission.READ_CONTACTS')
    const unknown = await fails('grant_permission', {package_id: 'com.example.nope', permission: 'CAMERA'})
    expect(unknown.error.message).to.equal('app com.example.nope is not installed on emu-1')
  })

  it('package and permission names are validated before anything is sent', async () => {
    for (const [name, input] of [
      ['grant_permission', {package_id: 'com.example.cam', permission: 'CAMERA; reboot'}],
      ['grant_permission', {package_id: "com.x'y", permission: 'CAMERA'}],
      ['uninstall_app', {package_id: 'nodots'}],
      ['clear_app_data', {package_id: '$(id).x'}],
      ['open_url', {url: 'no scheme'}],
      ['open_url', {url: 'https://a b'}],
    ] as const) {
      const {error, argv} = await fails(name, input)
      expect(error.name, JSON.stringify(input)).to.equal('ZodError')
      expect(argv).to.deep.equal([])
    }
  })

  it('open-url starts a VIEW intent and the app that handles the link comes to the front', async () => {
    const r = await run('open_url', {url: 'cam://shot?x=1&y=2'})
    expect(r.argv).to.deep.equal([
      ['am', 'start', '-W', '-a', 'android.intent.action.VIEW', '-d', 'cam://shot?x=1&y=2'],
    ])
    expect(h.emu.device('emu-1').foreground.package).to.equal('com.example.cam')
    const {error} = await fails('open_url', {url: 'nothing://here'})
    expect(error.code).to.equal('DEVICE_COMMAND_FAILED')
    expect(error.message).to.equal('no app on emu-1 opens nothing://here')
  })

  it('open-url sends URLs with quotes, $() and backticks byte for byte', async () => {
    for (const nasty of NASTY_STRINGS.filter((s) => !/\s/.test(s) && s !== '')) {
      const url = `https://example.com/${nasty}`
      const r = await run('open_url', {url})
      expect(r.argv[0]?.at(-1)).to.equal(url)
    }
  })

  it('clear runs pm clear on an installed app and refuses unknown ones', async () => {
    const r = await run('clear_app_data', {package_id: 'com.example.cam'})
    expect(r.argv).to.deep.equal([
      ['pm', 'path', 'com.example.cam'],
      ['pm', 'clear', 'com.example.cam'],
    ])
    const {error, argv} = await fails('clear_app_data', {package_id: 'com.example.nope'})
    expect(error.message).to.equal('app com.example.nope is not installed on emu-1')
    expect(argv).to.deep.equal([['pm', 'path', 'com.example.nope']])
  })

  it('uninstall sends -k only with keep_data, and an unknown app is "not installed"', async () => {
    const keep = await run('uninstall_app', {package_id: 'com.example.fresh', keep_data: true})
    expect(keep.argv).to.deep.equal([['pm', 'uninstall', '-k', 'com.example.fresh']])
    expect(installed('com.example.fresh')).to.equal(undefined)
    const {error, argv} = await fails('uninstall_app', {package_id: 'com.example.fresh'})
    expect(argv).to.deep.equal([
      ['pm', 'uninstall', 'com.example.fresh'],
      ['pm', 'path', 'com.example.fresh'],
    ])
    expect(error.message).to.equal('app com.example.fresh is not installed on emu-1')
  })
})
