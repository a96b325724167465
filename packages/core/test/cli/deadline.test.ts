import {mock} from 'node:test'

import {expect} from 'chai'

import {runWithDeadline, TimeoutError} from '@arc-cli/core'

/**
 * One deadline for a whole command: many steps that each finish in time still end at the deadline. On a clock the
 * test turns (node:test's mock timers: Date and setTimeout), so how many steps fit before the deadline is exact
 * whatever the machine's load.
 */
describe('hostile: the whole-command deadline', function () {
  beforeEach(() => mock.timers.enable({apis: ['setTimeout', 'Date'], now: 0}))
  afterEach(() => mock.timers.reset())

  /** Turns the mocked clock 10 ms at a time, letting promises settle between steps, until `work` ends. */
  async function turn<T>(work: Promise<T>): Promise<T> {
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

  it('ends work made of many short steps at the deadline with TIMEOUT, and aborts its signal', async () => {
    let steps = 0
    let seen: AbortSignal | undefined
    const started = Date.now()
    const error = await turn(
      runWithDeadline('arc annotate', 300, async (signal) => {
        seen = signal
        // Each step is well within any per-call limit; together they never end.
        while (!signal.aborted) {
          await new Promise((resolve) => setTimeout(resolve, 20))
          steps++
        }
        return 'done'
      })
    ).catch((e: unknown) => e)
    expect(error).to.be.instanceOf(TimeoutError)
    expect((error as TimeoutError).message).to.include('arc annotate did not finish within 0.3 s')
    expect(seen?.aborted).to.equal(true)
    // A 20 ms step from 0 to the deadline at 300 ms: 15 of them, the last ending as the deadline fires.
    expect(steps).to.equal(15)
    expect(Date.now() - started).to.equal(300)
  })

  it('lets work told to stop wind up before failing, so what it put back on the device is back when arc exits', async () => {
    let woundUp = false
    const error = await turn(
      runWithDeadline('arc type append', 200, async (signal) => {
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()))
        // What closing the driver does after a cut-off typing call: set the keyboard back, a device call or two.
        await new Promise((resolve) => setTimeout(resolve, 300))
        woundUp = true
        throw signal.reason
      })
    ).catch((e: unknown) => e)
    expect(error).to.be.instanceOf(TimeoutError)
    expect(woundUp).to.equal(true)
  })

  it('moves the deadline out by the work the command says it still has, and never in', async () => {
    let aborted = false
    const result = await turn(
      runWithDeadline('arc type append', 200, async (signal, expectWork) => {
        signal.addEventListener('abort', () => (aborted = true))
        // 500 ms of work against a 200 ms limit: said up front, it fits; a smaller figure later does not shrink it.
        expectWork(500)
        await new Promise((resolve) => setTimeout(resolve, 250))
        expectWork(1)
        await new Promise((resolve) => setTimeout(resolve, 250))
        return 'typed'
      })
    )
    expect([result, aborted]).to.deep.equal(['typed', false])
    const error = await turn(
      runWithDeadline('arc gesture', 100, async (signal, expectWork) => {
        expectWork(100)
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()))
        throw signal.reason
      })
    ).catch((e: unknown) => e)
    expect((error as TimeoutError).message).to.match(
      /arc gesture did not finish within 0\.2 s \(the whole-command limit: 0\.1 s \(3 x adb\.timeoutMs\) plus 0\.1 s for the work it was given\)/
    )
  })

  it('returns the result of work that finishes in time', async () => {
    expect(await runWithDeadline('arc tap', 1000, async () => 42)).to.equal(42)
  })
})
