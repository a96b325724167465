import {readFileSync, writeFileSync} from 'node:fs'
import path from 'node:path'

import {expect} from 'chai'
import {ConfigError, DeviceNotFoundError, InvalidInputError} from '@arc-cli/core'
import {startEmulator} from '@arc-cli/emulator'

import {clientFor, DEMO_DIR, emulate, makeSnapshot, shell, tempDir} from './support.js'

async function rejection(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error('expected a rejection')
    },
    (e: Error) => e
  )
}

describe('emulator scenario and options', () => {
  const tmp = tempDir()
  after(() => tmp.cleanup())

  it('loads a scenario file with paths relative to it', async () => {
    makeSnapshot(path.join(tmp.dir, 'snaps', 'one'), 'One')
    const file = path.join(tmp.dir, 'scenario.json')
    writeFileSync(
      file,
      JSON.stringify({devices: {phone: {snapshot: 'snaps/one', files: {'/sdcard/hello.txt': 'hi\n'}}}})
    )
    const emu = await startEmulator({port: 0, devices: [], scenario: file})
    try {
      expect(await shell(clientFor(emu), 'phone', 'cat /sdcard/hello.txt')).to.equal('hi\n')
      expect(emu.device('phone').screen.source).to.equal(path.join(tmp.dir, 'snaps', 'one'))
    } finally {
      await emu.close()
    }
  })

  it('names the bundled snapshot as demo, for a device and for a screen', async () => {
    const file = path.join(tmp.dir, 'demo-scenario.json')
    writeFileSync(file, JSON.stringify({devices: {one: {snapshot: 'demo'}, two: {screens: {list: 'demo'}}}}))
    const emu = await startEmulator({port: 0, devices: [], scenario: file})
    try {
      expect(emu.device('one').screen.source).to.equal(DEMO_DIR)
      expect(emu.device('two').screen.source).to.equal(DEMO_DIR)
    } finally {
      await emu.close()
    }
  })

  it('names the bad key in a ConfigError', async () => {
    const bad = (scenario: unknown) =>
      rejection(startEmulator({port: 0, devices: [{serial: 'a', snapshot: DEMO_DIR}], scenario: scenario as never}))
    const unknownKey = await bad({devices: {a: {snapshots: 'x'}}})
    expect(unknownKey).to.be.instanceOf(ConfigError)
    expect(unknownKey.message).to.match(/devices\.a: Unrecognized key.*snapshots/)
    const badFault = await bad({devices: {a: {faults: [{command: 'x', kind: 'explode'}]}}})
    expect(badFault.message).to.match(/devices\.a\.faults\.0\.kind/)
    const badScreen = await bad({
      devices: {a: {screens: {one: DEMO_DIR}, transitions: [{tap: {text: 'Go'}, to: 'two'}]}},
    })
    expect(badScreen.message).to.match(/devices\.a\.transitions\.0\.to: unknown screen "two" \(screens: one\)/)
    const twoTriggers = await bad({devices: {a: {transitions: [{keyevent: 4, statusbar: 'collapse', to: 'x'}]}}})
    expect(twoTriggers.message).to.match(/exactly one trigger/)
    const factoryOfUserApp = await bad({
      devices: {a: {packages: [{name: 'com.example.app', factoryVersionName: '1.0'}]}},
    })
    expect(factoryOfUserApp.message).to.match(
      /devices\.a\.packages\.0\.factoryVersionName: factoryVersionName needs system: true/
    )
    const activityScreen = await bad({
      devices: {
        a: {
          screens: {one: DEMO_DIR},
          packages: [{name: 'com.example.app', activities: ['.A', {name: '.B', screen: 'two'}]}],
        },
      },
    })
    expect(activityScreen.message).to.match(
      /devices\.a\.packages\.0\.activities\.1\.screen: unknown screen "two" \(screens: one\)/
    )
    const activityKey = await bad({
      devices: {a: {packages: [{name: 'com.example.app', activities: [{name: '.B', public: true}]}]}},
    })
    expect(activityKey.message).to.match(/devices\.a\.packages\.0\.activities\.0/)
  })

  it('rejects an unreadable or non-JSON scenario file with the path', async () => {
    const file = path.join(tmp.dir, 'broken.json')
    writeFileSync(file, '{devices:')
    const err = await rejection(startEmulator({port: 0, devices: [{serial: 'a', snapshot: DEMO_DIR}], scenario: file}))
    expect(err).to.be.instanceOf(ConfigError)
    expect(err.message).to.include(file)
  })

  it('rejects a missing snapshot, a duplicate serial and a port in use', async () => {
    expect(await rejection(emulate({devices: [{serial: 'a', snapshot: path.join(tmp.dir, 'nope')}]}))).to.be.instanceOf(
      DeviceNotFoundError
    )
    expect(
      await rejection(
        emulate({
          devices: [
            {serial: 'a', snapshot: DEMO_DIR},
            {serial: 'a', snapshot: DEMO_DIR},
          ],
        })
      )
    ).to.be.instanceOf(InvalidInputError)
    const first = await emulate()
    try {
      const err = await rejection(emulate({port: first.port}))
      expect(err).to.be.instanceOf(InvalidInputError)
      expect(err.message).to.match(/already in use/)
    } finally {
      await first.close()
    }
  })

  it('--log writes one JSON line per command with the parsed argv', async () => {
    const log = path.join(tmp.dir, 'commands.jsonl')
    const emu = await emulate({logFile: log})
    try {
      await shell(clientFor(emu), 'emu-1', "input text 'a b'; echo done")
    } finally {
      await emu.close()
    }
    const lines = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(lines.filter((l) => l.kind === 'request').map((l) => l.raw)).to.deep.equal([
      'host:transport:emu-1',
      "shell:input text 'a b'; echo done",
    ])
    const commands = lines.filter((l) => l.kind === 'command')
    expect(commands).to.have.length(1)
    expect(commands[0]).to.include({serial: 'emu-1', service: 'shell', raw: "input text 'a b'; echo done"})
    expect(commands[0]?.argv).to.deep.equal(['input', 'text', 'a b'])
  })
})
