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
