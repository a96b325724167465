import {expect} from 'chai'
import {mkdir, rm, writeFile} from 'node:fs/promises'
import path from 'node:path'

import {deviceFolderName} from '@arc-cli/core'

import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {mountTmpfs, scratch} from '@arc-cli/test-support/hostile'
import {runArc} from '@arc-cli/test-support/run-arc'

const NO_STACK = /\n\s+at /

/** The per-device id cache damaged in the ways a cache can be: every command still answers, never INTERNAL. */
describe('hostile: a damaged or unwritable id cache', function () {
  this.timeout(120_000)
  const h = useEmulator()
  const unmounts: Array<() => Promise<void>> = []
  after(async () => {
    for (const unmount of unmounts) await unmount()
  })

  /** The emulated device's cache folder under the suite's ARC_CACHE_DIR (its adb server is not the default one). */
  const deviceCache = () =>
    path.join(h.env.ARC_CACHE_DIR as string, 'devices', deviceFolderName('emu-1', `127.0.0.1:${h.emu.port}`))

  /** A clickable element's id on the demo screen, from a fresh read (which also writes the cache). */
  async function someId(): Promise<string> {
    const read = await runArc(['screen-state', '--json'], {env: h.env})
    expect(read.code, read.stderr).to.equal(0)
    const elements = (
      JSON.parse(read.stdout) as {windows: Array<{elements: Array<{id: string; flags: string[]}>}>}
    ).windows.flatMap((w) => w.elements)
    return (elements.find((e) => e.flags.includes('clk')) as {id: string}).id
  }

  const damaged: Array<[string, (dir: string) => Promise<void>]> = [
    ['ids null', async (dir) => writeFile(path.join(dir, 'element-ids.json'), '{"at": 1, "ids": null}')],
    [
      'a record of another shape',
      async (dir) => writeFile(path.join(dir, 'element-ids.json'), '{"at": 1, "ids": {"node_aaaaaa": {"cls": 5}}}'),
    ],
    ['an array', async (dir) => writeFile(path.join(dir, 'element-ids.json'), '[1, 2]')],
    [
      'the entry a folder',
      async (dir) => {
        await rm(path.join(dir, 'element-ids.json'), {force: true})
        await mkdir(path.join(dir, 'element-ids.json', 'x'), {recursive: true})
      },
    ],
    [
      'the last screen of another shape',
      async (dir) => writeFile(path.join(dir, 'last-screen.json'), '{"fingerprint": 5, "rows": null}'),
    ],
    [
      'the last screen a folder',
      async (dir) => {
        await rm(path.join(dir, 'last-screen.json'), {force: true})
        await mkdir(path.join(dir, 'last-screen.json'))
      },
    ],
  ]

  for (const [what, damage] of damaged) {
    it(`${what}: click, screen-state --changes diff and wait gone still answer (exit 0), and the cache is rebuilt`, async () => {
      const id = await someId()
      await damage(deviceCache())
      for (const args of [
        ['click', id],
        ['screen-state', '--changes', 'diff'],
        ['wait', 'gone', 'id', id, '--timeout', '500'],
        ['screen-state', '--changes', 'diff'],
      ]) {
        const run = await runArc(args, {env: h.env})
        expect(run.stderr, `${what}: ${args.join(' ')}`)
          .to.not.include('INTERNAL')
          .and.not.match(NO_STACK)
        // wait gone times out (exit 11) while the element is on screen: an answer, not a failure of arc.
        expect([0, 11], `${what}: ${args.join(' ')}: ${run.stderr}`).to.include(run.code)
      }
    })
  }

  for (const [what, env] of [
    [
      'ARC_CACHE_DIR naming a file',
      async () => {
        const dir = await scratch()
        await writeFile(path.join(dir, 'afile'), 'x')
        return {ARC_CACHE_DIR: path.join(dir, 'afile')}
      },
    ],
    ['ARC_CACHE_DIR=/proc/x', async () => ({ARC_CACHE_DIR: '/proc/x'})],
    [
      'HOME missing (it cannot be made, even by root) and no cache variables',
      async () => {
        const dir = await scratch()
        await writeFile(path.join(dir, 'afile'), 'x')
        return {ARC_CACHE_DIR: '', XDG_CACHE_HOME: '', HOME: path.join(dir, 'afile', 'home')}
      },
    ],
    [
      'HOME read-only (a read-only file system, as `docker run --read-only`)',
      async () => {
        const disk = await mountTmpfs({sizeKb: 64, readOnly: true})
        if (!disk) return undefined
        unmounts.push(disk.unmount)
        return {ARC_CACHE_DIR: '', XDG_CACHE_HOME: '', HOME: disk.dir}
      },
    ],
  ] as const) {
    it(`${what}: screen-state and find answer (exit 0) with one warning naming the folder and the variable`, async function () {
      const more = await env()
      if (!more) this.skip() // a read-only file system needs root to mount
      for (const args of [['screen-state'], ['find', 'class_name', 'Button']]) {
        const run = await runArc(args, {env: {...h.env, ...more}})
        expect(run.code, `${args[0]}: ${run.stderr}`).to.equal(0)
        const warnings = run.stderr
          .split('\n')
          .filter((line) => line.startsWith('Warning: arc cannot write its cache folder'))
        expect(warnings, run.stderr).to.have.length(1)
        expect(warnings[0]).to.match(/Point (ARC_CACHE_DIR|HOME \(or set ARC_CACHE_DIR\)) at a writable folder\.$/)
        expect(run.stderr).to.not.include('INTERNAL').and.not.match(NO_STACK)
      }
    })
  }
})
