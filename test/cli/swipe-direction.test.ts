import {exitCodeFor} from '@arc-cli/core'
import {expect} from 'chai'

import {swipeInside, type Direction} from '../../src/tools/covered-area.js'
import {swipe} from '../../src/tools/swipe.js'
import {runArc} from '@arc-cli/test-support/run-arc'

const FINGER: Record<Direction, {dx: number; dy: number}> = {
  up: {dx: 0, dy: -1},
  down: {dx: 0, dy: 1},
  left: {dx: -1, dy: 0},
  right: {dx: 1, dy: 0},
}

describe('arc swipe with a direction word', () => {
  it('`arc swipe up`: INVALID_INPUT saying "up" is not a coordinate and offering arc scroll, before any device', async () => {
    // An adb port nothing listens on: reaching for the device would fail with another code.
    const run = await runArc(['swipe', 'up', '--adb-port', '9', '-d', 'emulator-5554'])
    expect(run.code).to.equal(exitCodeFor('INVALID_INPUT'))
    expect(run.stderr).to.include(
      'Error [INVALID_INPUT]: swipe takes coordinates (x1 y1 x2 y2 in screen pixels), not a direction: got "up"'
    )
    expect(run.stderr).to.include('Try: arc scroll down ').and.not.include('Missing 3 required args')
    // All four arguments given, the first a direction: the same answer, not "expected a number".
    const full = await runArc(['swipe', 'Left', '1', '2', '3', '-d', 'demo', '--json'])
    expect(full.code).to.equal(exitCodeFor('INVALID_INPUT'))
    expect(JSON.parse(full.stdout).error.actions[0]).to.match(/^arc scroll right /)
  })

  it('offers the scroll whose finger moves the way the word says (scroll names the content, not the finger)', () => {
    for (const finger of Object.keys(FINGER) as Direction[]) {
      const misread = swipe.cli?.misread?.({x1: finger})
      const scroll = /^arc scroll (\w+) /.exec(misread?.actions[0] ?? '')?.[1] as Direction | undefined
      expect(scroll, finger).to.be.oneOf(['up', 'down', 'left', 'right'])
      const {from, to} = swipeInside([0, 0, 1000, 2000], scroll as Direction, 500)
      expect(Math.sign(to.x - from.x), finger).to.equal(FINGER[finger].dx)
      expect(Math.sign(to.y - from.y), finger).to.equal(FINGER[finger].dy)
    }
  })

  it('leaves coordinates alone: a missing one is still named by oclif', async () => {
    expect(swipe.cli?.misread?.({x1: '500'})).to.equal(undefined)
    const run = await runArc(['swipe', '1', '2', '3', '-d', 'demo'])
    expect(run.code).to.equal(exitCodeFor('INVALID_INPUT'))
    expect(run.stderr).to.include('Missing 1 required arg').and.include('y2')
  })
})
