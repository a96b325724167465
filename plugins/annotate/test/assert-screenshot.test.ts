/**
 * `arc assert screenshot`: the screen (or one element) against a baseline PNG, with a threshold, a tolerance and
 * masks; a diff picture and the screenshot written on failure; a missing baseline written with a note. Played on
 * arc emulate's demo app, whose screen changes where the app changes.
 */
import {access, readFile, rm, writeFile} from 'node:fs/promises'
import path from 'node:path'

import {loadImage, createCanvas} from '@napi-rs/canvas'
import {expect} from 'chai'

import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {runArc} from '@arc-cli/test-support/run-arc'

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false
  )

/** The RGBA of one pixel of a PNG. */
async function pixel(png: Buffer, x: number, y: number): Promise<number[]> {
  const image = await loadImage(png)
  const canvas = createCanvas(image.width, image.height)
  const ctx = canvas.getContext('2d')
  ctx.drawImage(image, 0, 0)
  return [...ctx.getImageData(x, y, 1, 1).data]
}

describe('arc assert screenshot', function () {
  this.timeout(120_000)
  const h = useEmulator({devices: [{serial: 'emu-1', app: 'demo'}]})
  const arc = (...args: string[]) => runArc([...args, '--device', 'emu-1'], {env: h.env, cwd: h.dir})
  const base = () => path.join(h.dir, 'baselines', 'list.png')

  it('writes a missing baseline from the screenshot, with a note; --require-baseline fails instead', async () => {
    const required = await arc('assert', 'screenshot', 'baselines/list.png', '--require-baseline')
    expect(required.code).to.equal(23)
    expect(required.stderr).to.include(`no baseline at ${base()} (--require-baseline)`)
    expect(await exists(base())).to.equal(false)
    const run = await arc('assert', 'screenshot', 'baselines/list.png')
    expect(run.code, run.stderr).to.equal(0)
    expect(run.stderr).to.include(`baseline ${base()} was missing: wrote it from this screenshot; nothing was compared`)
    expect(run.stdout).to.include(`Baseline was missing: written from the screen: ${base()} (1080x2400)`)
    expect((await readFile(base())).equals(await h.emu.device('emu-1').screen.png())).to.equal(true)
  })

  // A baseline written inside a CI job is compared with nothing and lost with the job's workspace: the step passed
  // every run having checked nothing. On CI (CI set, as GitHub Actions and GitLab set it) it fails as with
  // --require-baseline; CI=false, or --update, still writes it.
  it('on CI (CI set) a missing baseline fails and nothing is written; CI=false or --update writes it', async () => {
    const other = path.join(h.dir, 'ci', 'list.png')
    const onCi = await runArc(['assert', 'screenshot', 'ci/list.png', '--device', 'emu-1', '--json'], {
      env: {...h.env, CI: 'true'},
      cwd: h.dir,
    })
    expect(onCi.code, onCi.stderr).to.equal(23)
    const {error} = JSON.parse(onCi.stdout) as {
      error: {code: string; message: string; details: object; actions: string[]}
    }
    expect(error.code).to.equal('ASSERTION_FAILED')
    expect(error.message).to.equal(
      `no baseline at ${other} (CI is set (CI=true): on CI a missing baseline fails): nothing to compare with`
    )
    expect(error.details).to.deep.equal({baseline: other, ci: true})
    expect(error.actions.join(' ')).to.include('--update').and.include('CI=false')
    expect(await exists(other)).to.equal(false)
    expect(await exists(path.join(h.dir, 'ci'))).to.equal(false)

    const notCi = await runArc(['assert', 'screenshot', 'ci/list.png', '--device', 'emu-1'], {
      env: {...h.env, CI: 'false'},
      cwd: h.dir,
    })
    expect(notCi.code, notCi.stderr).to.equal(0)
    expect(notCi.stderr).to.include(`baseline ${other} was missing: wrote it from this screenshot`)
    await rm(path.join(h.dir, 'ci'), {recursive: true})
    const updated = await runArc(['assert', 'screenshot', 'ci/list.png', '--device', 'emu-1', '--update'], {
      env: {...h.env, CI: 'true'},
      cwd: h.dir,
    })
    expect(updated.code, updated.stderr).to.equal(0)
    expect(await exists(other)).to.equal(true)
  })

  it('passes on the same screen: no pixel differs', async () => {
    const run = await arc('assert', 'screenshot', 'baselines/list.png', '--json')
    expect(run.code, run.stderr).to.equal(0)
    expect(JSON.parse(run.stdout)).to.deep.include({matched: true, differing: 0, compared: 1080 * 2400})
  })

  it('fails when the app changed: diff (red where it differs) and screenshot written beside the baseline', async () => {
    expect((await arc('type', 'append', '--res-id', 'dev.arc.demo.groceries:id/new_item', 'Kale')).code).to.equal(0)
    expect((await arc('click', '--text', 'ADD', '--exact-match')).code).to.equal(0)
    const run = await arc('assert', 'screenshot', 'baselines/list.png')
    expect(run.code).to.equal(23)
    const diff = path.join(h.dir, 'baselines', 'list.diff.png')
    const actual = path.join(h.dir, 'baselines', 'list.actual.png')
    expect(run.stderr)
      .to.match(
        /Error \[ASSERTION_FAILED\]: the screen differs from .*list\.png: \d+ of 2592000 compared pixels differ/
      )
      .and.include(`wrote the diff (red: differing) to ${diff} and the screenshot to ${actual}`)
    expect((await readFile(actual)).equals(await h.emu.device('emu-1').screen.png())).to.equal(true)
    // The first row now reads Kale where it read Oat milk: its name's bar is shorter, so pixels past it differ.
    const diffPng = await readFile(diff)
    expect(await pixel(diffPng, 300, 453)).to.deep.equal([255, 0, 0, 255])
    // The toolbar did not change: faded grey, not red.
    const [r, g, b] = await pixel(diffPng, 500, 80)
    expect(r).to.equal(g).and.to.equal(b)
  })

  it('masks and a threshold let through what may change; a bad mask is refused by name', async () => {
    const masked = await arc('assert', 'screenshot', 'baselines/list.png', '--mask', '0,378,1080,1590')
    expect(masked.code, masked.stderr).to.equal(0)
    expect(masked.stdout).to.match(/matches .*: 0 of \d+ compared pixels differ/)
    const loose = await arc('assert', 'screenshot', 'baselines/list.png', '--threshold', '0.5')
    expect(loose.code, loose.stderr).to.equal(0)
    const bad = await arc('assert', 'screenshot', 'baselines/list.png', '--mask', '10,10,5,20')
    expect(bad.code).to.equal(2)
    expect(bad.stderr).to.include('--mask "10,10,5,20" is not a box')
  })

  it('masks that leave nothing to compare, or lie outside the image, are refused naming --mask', async () => {
    const all = await arc('assert', 'screenshot', 'baselines/list.png', '--mask', '0,0,1080,2400')
    expect(all.code, all.stdout).to.equal(2)
    expect(all.stderr).to.include('--mask: the masks cover the whole 1080x2400 image: no pixel was compared')
    const outside = await arc('assert', 'screenshot', 'baselines/list.png', '--mask', '2000,0,2100,50')
    expect(outside.code, outside.stdout).to.equal(2)
    expect(outside.stderr).to.include('--mask 2000,0,2100,50 lies wholly outside the 1080x2400 image')
  })

  it('--diff naming the baseline or the screenshot beside it is refused, the baseline kept', async () => {
    const before = await readFile(base())
    for (const diff of ['baselines/list.png', './baselines/../baselines/list.actual.png', base()]) {
      const run = await arc('assert', 'screenshot', 'baselines/list.png', '--diff', diff)
      expect(run.code, `${diff}: ${run.stderr}`).to.equal(2)
      expect(run.stderr).to.include(`--diff ${diff} is the`)
      expect((await readFile(base())).equals(before)).to.equal(true)
    }
  })

  // --update reads no baseline, so with --require-baseline it said "no baseline at …" (exit 23) beside a baseline
  // that was there: a false failure. The two ask opposite things of a missing baseline: refused together.
  it('--update with --require-baseline is refused as a contradiction (exit 2), the baseline kept', async () => {
    const before = await readFile(base())
    const run = await arc('assert', 'screenshot', 'baselines/list.png', '--update', '--require-baseline')
    expect(run.code, run.stderr).to.equal(2)
    expect(run.stderr).to.include('--update').and.include('--require-baseline').and.not.include('no baseline at')
    expect((await readFile(base())).equals(before)).to.equal(true)
  })

  it('a folder the OS refuses to create (/proc/nope): OUTPUT_FAILED (13) naming it, no hang, device free', async function () {
    if (process.platform !== 'linux') this.skip()
    // Node's recursive mkdir never settles under /proc: bounded, so a regression fails instead of hanging.
    const bounded = (...args: string[]) =>
      runArc([...args, '--device', 'emu-1'], {env: h.env, cwd: h.dir, timeoutMs: 60_000})
    const baseline = await bounded('assert', 'screenshot', '/proc/nope/b.png')
    expect(baseline.code, baseline.stderr).to.equal(13)
    expect(baseline.stderr).to.include('baseline: cannot write /proc/nope/b.png: cannot make the folder /proc/nope')
    const diff = await bounded('assert', 'screenshot', 'baselines/list.png', '--diff', '/proc/nope/d.png')
    expect(diff.code, diff.stderr).to.equal(13)
    expect(diff.stderr).to.include('--diff: cannot write /proc/nope/d.png: cannot make the folder /proc/nope')
  })

  it('compares one element, and runs as a flow step', async () => {
    const add = JSON.parse((await arc('find', 'text', 'ADD', '--exact-match', '--json')).stdout).elements[0].id
    const first = await arc('assert', 'screenshot', 'baselines/add.png', '--element', add)
    expect(first.code, first.stderr).to.equal(0)
    const image = await loadImage(await readFile(path.join(h.dir, 'baselines', 'add.png')))
    expect([image.width, image.height]).to.deep.equal([1038 - 801, 357 - 231])
    const flow = path.join(h.dir, 'shots.flow')
    await writeFile(
      flow,
      `assert screenshot baselines/add.png --element ${add}\nassert screenshot baselines/list.png\n`
    )
    const run = await runArc(['test', flow, '--device', 'emu-1'], {env: h.env, cwd: h.dir})
    expect(run.code).to.equal(23)
    expect(run.stderr).to.include(`${flow}:2 assert screenshot baselines/list.png`).and.include('FAILED')
    expect(run.stderr).not.to.match(/shots\.flow:1[^\n]*\n[^\n]*Error/)
  })
})
