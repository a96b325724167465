import {spawn, type ChildProcess} from 'node:child_process'
import {mkdtemp, readdir, rm} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

import {expect} from 'chai'

import {
  holdsDevice,
  queueState,
  setWaitListener,
  useSocketFiles,
  withDeviceLock,
  type WaitNotice,
} from '../../src/driver/device-lock.js'
import {lockKey} from '../../src/driver/adb/adb-driver.js'
import {ROOT} from '@arc-cli/test-support/paths'

function deferred<T = void>() {
  let resolve!: (value: T) => void
  let reject!: (e: Error) => void
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)))
  return {promise, resolve, reject}
}

/** Settles when `promise` does, else reports it still pending after every queued callback so far has run. */
async function pending(promise: Promise<unknown>): Promise<boolean> {
  let settled = false
  promise.then(
    () => (settled = true),
    () => (settled = true)
  )
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r))
  return !settled
}

let keys = 0
/** A key of this test alone (the machine-wide lock is shared by every process on the machine). */
const freshKey = () => `test-${process.pid}-${++keys}/dev`

/** Starts a process that takes the lock of `key` and holds it until killed; resolves once it holds it. */
async function holder(key: string, dir?: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      '--conditions=arc-source',
      '--import',
      'tsx',
      path.join(ROOT, 'packages/core/test/driver/hold-device-lock.ts'),
      key,
      ...(dir ? [dir] : []),
    ],
    {
      cwd: ROOT,
      env: {...process.env, NODE_OPTIONS: ''},
      stdio: ['ignore', 'pipe', 'inherit'],
    }
  )
  await new Promise<void>((resolve, reject) => {
    let out = ''
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString()
      if (out.includes('held\n')) resolve()
    })
    child.once('exit', (code) => reject(new Error(`the holder exited (${code}) before it held the lock`)))
  })
  return child
}

/** Resolves with the first notice a waiter reports for `key` from another process. */
function noticeFrom(key: string): {notice: Promise<WaitNotice>; stop(): void} {
  const got = deferred<WaitNotice>()
  const before = setWaitListener((n) => {
    if (n.key === key && n.holder === 'another process') got.resolve(n)
  })
  return {notice: got.promise, stop: () => setWaitListener(before)}
}

describe('device lock: one user of a device at a time', () => {
  it('runs callers of one device one after another in call order, a failure not blocking the next, other devices apart', async () => {
    const key = freshKey()
    const log: string[] = []
    const first = deferred()
    const a = withDeviceLock(key, async () => {
      log.push('a start')
      await first.promise
      log.push('a end')
    })
    const b = withDeviceLock(key, async () => void log.push('b'))
    const c = withDeviceLock(key, async () => void log.push('c'))
    const other = withDeviceLock(freshKey(), async () => void log.push('other'))
    await other
    expect(log).to.deep.equal(['a start', 'other'])
    expect(queueState(key)).to.deep.equal({busy: true, waiting: 2})
    first.reject(new Error('boom'))
    await a.catch(() => undefined)
    await Promise.all([b, c])
    expect(log).to.deep.equal(['a start', 'other', 'b', 'c'])
    expect(queueState(key)).to.deep.equal({busy: false, waiting: 0})
  })

  it('is re-entrant inside a section, and not for work the section left running after it ended', async () => {
    const key = freshKey()
    const log: string[] = []
    let leftBehind: (() => Promise<void>) | undefined
    await withDeviceLock(key, async () => {
      expect(holdsDevice(key)).to.equal(true)
      // The driver's own reads and taps inside an element action take the section again: they run at once.
      await withDeviceLock(key, async () => void log.push('inner'))
      leftBehind = () => withDeviceLock(key, async () => void log.push('after'))
    })
    expect(holdsDevice(key)).to.equal(false)
    const blocker = deferred()
    const holding = withDeviceLock(key, () => blocker.promise)
    // Called from the ended section's context, it queues behind the current holder like anyone.
    const late = (leftBehind as () => Promise<void>)()
    expect(await pending(late)).to.equal(true)
    blocker.resolve()
    await Promise.all([holding, late])
    expect(log).to.deep.equal(['inner', 'after'])
  })

  it('a caller whose signal aborts while it waits leaves the queue at once and never runs', async () => {
    const key = freshKey()
    const log: string[] = []
    const blocker = deferred()
    const holding = withDeviceLock(key, () => blocker.promise)
    const cancel = new AbortController()
    const cancelled = withDeviceLock(key, async () => void log.push('cancelled ran'), cancel.signal)
    const next = withDeviceLock(key, async () => void log.push('next'))
    expect(queueState(key).waiting).to.equal(2)
    cancel.abort()
    const error = await cancelled.catch((e: unknown) => e)
    expect(error).to.have.property('code', 'CANCELLED')
    expect(queueState(key).waiting).to.equal(1)
    blocker.resolve()
    await Promise.all([holding, next])
    expect(log).to.deep.equal(['next'])
    // Already aborted: refused without waiting.
    const blocker2 = deferred()
    const holding2 = withDeviceLock(key, () => blocker2.promise)
    const refused = await withDeviceLock(key, async () => void log.push('never'), AbortSignal.abort()).catch(
      (e: unknown) => e
    )
    expect(refused).to.have.property('code', 'CANCELLED')
    blocker2.resolve()
    await holding2
    expect(log).to.deep.equal(['next'])
  })

  for (const form of ['the platform form (abstract socket on Linux)', 'socket files']) {
    describe(`across processes: ${form}`, () => {
      let dir: string | undefined
      before(async () => {
        if (form === 'socket files') useSocketFiles((dir = await mkdtemp(path.join(os.tmpdir(), 'arc-locks-'))))
      })
      after(async () => {
        useSocketFiles(undefined)
        if (dir) await rm(dir, {recursive: true, force: true})
      })

      it('waits while another process holds the device, and goes on when that process is killed (nothing left behind)', async () => {
        const key = freshKey()
        const child = await holder(key, dir)
        const {notice, stop} = noticeFrom(key)
        try {
          const ran: string[] = []
          const waiting = withDeviceLock(key, async () => void ran.push('ran'))
          expect(await notice).to.deep.equal({key, holder: 'another process', pid: child.pid})
          expect(await pending(waiting)).to.equal(true)
          expect(ran).to.deep.equal([])
          child.kill('SIGKILL')
          await waiting
          expect(ran).to.deep.equal(['ran'])
        } finally {
          stop()
          child.kill('SIGKILL')
        }
      })

      it('a lock whose holder died before anyone waited does not block the next caller', async () => {
        const key = freshKey()
        const child = await holder(key, dir)
        const exited = new Promise((r) => child.once('exit', r))
        child.kill('SIGKILL')
        await exited
        if (dir) expect(await readdir(dir)).to.have.length(1) // the dead holder's socket file is still there
        expect(await withDeviceLock(key, async () => 'ran')).to.equal('ran')
      })

      it('a caller waiting on another process leaves when its signal aborts', async () => {
        const key = freshKey()
        const child = await holder(key, dir)
        const {notice, stop} = noticeFrom(key)
        try {
          const cancel = new AbortController()
          const waiting = withDeviceLock(key, async () => 'ran', cancel.signal)
          await notice
          cancel.abort()
          expect(await waiting.catch((e: unknown) => e)).to.have.property('code', 'CANCELLED')
          expect(queueState(key)).to.deep.equal({busy: false, waiting: 0})
        } finally {
          stop()
          child.kill('SIGKILL')
        }
      })
    })
  }

  it('keys a device by adb server and serial, loopback names as one server', () => {
    expect(lockKey('localhost', 5037, 'emulator-5554')).to.equal(lockKey('127.0.0.1', 5037, 'emulator-5554'))
    expect(lockKey('::1', 5037, 'x')).to.equal('127.0.0.1:5037/x')
    expect(lockKey('127.0.0.1', 5038, 'x')).to.not.equal(lockKey('127.0.0.1', 5037, 'x'))
    expect(lockKey('10.0.0.2', 5037, 'x')).to.not.equal(lockKey('127.0.0.1', 5037, 'x'))
  })
})
