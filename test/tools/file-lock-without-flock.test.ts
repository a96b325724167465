import {spawnSync} from 'node:child_process'
import {createHash} from 'node:crypto'
import {existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import path from 'node:path'

import {expect} from 'chai'

import {useDemoDevice} from '@arc-cli/test-support/emulator-support'

const FILE = '/data/local/tmp/shared.txt'
/** The lock folder of FILE on a device without flock (docs/files.md, "Concurrent edits"). */
const LOCK = `data/local/tmp/.arc-locks/${createHash('sha256').update(FILE).digest('hex').slice(0, 32)}.d`

/**
 * File edits on a device whose shell has no `flock` (scenario `flock: false`: Android before 6.0, or a build
 * without toybox's link): they must still be serialised, never run unlocked.
 */
describe('file edits on a device without flock', function () {
  this.timeout(120_000)
  const h = useDemoDevice({flock: false})
  const host = (devicePath: string) => path.join(h.emu.device('emu-1').files.root, devicePath)

  /** The pids named by the lock folder's entries (its holder's, and callers' that met it there). */
  function entries(): string[] {
    return existsSync(host(LOCK)) ? readdirSync(host(LOCK)) : []
  }

  /**
   * The lock is free: no folder, or one whose entries name no live shell (adbd ends the shell when arc lets go, and
   * `arc emulate` kills it as outright as it may, before its cleanup): the next edit clears such a folder.
   */
  function lockFree(): boolean {
    return entries().every((pid) => /^\d+$/.test(pid) && !existsSync(`/proc/${pid}`))
  }

  /** Once the device has ended the last holder's shell (it does so after the connection closes, not before). */
  async function lockFreed(): Promise<boolean> {
    while (!lockFree()) await new Promise((resolve) => setTimeout(resolve, 10))
    return true
  }

  /** A lock folder holding exactly `names` (each a file holding its own name), as a killed caller leaves it. */
  function leaveLock(...names: string[]): void {
    rmSync(host(LOCK), {recursive: true, force: true})
    mkdirSync(host(LOCK), {recursive: true})
    for (const name of names) writeFileSync(host(`${LOCK}/${name}`), `${name}\n`)
  }

  /** One read-modify-write of FILE under the lock, as append_file makes it. */
  async function append(line: string): Promise<void> {
    const driver = await h.driver('emu-1')
    try {
      await driver.withFileLock(FILE, async () => {
        const old = await driver.readFile(FILE)
        await driver.writeFile(FILE, Buffer.concat([old, Buffer.from(`${line}\n`)]))
      })
    } finally {
      await driver.close()
    }
  }

  it('the device says flock is not found, as such a build does', async () => {
    const driver = await h.driver('emu-1')
    try {
      const result = await driver.runCommand(['flock', '9'])
      expect(result.exitCode).to.equal(127)
      expect(Buffer.concat([result.stdout, result.stderr]).toString()).to.include('flock: not found')
    } finally {
      await driver.close()
    }
  })

  it('20 read-modify-writes at once: every one is in the file, and the lock is free after', async () => {
    writeFileSync(host(FILE), 'start\n')
    const lines = Array.from({length: 20}, (_, i) => `line-${i}`)
    const from = h.emu.commands.length
    await Promise.all(lines.map((line) => append(line)))
    const kept = readFileSync(host(FILE), 'utf8').split('\n').filter(Boolean)
    expect(kept[0]).to.equal('start')
    expect(kept.slice(1).sort()).to.deep.equal([...lines].sort())
    const sent = h.argvSince(from)
    expect(sent).to.deep.include(['flock', '9'])
    expect(sent).to.deep.include(['mkdir', LOCK])
    expect(await lockFreed()).to.equal(true)
  })

  it('a live holder is waited for: the second edit runs only after the first released the lock', async () => {
    writeFileSync(host(FILE), '')
    const order: string[] = []
    let release!: () => void
    const holding = new Promise<void>((resolve) => (release = resolve))
    let held!: () => void
    const isHeld = new Promise<void>((resolve) => (held = resolve))
    const first = await h.driver('emu-1')
    const second = await h.driver('emu-1')
    try {
      const one = first.withFileLock(FILE, async () => {
        order.push('first in')
        held()
        await holding
        order.push('first out')
      })
      await isHeld
      const from = h.emu.commands.length
      const two = second.withFileLock(FILE, async () => void order.push('second in'))
      // The second waits on the folder: it has tried mkdir and found it taken, at least once, before it is let go.
      while (!h.argvSince(from).some((argv) => argv[0] === 'sleep')) await new Promise((r) => setImmediate(r))
      expect(order).to.deep.equal(['first in'])
      release()
      await Promise.all([one, two])
      expect(order).to.deep.equal(['first in', 'first out', 'second in'])
    } finally {
      await first.close()
      await second.close()
    }
  })

  it('a lock whose holder died without removing it (a pid with no process) is broken by the next edit', async () => {
    writeFileSync(host(FILE), 'start\n')
    const gone = spawnSync('true').pid as number
    expect(existsSync(`/proc/${gone}`)).to.equal(false)
    leaveLock(String(gone))
    await append('after')
    expect(readFileSync(host(FILE), 'utf8')).to.equal('start\nafter\n')
    expect(await lockFreed()).to.equal(true)
    expect(entries()).to.not.include(String(gone))
  })

  it('a folder with no entry (its maker killed between mkdir and writing its pid) is cleared by the next edit', async () => {
    writeFileSync(host(FILE), 'start\n')
    leaveLock()
    const from = h.emu.commands.length
    await append('after')
    expect(readFileSync(host(FILE), 'utf8')).to.equal('start\nafter\n')
    expect(h.argvSince(from)).to.deep.include(['rmdir', LOCK])
    expect(await lockFreed()).to.equal(true)
  })

  it("what a breaker killed mid-way leaves (a dead holder's entry, the older scheme's pid file and .break folder) is cleared by the next edit", async () => {
    writeFileSync(host(FILE), 'start\n')
    const holder = spawnSync('true').pid as number
    const breaker = spawnSync('true').pid as number
    expect(existsSync(`/proc/${holder}`) || existsSync(`/proc/${breaker}`)).to.equal(false)
    leaveLock(String(holder))
    writeFileSync(host(`${LOCK}/pid`), `${holder}\n`)
    mkdirSync(host(`${LOCK}.break`), {recursive: true})
    writeFileSync(host(`${LOCK}.break/pid`), `${breaker}\n`)
    await append('after')
    expect(readFileSync(host(FILE), 'utf8')).to.equal('start\nafter\n')
    expect(await lockFreed()).to.equal(true)
    expect(entries()).to.not.include(String(holder)).and.not.include('pid')
  })

  it('a folder of a live process is never broken: the edit waits for it and ends with TIMEOUT', async () => {
    writeFileSync(host(FILE), 'start\n')
    const gone = spawnSync('true').pid as number
    leaveLock(String(process.pid), String(gone))
    const driver = await h.driver('emu-1', 400)
    try {
      const error = await driver
        .withFileLock(FILE, async () => 'ran')
        .then(
          (value) => value,
          (e: unknown) => e as Error
        )
      expect((error as Error).message).to.include(`waiting to edit ${FILE} on emu-1`)
    } finally {
      await driver.close()
    }
    expect(readFileSync(host(`${LOCK}/${process.pid}`), 'utf8')).to.equal(`${process.pid}\n`)
    expect(readFileSync(host(FILE), 'utf8')).to.equal('start\n')
    expect(entries()).to.deep.equal([String(process.pid)])
  })
})
