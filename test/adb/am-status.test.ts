import {expect} from 'chai'

import {useDemoDevice} from '@arc-cli/test-support/emulator-support'

/**
 * `am start` echoes the intent it starts (`Starting: Intent { … dat=URL cmp=PKG/.Act }`), so a package or a URL
 * holding the word "exception" puts it in the output of a start that went fine; arc reads am's own verdict lines
 * (`Status: ok`, `Error: …`, `Exception occurred while executing …`), not any word of the echo.
 */
describe('app open and open-url read am’s status lines, not the words of its echo', () => {
  const h = useDemoDevice({
    packages: [
      {name: 'io.exceptional.notes', launcher: '.Main', activities: ['.ExceptionsActivity']},
      {name: 'com.example.docs', launcher: '.Main', links: ['https://example.com/docs/']},
    ],
  })

  it('opens io.exceptional.notes (am echoes the package, then Status: ok)', async () => {
    const driver = await h.driver()
    try {
      await driver.openApp('io.exceptional.notes')
    } finally {
      await driver.close()
    }
    expect(h.emu.device('emu-1').foreground.package).to.equal('io.exceptional.notes')
  })

  it('starts its .ExceptionsActivity by name', async () => {
    const driver = await h.driver()
    try {
      await driver.openApp('io.exceptional.notes', {activity: '.ExceptionsActivity'})
    } finally {
      await driver.close()
    }
    expect(h.emu.device('emu-1').foreground).to.deep.include({
      package: 'io.exceptional.notes',
      activity: '.ExceptionsActivity',
    })
  })

  it('opens https://example.com/docs/exceptions in the app that handles it', async () => {
    const driver = await h.driver()
    try {
      await driver.openUrl('https://example.com/docs/exceptions')
    } finally {
      await driver.close()
    }
    expect(h.emu.device('emu-1').foreground.package).to.equal('com.example.docs')
  })

  it('still fails where am says so: a class the package lacks (Error type 3), a link nothing opens', async () => {
    const driver = await h.driver()
    try {
      const missing = await driver.openApp('io.exceptional.notes', {activity: '.Nope'}).catch((e: Error) => e)
      expect(missing).to.be.instanceOf(Error).with.property('message').that.includes('does not exist')
      const nobody = await driver.openUrl('nothing://exceptions').catch((e: Error) => e)
      expect(nobody).to.be.instanceOf(Error).with.property('message').that.includes('no app on emu-1 opens')
    } finally {
      await driver.close()
    }
  })
})

describe('a build whose programs print noise before their output (waydroid’s shader-cache line)', () => {
  const NOISE = 'Failed to create //.cache for shader cache (Read-only file system)---disabling.'
  const h = useDemoDevice({
    outputNoise: [NOISE],
    packages: [{name: 'com.example.docs', launcher: '.Main', links: ['https://example.com/docs/']}],
  })

  it('taps, keys, app open and open-url still succeed: the noise is no output of theirs', async () => {
    const driver = await h.driver()
    try {
      await driver.tap({x: 10, y: 10})
      await driver.pressKey('KEYCODE_BACK')
      await driver.openApp('com.example.docs')
      await driver.openUrl('https://example.com/docs/x')
      const png = await driver.screenshot()
      expect(png.subarray(1, 4).toString('latin1')).to.equal('PNG')
    } finally {
      await driver.close()
    }
    const taps = h.emu.device('emu-1').inputEvents.filter((e) => e.type === 'tap')
    expect(taps).to.deep.equal([{type: 'tap', x: 10, y: 10}])
  })

  it('any other line still fails a tap: only known noise is let through', async () => {
    h.emu.device('emu-1').outputNoise = [NOISE, 'something else entirely']
    const driver = await h.driver()
    try {
      const error = await driver.tap({x: 10, y: 10}).catch((e: Error) => e)
      expect(error).to.be.instanceOf(Error).with.property('message').that.includes('something else entirely')
    } finally {
      h.emu.device('emu-1').outputNoise = [NOISE]
      await driver.close()
    }
  })
})
