import {getEventListeners} from 'node:events'
import {mock} from 'node:test'

import {DEMO_DIR, SnapshotDriver, type ScreenCapture, type ToolContext} from '@arc-cli/core'
import {toolContext} from '@arc-cli/test-support/tool-context'
import {expect} from 'chai'

import {pollScreen, POLL_MS} from '../../src/tools/wait-poll.js'

/**
 * The waits' poll loop on a clock the test turns (node:test's mock timers: Date and setTimeout), so the number of
 * reads in a timeout is exact whatever the machine's load. The suites that run `arc wait` end to end check what it
 * prints; this one checks how often it reads.
 */
describe('pollScreen: a read every 500 ms until the deadline, on a clock the test turns', () => {
  let capture: ScreenCapture

  before(async () => {
    const driver = await SnapshotDriver.open(DEMO_DIR)
    capture = await driver.captureScreen()
    await driver.close()
  })
  beforeEach(() => mock.timers.enable({apis: ['setTimeout', 'Date'], now: 0}))
  afterEach(() => mock.timers.reset())

  /** A context whose device answers each read with `read()`; the times of the reads go into `reads`. */
  function context(read: () => Promise<ScreenCapture>, signal?: AbortSignal): {ctx: ToolContext; reads: number[]} {
    const reads: number[] = []
    const driver = {
      captureScreen: () => {
        reads.push(Date.now())
        return read()
      },
    }
    const ctx = toolContext(driver, {cwd: '/', signal})
    return {ctx, reads}
  }

  /** Turns the mocked clock 10 ms at a time, letting promises settle between steps, until `work` ends. */
  async function run<T>(work: Promise<T>): Promise<T> {
    let settled = false
    const done = work.finally(() => (settled = true))
    // A rejection is the caller's to check once the clock has run; until then it is not an unhandled one.
    done.catch(() => undefined)
    for (let t = 0; t < 60_000 && !settled; t += 10) {
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve))
      if (!settled) mock.timers.tick(10)
    }
    return done
  }

  it('reads at 0, 500 and 1000 ms in a 1200 ms wait, then waits out the rest: 3 reads, 1200 ms', async () => {
    const {ctx, reads} = context(async () => capture)
    const end = await run(
      pollScreen(
        ctx,
        1200,
        () => '',
        () => undefined
      )
    )
    expect(POLL_MS).to.equal(500)
    expect(reads).to.deep.equal([0, 500, 1000])
    expect(end).to.deep.equal({attempts: 3, elapsedMs: 1200})
  })

  it('ends at the first read where the condition holds, with that read counted', async () => {
    let n = 0
    const {ctx, reads} = context(async () => capture)
    const end = await run(
      pollScreen(
        ctx,
        30_000,
        () => '',
        () => (++n === 4 ? 'met' : undefined)
      )
    )
    expect(reads).to.deep.equal([0, 500, 1000, 1500])
    expect(end).to.deep.equal({met: 'met', attempts: 4, elapsedMs: 1500})
  })

  it('counts a slow read that finishes in time, and not one still running at the deadline', async () => {
    // Each read takes 700 ms: the first ends at 700, the next starts at 1200, the deadline.
    const {ctx, reads} = context(() => new Promise((resolve) => setTimeout(() => resolve(capture), 700)))
    const end = await run(
      pollScreen(
        ctx,
        1200,
        () => '',
        () => undefined
      )
    )
    expect(reads).to.deep.equal([0])
    expect(end).to.deep.equal({attempts: 1, elapsedMs: 1200})
  })

  it('abandons a read that never answers at the deadline: 0 reads, the timeout elapsed', async () => {
    const {ctx, reads} = context(() => new Promise(() => undefined))
    const end = await run(
      pollScreen(
        ctx,
        800,
        () => '',
        () => undefined
      )
    )
    expect(reads).to.deep.equal([0])
    expect(end).to.deep.equal({attempts: 0, elapsedMs: 800})
  })

  it('leaves no abort listener on the signal after 12 reads (Node warns past 10)', async () => {
    const controller = new AbortController()
    const {ctx, reads} = context(async () => capture, controller.signal)
    const end = await run(
      pollScreen(
        ctx,
        30_000,
        () => '',
        () => (reads.length === 12 ? 'met' : undefined)
      )
    )
    expect(end).to.include({attempts: 12})
    expect(getEventListeners(controller.signal, 'abort')).to.have.length(0)
  })
})
