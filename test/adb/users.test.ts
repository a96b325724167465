import {expect} from 'chai'

import {useDemoDevice} from '@arc-cli/test-support/emulator-support'
import {runArc} from '@arc-cli/test-support/run-arc'

/**
 * A work profile (user 10) whose app the owner lacks: `pm` lists the system user's packages unless told `--user`
 * (AOSP PackageManagerShellCommand.runListPackages), `am` starts for the current user. arc's app tools take --user.
 */
describe('a work profile: apps of user 10 are invisible to pm without --user, and app list / app open take one', () => {
  const h = useDemoDevice({
    users: [{id: 10, name: 'Work profile', workProfile: true}],
    packages: [{name: 'com.example.work', launcher: '.Main', users: [10]}],
  })
  const arc = (...args: string[]) => runArc([...args, '--device', 'emu-1'], {env: h.env})
  const ids = (stdout: string) =>
    (JSON.parse(stdout) as {apps: Array<{package_id: string}>}).apps.map((a) => a.package_id)

  it('the device lists its users as pm list users prints them', async () => {
    const run = await arc('shell', '--', 'pm', 'list', 'users')
    expect(run.stdout).to.equal('Users:\n\tUserInfo{0:Owner:c13} running\n\tUserInfo{10:Work profile:1030} running\n')
  })

  it('app list shows user 0’s apps; --user 10 shows the work profile’s', async () => {
    const owner = await arc('app', 'list', '--filter', 'user', '--json')
    expect(owner.code, owner.stderr).to.equal(0)
    expect(ids(owner.stdout)).not.to.include('com.example.work')
    const work = await arc('app', 'list', '--filter', 'user', '--user', '10', '--json')
    expect(work.code, work.stderr).to.equal(0)
    expect(ids(work.stdout)).to.deep.equal(['com.example.work'])
  })

  it('app open fails for the owner, naming --user; with --user 10 it starts the app (am start --user 10)', async () => {
    const refused = await arc('app', 'open', 'com.example.work')
    expect(refused.code).to.equal(8)
    expect(refused.stderr)
      .to.include('app com.example.work is not installed on emu-1')
      .and.include('arc app open PKG --user N')
    const from = h.emu.commands.length
    const opened = await arc('app', 'open', 'com.example.work', '--user', '10')
    expect(opened.code, opened.stderr).to.equal(0)
    expect(h.emu.device('emu-1').foreground.package).to.equal('com.example.work')
    expect(
      h
        .argvSince(from)
        .find((argv) => argv[0] === 'am')
        ?.slice(0, 5)
    ).to.deep.equal(['am', 'start', '-W', '--user', '10'])
  })

  it('a user id that is no number is refused before anything is sent (exit 2, naming --user)', async () => {
    const run = await arc('app', 'list', '--user', 'work')
    expect(run.code).to.equal(2)
    expect(run.stderr).to.include('--user')
  })
})

describe('app open --user on a package with two launcher icons', () => {
  const h = useDemoDevice({
    users: [{id: 10, name: 'Work profile', workProfile: true}],
    // Two launcher icons: resolve-activity answers the chooser, so arc lists them with query-activities.
    packages: [{name: 'com.example.twice', launcher: '.Main', moreLaunchers: ['.Debug'], users: [10]}],
  })
  const arc = (...args: string[]) => runArc([...args, '--device', 'emu-1'], {env: h.env})

  it('a package with two launchers is looked up for the user asked (query-activities --user), never the owner', async () => {
    const from = h.emu.commands.length
    const opened = await arc('app', 'open', 'com.example.twice', '--user', '10')
    expect(opened.code, opened.stderr).to.equal(0)
    const query = h.argvSince(from).find((argv) => argv[2] === 'query-activities')
    expect(query?.slice(0, 6)).to.deep.equal(['cmd', 'package', 'query-activities', '--brief', '--user', '10'])
    expect(h.emu.device('emu-1').foreground.package).to.equal('com.example.twice')
  })
})

/**
 * The app tools that change an app take --user as the device commands do, and the virtual device keeps each user's
 * copy apart (running processes and runtime permissions are per user; pm clear/grant default to user 0, am
 * force-stop and pm uninstall to every user: AOSP ActivityManagerShellCommand.runForceStop, PackageManagerShellCommand
 * runClear/runGrantRevokePermission/runUninstall).
 */
describe('app close / clear / grant / revoke / uninstall --user act on that user’s copy alone', () => {
  const CAMERA = 'android.permission.CAMERA'
  const h = useDemoDevice({
    users: [{id: 10, name: 'Work profile', workProfile: true}],
    packages: [
      {name: 'com.example.both', launcher: '.Main', users: [0, 10], permissions: [CAMERA]},
      {name: 'com.example.work', launcher: '.Main', users: [10], permissions: [CAMERA]},
    ],
  })
  const arc = (...args: string[]) => runArc([...args, '--device', 'emu-1'], {env: h.env})
  const pkg = (name: string) => h.emu.device('emu-1').packages.find((p) => p.name === name)
  const grants = (name: string, user: number) =>
    [...((user === 0 ? pkg(name)?.granted : pkg(name)?.grantedByUser?.get(user)) ?? [])].sort()
  const sent = (from: number, program: string) => h.argvSince(from).filter((argv) => argv[0] === program)

  it('grant --user 10 grants to the work profile’s copy only (pm grant --user 10), revoke --user 10 takes it back', async () => {
    const from = h.emu.commands.length
    const run = await arc('app', 'grant', 'com.example.both', 'CAMERA', '--user', '10', '--json')
    expect(run.code, run.stderr).to.equal(0)
    expect(JSON.parse(run.stdout)).to.deep.include({package_id: 'com.example.both', user: 10, granted: true})
    expect(sent(from, 'pm').at(-1)).to.deep.equal(['pm', 'grant', '--user', '10', 'com.example.both', CAMERA])
    expect(grants('com.example.both', 10)).to.deep.equal([CAMERA])
    expect(grants('com.example.both', 0)).to.deep.equal([])
    const revoked = await arc('app', 'revoke', 'com.example.both', 'CAMERA', '--user', '10')
    expect(revoked.code, revoked.stderr).to.equal(0)
    expect(grants('com.example.both', 10)).to.deep.equal([])
    // Without --user it is the owner's copy: an app only the work profile has is not installed there.
    const owner = await arc('app', 'grant', 'com.example.work', 'CAMERA')
    expect(owner.code).to.equal(8)
    expect(owner.stderr).to.include('com.example.work is not installed on emu-1').and.include('--user N')
  })

  it('grant --user for a user that lacks the app fails before pm grant (a phone says nothing and changes nothing)', async () => {
    const from = h.emu.commands.length
    const run = await arc('app', 'grant', 'com.example.work', 'CAMERA', '--user', '11')
    expect(run.code).to.equal(8)
    expect(run.stderr).to.include('not installed for user 11')
    expect(sent(from, 'pm').map((argv) => argv[1])).to.deep.equal(['path'])
  })

  it('clear --user 10 clears the work profile’s copy (pm clear --user 10 PKG, the option first) and not the owner’s', async () => {
    expect((await arc('app', 'grant', 'com.example.both', 'CAMERA')).code).to.equal(0)
    expect((await arc('app', 'grant', 'com.example.both', 'CAMERA', '--user', '10')).code).to.equal(0)
    const from = h.emu.commands.length
    const run = await arc('app', 'clear', 'com.example.both', '--user', '10')
    expect(run.code, run.stderr).to.equal(0)
    expect(sent(from, 'pm').at(-1)).to.deep.equal(['pm', 'clear', '--user', '10', 'com.example.both'])
    expect(grants('com.example.both', 10)).to.deep.equal([])
    expect(grants('com.example.both', 0)).to.deep.equal([CAMERA])
    const owner = await arc('app', 'clear', 'com.example.work')
    expect(owner.code).to.equal(8)
    expect((await arc('app', 'clear', 'com.example.work', '--user', '10')).code).to.equal(0)
  })

  it('close --user 10 stops the work profile’s copy and leaves the owner’s running; close without --user stops all', async () => {
    expect((await arc('app', 'open', 'com.example.both')).code).to.equal(0)
    expect((await arc('app', 'open', 'com.example.both', '--user', '10')).code).to.equal(0)
    const device = h.emu.device('emu-1')
    expect([...(device.runningUsers.get('com.example.both') ?? [])].sort()).to.deep.equal([0, 10])
    const from = h.emu.commands.length
    const run = await arc('app', 'close', 'com.example.both', '--user', '10')
    expect(run.code, run.stderr).to.equal(0)
    expect(sent(from, 'am').at(-1)).to.deep.equal(['am', 'force-stop', '--user', '10', 'com.example.both'])
    expect([...(device.runningUsers.get('com.example.both') ?? [])]).to.deep.equal([0])
    expect(device.running.has('com.example.both')).to.equal(true)
    expect((await arc('app', 'close', 'com.example.both')).code).to.equal(0)
    expect(device.running.has('com.example.both')).to.equal(false)
  })

  it('uninstall --user 10 removes the work profile’s copy only; a second time it is not installed for user 10', async () => {
    const from = h.emu.commands.length
    const run = await arc('app', 'uninstall', 'com.example.both', '--user', '10', '--json')
    expect(run.code, run.stderr).to.equal(0)
    expect(JSON.parse(run.stdout)).to.deep.include({package_id: 'com.example.both', user: 10})
    expect(sent(from, 'pm').at(0)).to.deep.equal(['pm', 'uninstall', '--user', '10', 'com.example.both'])
    expect(pkg('com.example.both')?.users).to.deep.equal([0])
    const again = await arc('app', 'uninstall', 'com.example.both', '--user', '10')
    expect(again.code).to.equal(8)
    expect(again.stderr).to.include('com.example.both is not installed for user 10 on emu-1')
  })

  for (const [bad, says] of [
    ['-1', '--user must be a user id, 0 or more'],
    ['10; reboot', '--user must be a whole number'],
    ['1.5', '--user must be a whole number'],
    ['all', '--user must be a whole number'],
  ] as const)
    it(`--user ${JSON.stringify(bad)} is refused before anything is sent (exit 2, saying what a user id is)`, async () => {
      for (const command of [
        ['app', 'close', 'com.example.both'],
        ['app', 'clear', 'com.example.both'],
        ['app', 'grant', 'com.example.both', 'CAMERA'],
        ['app', 'revoke', 'com.example.both', 'CAMERA'],
        ['app', 'uninstall', 'com.example.both'],
      ]) {
        const from = h.emu.commands.length
        const run = await arc(...command, `--user=${bad}`)
        expect(run.code, command.join(' ')).to.equal(2)
        expect(run.stderr, command.join(' ')).to.include(says)
        expect(h.argvSince(from)).to.deep.equal([])
      }
    })
})
