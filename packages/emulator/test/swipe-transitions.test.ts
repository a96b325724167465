import {mkdtemp, rm} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

import {ConfigError} from '@arc-cli/core'
import type {Emulator} from '@arc-cli/emulator'
import {expect} from 'chai'

import {longListDevice} from '@arc-cli/test-support/long-list'
import {clientFor, emulate, shell, type AdbClient} from './support.js'

/** Scenario swipe transitions: a swipe in a direction, starting inside an element, moves a list to its next screen. */
describe('emulator: swipe transitions', () => {
  let dir: string
  let emu: Emulator
  let client: AdbClient
  const run = (command: string) => shell(client, 'emu-1', command)

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'arc-swipes-'))
    emu = await emulate({devices: [], scenario: {devices: {'emu-1': await longListDevice(dir)}}})
    client = clientFor(emu)
  })
  after(async () => {
    await emu?.close()
    await rm(dir, {recursive: true, force: true})
  })

  it('follows the finger along its longer axis, only from inside the element; the last screen stays (end of the list)', async () => {
    const device = emu.device('emu-1')
    device.showScreen('page1')
    // Downward, sideways, outside the list (the toolbar) and a finger that does not move: none scrolls on.
    await run(
      'input swipe 540 700 540 1700 400; input swipe 900 1200 100 1100 400; input swipe 300 150 300 100 400; input swipe 540 1200 540 1200 1000'
    )
    expect(device.screenName).to.equal('page1')
    await run('input swipe 540 1700 560 700 400')
    expect(device.screenName).to.equal('page2')
    await run('input swipe 540 1700 540 700 400; input swipe 540 1700 540 700 400')
    expect(device.screenName).to.equal('page4')
    await run('input swipe 540 1700 540 700 400')
    expect(device.screenName).to.equal('page4')
    await run('input swipe 540 700 540 1700 400')
    expect(device.screenName).to.equal('page3')
    expect(await run('uiautomator dump /dev/tty'))
      .to.contain('text="Oat milk"')
      .and.not.contain('text="Apples"')
  })

  it('a swipe trigger is checked like the others: its direction, its selector, one trigger only', async () => {
    const bad = async (transition: unknown) => {
      const error = await emulate({
        devices: [],
        scenario: {devices: {a: {snapshot: path.join(dir, 'page1.xml'), transitions: [transition as never]}}},
      }).then(
        async (e) => {
          await e.close()
          return undefined
        },
        (e: unknown) => e as Error
      )
      expect(error).to.be.instanceOf(ConfigError)
      return error!.message
    }
    expect(await bad({swipe: {direction: 'sideways'}, to: 'main'})).to.match(
      /devices\.a\.transitions\.0\.swipe\.direction/
    )
    expect(await bad({swipe: {direction: 'up', inside: {}}, to: 'main'})).to.contain(
      'an element selector needs resourceId, text or contentDesc'
    )
    expect(await bad({swipe: {direction: 'up'}, keyevent: 4, to: 'main'})).to.contain(
      'exactly one trigger: tap, keyevent, statusbar or swipe'
    )
  })
})
