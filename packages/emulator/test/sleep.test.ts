import {getEventListeners} from 'node:events'

import {expect} from 'chai'

import {sleep} from '../src/sleep.js'

describe('the emulator sleep', () => {
  it('leaves no abort listener behind when the wait ends, so a long-lived program gathers none', async () => {
    const controller = new AbortController()
    for (let i = 0; i < 20; i++) await sleep(1, controller.signal)
    expect(getEventListeners(controller.signal, 'abort')).to.have.length(0)
  })

  it('ends early when the signal aborts', async () => {
    const controller = new AbortController()
    const waited = sleep(60_000, controller.signal)
    controller.abort()
    await waited
    expect(getEventListeners(controller.signal, 'abort')).to.have.length(0)
  })
})
