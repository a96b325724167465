/**
 * The waits as a script meets them: `arc wait element|gone|idle` exit 0 when the condition held and 11 (TIMEOUT)
 * when time ran out, still printing the result; `arc batch` stops there. `arc emulate` serves a "loading" screen whose
 * Skip button moves it (a scenario transition) to a "done" screen, tapped by a second arc while the wait runs.
 */
import {getEventListeners} from 'node:events'
import {writeFile} from 'node:fs/promises'
import path from 'node:path'

import {
  buildScreenModel,
  ELEMENT_RECORDS_KEY,
  exitCodeFor,
  MemoryDeviceState,
  recordOf,
  rememberElements,
} from '@arc-cli/core'
import {expect} from 'chai'

import {connectAdbDriver} from '@arc-cli/core/testing'
import {waitForElementGone} from '../../src/tools/wait.js'
import {afterDumps, useEmulator} from '@arc-cli/test-support/emulator-support'
import {dumpXml} from '@arc-cli/test-support/dump'
import {runArc, type ArcRun} from '@arc-cli/test-support/run-arc'
import {toolContext} from '@arc-cli/test-support/tool-context'

const TIMEOUT_EXIT = exitCodeFor('TIMEOUT')
const SKIP = {x: 300, y: 2050}

const loading = dumpXml([
  {
    bounds: [0, 0, 1080, 2400],
    children: [
      {cls: 'android.widget.ProgressBar', res: 'com.example:id/spinner', bounds: [440, 1000, 640, 1200]},
      {cls: 'android.widget.TextView', res: 'com.example:id/status', text: 'Loading…', bounds: [100, 1250, 980, 1350]},
      {cls: 'android.widget.Button', text: 'Skip', attrs: {clickable: 'true'}, bounds: [100, 2000, 500, 2100]},
    ],
  },
])
const done = dumpXml([
  {
    bounds: [0, 0, 1080, 2400],
    children: [
      {cls: 'android.widget.TextView', res: 'com.example:id/status', text: 'Done', bounds: [100, 1250, 980, 1350]},
    ],
  },
])

/** The `(N read)` / `(N reads)` of a wait's line, worded for the N it holds. */
function readsWord(line: string): string {
  const n = Number(/\((\d+) reads?\)/.exec(line)?.[1])
  return `(${n} read${n === 1 ? '' : 's'})`
}
describe('waits end a script: exit 0 when the condition held, 11 (TIMEOUT) when not (arc emulate)', function () {
  this.timeout(60_000)
  const h = useEmulator(async (dir) => {
    await writeFile(path.join(dir, 'loading.xml'), loading)
    await writeFile(path.join(dir, 'done.xml'), done)
    return {
      devices: [],
      scenario: {
        devices: {
          'emu-1': {
            screens: {loading: path.join(dir, 'loading.xml'), done: path.join(dir, 'done.xml')},
            initialScreen: 'loading',
            transitions: [{from: 'loading', tap: {text: 'Skip'}, to: 'done'}],
          },
        },
      },
    }
  })

  const device = () => h.emu.device('emu-1')
  beforeEach(() => device().showScreen('loading'))
  const arc = (...args: string[]) => runArc(args, {env: h.env})
  const taps = () => device().inputEvents.filter((e) => e.type === 'tap').length
  /** Screen reads the device served (one uiautomator dump each) between two lengths of its command log. */
  const dumpsIn = (from: number, to = h.emu.commands.length) =>
    h.emu.commands.slice(from, to).filter((c) => c.argv[0] === 'uiautomator').length
  /**
   * Whether `reads` (what a wait reported) agrees with the dumps the device served it: each read it counts is one it
   * served, and at most one more was served, a read still running when the deadline came (not counted).
   */
  const agrees = (reads: number, served: number) => served === reads || served === reads + 1
  /**
   * Until the device runs no shell: a read a finished arc left running at its deadline is logged, or ended, before
   * the next arc's reads are counted (on a slow host its dump could start after that process exited).
   */
  const settled = async () => {
    for (let i = 0; i < 500 && h.emu.runningShells().length > 0; i++) await new Promise((r) => setTimeout(r, 20))
    if (h.emu.runningShells().length > 0)
      throw new Error(`device shells still running after 10 s: ${h.emu.runningShells().join(', ')}`)
  }
  /** The N of a wait line's `(N reads)`. */
  const readsIn = (line: string) => Number(/\((\d+) reads?\)/.exec(line)?.[1])

  /** Starts `arc …` and, once it has read the loading screen, taps Skip with a second arc: the screen becomes "done". */
  async function skipWhile(...args: string[]): Promise<ArcRun> {
    const from = h.emu.commands.length
    const waiting = arc(...args)
    const deadline = Date.now() + 20_000
    while (!h.emu.commands.slice(from).some((c) => c.argv[0] === 'uiautomator') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20))
    expect((await arc('tap', String(SKIP.x), String(SKIP.y))).code).to.equal(0)
    return waiting
  }

  it('wait element: exits 0 once the element appears, 11 with its result printed when it does not', async () => {
    const found = await skipWhile('wait', 'element', 'text', 'Done', '--timeout', '15000')
    expect(found.code, found.stderr).to.equal(0)
    expect(found.stdout).to.match(/^Found after \d+ ms \(\d+ reads?\):\nID +CLASS/)
    expect(device().screenName).to.equal('done')

    const before = h.emu.commands.length
    const missing = await arc('wait', 'element', 'text', 'Nope', '--timeout', '1200')
    await settled()
    const between = h.emu.commands.length
    const json = await arc('wait', 'element', 'text', 'Nope', '--timeout', '1200', '--json')
    expect(missing.code).to.equal(TIMEOUT_EXIT)
    // How many reads fit in 1200 ms depends on the machine's load; the count is exact on a turned clock in
    // wait-poll.test.ts. Here: the line, with the count and its wording agreeing, and the count the device's own.
    expect(missing.stdout).to.match(
      /^Not found: no element with text containing "Nope" after \d+ ms \((\d+) reads?\)\n$/
    )
    expect(missing.stdout).to.include(readsWord(missing.stdout))
    expect(agrees(readsIn(missing.stdout), dumpsIn(before, between))).to.equal(true)
    expect(agrees((JSON.parse(json.stdout) as {attempts: number}).attempts, dumpsIn(between))).to.equal(true)
    expect(missing.stderr).to.equal('')
    expect(json.code).to.equal(TIMEOUT_EXIT)
    expect(JSON.parse(json.stdout)).to.include({found: false})
  })

  it('wait gone: exits 0 once no element matches (it saw the element first), 11 with the element while it stays', async () => {
    const gone = await skipWhile('wait', 'gone', 'text', 'loading', '--timeout', '15000', '--json')
    expect(gone.code, gone.stderr).to.equal(0)
    const data = JSON.parse(gone.stdout) as {gone: boolean; attempts: number}
    expect(data.gone).to.equal(true)
    expect(data.attempts).to.be.at.least(2)

    const absent = await arc('wait', 'gone', 'resource_id', 'spinner', '--timeout', '1200')
    expect(absent.code).to.equal(0)
    expect(absent.stdout).to.match(/^Gone after \d+ ms \(1 read\): no element with resource_id containing "spinner"\n$/)

    device().showScreen('loading')
    const before = h.emu.commands.length
    const still = await arc('wait', 'gone', 'class_name', 'ProgressBar', '--timeout', '1200')
    await settled()
    const between = h.emu.commands.length
    const json = await arc('wait', 'gone', 'text', 'Loading', '--timeout', '1200', '--json')
    expect(still.code).to.equal(TIMEOUT_EXIT)
    expect(still.stdout).to.match(
      /^Still there after \d+ ms \(\d+ reads?\): an element with class_name containing "ProgressBar"\nID +CLASS.*\nnode_\w{6} +ProgressBar/
    )
    expect(still.stdout).to.include(readsWord(still.stdout))
    expect(agrees(readsIn(still.stdout), dumpsIn(before, between))).to.equal(true)
    expect(agrees((JSON.parse(json.stdout) as {attempts: number}).attempts, dumpsIn(between))).to.equal(true)
    expect(json.code).to.equal(TIMEOUT_EXIT)
    expect(JSON.parse(json.stdout))
      .to.deep.include({gone: false})
      .and.to.have.nested.property('element.text', 'Loading…')
  })

  it('wait gone by id: waits for the element an id named; one no longer on the screen counts as gone', async () => {
    const find = await arc('find', 'text', 'Loading', '--json')
    const [found] = (JSON.parse(find.stdout) as {elements: Array<{id: string}>}).elements
    if (!found) expect.fail(`find listed no element: ${find.stdout}`)
    const {id} = found
    const still = await arc('wait', 'gone', 'id', id, '--timeout', '800')
    expect(still.code).to.equal(TIMEOUT_EXIT)
    expect(still.stdout).to.include(`Still there after`).and.include(id)
    const gone = await skipWhile('wait', 'gone', 'id', id.replace(/^node_/, ''), '--timeout', '15000')
    expect(gone.code, gone.stderr).to.equal(0)
    expect(gone.stdout).to.match(new RegExp(`^Gone after \\d+ ms \\(\\d+ reads\\): no element ${id}\\n$`))
    const bad = await arc('wait', 'gone', 'id', 'node_12', '--timeout', '800')
    expect(bad.code).to.equal(exitCodeFor('INVALID_INPUT'))
    expect(bad.stderr).to.include('is not an element id')
    const lookAlike = await arc('wait', 'gone', 'id', 'node_abcdef-2', '--timeout', '800')
    expect(lookAlike.code).to.equal(exitCodeFor('INVALID_INPUT'))
    expect(lookAlike.stderr).to.include('names one of several look-alike elements')
  })

  it('wait gone by id: an id that now names another element than at its read counts as gone (the stale check)', async () => {
    const driver = await connectAdbDriver({port: h.emu.port, host: '127.0.0.1', timeoutMs: 10_000, env: {}})
    try {
      const state = new MemoryDeviceState()
      const status = buildScreenModel(await driver.captureScreen()).elements.find((e) => e.text === 'Loading…')!
      const ctx = toolContext(driver, {state})
      const wait = () =>
        waitForElementGone.handler(
          ctx,
          waitForElementGone.input.parse({by: 'id', value: status.id, timeout: 700}) as never
        )
      await rememberElements(state, [status])
      expect((await wait()).data).to.include({gone: false})
      // What the id named at its read: a status text of another app (the record a read of that screen would leave).
      await state.set(ELEMENT_RECORDS_KEY, {
        at: Date.now(),
        ids: {[status.id]: {...recordOf(status), pkg: 'com.other'}},
      })
      const result = await wait()
      expect(result.data).to.include({gone: true, attempts: 1})
      expect(result.cli?.exitCode).to.equal(undefined)
    } finally {
      await driver.close()
    }
  })

  it('wait gone stops at its deadline when a dump hangs, and leaves no timer or abort listener behind', async () => {
    // The driver's own limit is an hour: only the wait's deadline can end a call on a hung dump.
    let driver = await connectAdbDriver({port: h.emu.port, host: '127.0.0.1', timeoutMs: 3_600_000, env: {}})
    const controller = new AbortController()
    const ctx = toolContext(driver, {signal: controller.signal})
    const wait = (value: string, timeout: number) =>
      waitForElementGone.handler(ctx as never, waitForElementGone.input.parse({by: 'text', value, timeout}) as never)
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length
    try {
      await wait('Nope', 5000)
      const before = timers()
      expect((await wait('Nope', 30_000)).data).to.include({gone: true, attempts: 1})
      expect(timers()).to.equal(before)
      // Armed on a quiet device, so no read left over from before takes it; 3 s, so a slow host has started the dump
      // before the deadline, which the device tells (arrived), not a guess.
      await settled()
      let arrived = false
      void device()
        .hangNext('uiautomator')
        .arrived.then(() => (arrived = true))
      const hung = await wait('Loading', 3000)
      // Given up at its deadline (exactly, on a turned clock: wait-poll.test.ts), with the hung dump still running
      // on the device: the driver's hour-long limit never came into it.
      expect(arrived, JSON.stringify(hung.data)).to.equal(true)
      expect(h.emu.runningShells()).to.have.length.of.at.least(1)
      expect((hung.data as {elapsedMs: number}).elapsedMs).to.be.at.least(3000)
      expect(hung.data).to.deep.equal({
        gone: false,
        elapsedMs: (hung.data as {elapsedMs: number}).elapsedMs,
        attempts: 0,
      })
      expect(hung.cli?.exitCode).to.equal(TIMEOUT_EXIT)
      expect(hung.cli?.human).to.match(/^Not gone: no read of the screen finished within \d+ ms$/)
      // The hung dump still holds the device (one UiAutomation at a time: a phone's next dump would fail beside it)
      // until its connection ends: closing its driver ends it, and the next reads go through.
      await driver.close()
      ctx.driver = driver = await connectAdbDriver({port: h.emu.port, host: '127.0.0.1', timeoutMs: 10_000, env: {}})
      // Reads again and again while the element stays: Skip goes only once the device has served 11 reads with
      // it, so it is gone on read 12, whatever the load.
      const waiting = wait('Skip', 30_000)
      await afterDumps(device(), 11, () => device().showScreen('done'))
      const many = await waiting
      expect(many.data).to.include({gone: true, attempts: 12})
      expect(getEventListeners(controller.signal, 'abort')).to.have.length(0)
    } finally {
      await driver.close()
    }
  })

  it('wait idle: exits 11 when two reads 500 ms apart do not fit in the timeout', async () => {
    const idle = await arc('wait', 'idle', '--timeout', '300')
    expect(idle.code).to.equal(TIMEOUT_EXIT)
    expect(idle.stdout).to.match(/^Not idle: timed out after \d+ ms/)
  })

  it('arc batch stops at a wait that timed out, with its exit status; a wait that held goes on', async () => {
    const before = taps()
    const stopped = await runArc(['batch'], {
      env: h.env,
      input: `wait gone text Loading --timeout 800\ntap ${SKIP.x} ${SKIP.y}\n`,
    })
    expect(stopped.code).to.equal(TIMEOUT_EXIT)
    // Either TIMEOUT answer is the wait's own (the element was still there, or on a loaded host no read finished inside
    // the 800 ms window); what this test proves is that batch stops there. Both texts are pinned by the tests above.
    expect(stopped.stdout).to.match(/^(Still there after|Not gone: no read of the screen finished within)/)
    expect(taps()).to.equal(before)
    expect(device().screenName).to.equal('loading')
    const kept = await runArc(['batch', '--keep-going'], {
      env: h.env,
      input: `wait element text Done --timeout 600\ntap ${SKIP.x} ${SKIP.y}\nwait element text Done --timeout 5000\n`,
    })
    expect(kept.code).to.equal(TIMEOUT_EXIT)
    expect(kept.stdout.split('\n').map((l) => l.split(' ')[0])).to.include.members(['Not', 'Tap', 'Found'])
    expect(device().screenName).to.equal('done')
  })

  it('on the command line a wait takes a duration with no 30 s cap, says so in the help, and refuses a malformed one', async () => {
    const [long, malformed, help] = await Promise.all([
      arc('wait', 'gone', 'text', 'x', '--timeout', '30001'),
      arc('wait', 'gone', 'text', 'x', '--timeout', 'a while'),
      arc('wait', 'element', '--help'),
    ])
    expect(long.code, long.stderr).to.equal(0)
    expect(malformed.code).to.equal(exitCodeFor('INVALID_INPUT'))
    expect(malformed.stderr).to.include(
      '--timeout must be a duration: milliseconds (1500), or a number with ms, s, m or h (500ms, 30s, 2m) (got "a while")'
    )
    expect(help.stdout.replace(/\s+/g, ' ')).to.include('no 30 s cap on the command line, up to 24h')
  })
})
