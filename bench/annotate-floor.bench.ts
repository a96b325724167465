/**
 * `npm run bench -- annotate-floor`: `arc annotate` against the least an annotation can cost, on the same 1080x2400
 * screenshot (bili-home-feed from ../shared, else the bundled demo):
 *
 * - in process: annotateScreenshot (decode, scale to 700 px, marks, labels, encode JPEG q80) against decode, scale
 *   and encode alone with the same canvas calls (goal: within 1.3x), wall time and the CPU time of all threads;
 * - as processes: the built `arc annotate --device DIR -o FILE` against bench/support/floor-annotate.mjs, a Node.js
 *   process that loads the canvas library, decodes, scales, encodes and writes (goal: within 1.5x). Wall and CPU
 *   time, alternating the two so a burst of load falls on both, and where arc's CPU goes (start-up alone, the
 *   screen read, the rest; start-up in parts: Node.js alone, the core bundle, oclif; and the canvas library's load
 *   against the floor's image work). Needs `npm run build`. Where NODE_EXTRA_CA_CERTS is set (every Node.js start
 *   then parses that CA bundle, a cost both sides pay that flatters the ratio), the pair again without it.
 */
import {spawn} from 'node:child_process'
import {existsSync, mkdtempSync, readFileSync, rmSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import {buildScreenModel, DEMO_DIR, SnapshotDriver} from '@arc-cli/core'
import {annotateScreenshot, resolveAnnotateOptions} from '@arc-cli/plugin-annotate'
import {createCanvas, loadImage} from '@napi-rs/canvas'
import {fixturePath} from '@arc-cli/test-support/paths'

import {ROOT} from './figure-blocks.js'
import {median, timeAlternating} from './stats.js'
import {startArcServer} from './support/arc-processes.js'

const PRELOAD = path.join(ROOT, 'bench', 'support', 'cpu-report.cjs')

async function floorInProcess(png: Buffer): Promise<Buffer> {
  const image = await loadImage(png)
  const scale = Math.min(1, 700 / Math.max(image.width, image.height))
  const canvas = createCanvas(Math.round(image.width * scale), Math.round(image.height * scale))
  const ctx = canvas.getContext('2d')
  ctx.imageSmoothingEnabled = true
  ctx.imageSmoothingQuality = 'high'
  ctx.drawImage(image, 0, 0, canvas.width, canvas.height)
  return canvas.encode('jpeg', 80)
}

/** Wall ms of `node ARGS`, and its CPU ms (cpu-report.cjs appends it to `cpuFile`). */
function timed(args: string[], cpuFile: string, env: NodeJS.ProcessEnv = {ARC_SERVER: 'off'}): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['--require', PRELOAD, ...args], {
      cwd: ROOT,
      // Without a server unless one is asked for: a server the person benchmarking runs must not serve these.
      env: {...process.env, ARC_BENCH_CPU_FILE: cpuFile, ...env},
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (d) => (stderr += d))
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`node ${args.join(' ')} exited ${code}: ${stderr}`))
    )
  })
}

export default async function bench(): Promise<void> {
  const fixture = fixturePath('bili-home-feed')
  const source = existsSync(path.join(fixture, 'screen.png')) ? fixture : DEMO_DIR
  const driver = await SnapshotDriver.open(source)
  const model = buildScreenModel(await driver.captureScreen())
  const png = await driver.screenshot()
  const options = resolveAnnotateOptions({config: {}}, {})
  // CPU time of the whole process (every thread: the canvas decodes and encodes on libuv's pool, V8 compiles and
  // marks on its own) across each call: on 2 shared cores the wall ratio depends on whether the second core is
  // free; the CPU ratio is what a loaded machine sees.
  const arcCpu: number[] = []
  const floorCpu: number[] = []
  const withCpu = (into: number[], fn: () => Promise<unknown>) => async () => {
    const start = process.cpuUsage()
    await fn()
    const used = process.cpuUsage(start)
    into.push((used.user + used.system) / 1000)
  }
  const [arc, floor] = await timeAlternating(
    [withCpu(arcCpu, () => annotateScreenshot(model, png, options)), withCpu(floorCpu, () => floorInProcess(png))],
    30
  )
  const ratio = median(arc as number[]) / median(floor as number[])
  console.log(
    `in process, ${path.basename(source)}: annotate ${median(arc as number[]).toFixed(1)} ms, decode-scale-encode ${median(floor as number[]).toFixed(1)} ms ` +
      `(median of 30, alternating): ${ratio.toFixed(2)}x (goal <= 1.3)`
  )
  // timeAlternating runs 3 unmeasured rounds first: their CPU times are dropped too.
  const arcCpuMedian = median(arcCpu.slice(-30))
  const floorCpuMedian = median(floorCpu.slice(-30))
  console.log(
    `in process, CPU of all threads: annotate ${arcCpuMedian.toFixed(1)} ms, decode-scale-encode ${floorCpuMedian.toFixed(1)} ms ` +
      `(median of the same 30 calls): ${(arcCpuMedian / floorCpuMedian).toFixed(2)}x`
  )

  if (!existsSync(path.join(ROOT, 'dist', 'index.js'))) {
    console.log('as processes: skipped (run `npm run build` first; the figures are for the built bin/run.js)')
    return
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'arc-bench-annotate-'))
  try {
    const pngFile = path.join(dir, 'screen.png')
    const {writeFileSync} = await import('node:fs')
    writeFileSync(pngFile, png)
    const arcCpu = path.join(dir, 'arc-cpu.txt')
    const floorCpu = path.join(dir, 'floor-cpu.txt')
    const startCpu = path.join(dir, 'start-cpu.txt')
    const readCpu = path.join(dir, 'read-cpu.txt')
    const nodeCpu = path.join(dir, 'node-cpu.txt')
    const coreCpu = path.join(dir, 'core-cpu.txt')
    const canvasCpu = path.join(dir, 'canvas-cpu.txt')
    const support = path.join(ROOT, 'bench', 'support')
    const runs = 10
    const bin = path.join(ROOT, 'bin', 'run.js')
    // Where arc's time goes: start-up alone (`arc --version`), start-up and the screen read (`screen-state` of the
    // same folder), and the whole annotation; the rest is the canvas work the floor also does, plus the marks.
    const [arcWall, floorWall] = await timeAlternating(
      [
        () => timed([bin, 'annotate', '--device', source, '-o', path.join(dir, 'arc.jpg')], arcCpu),
        () =>
          timed(
            [path.join(ROOT, 'bench', 'support', 'floor-annotate.mjs'), pngFile, path.join(dir, 'floor.jpg')],
            floorCpu
          ),
        () => timed([bin, '--version'], startCpu),
        () => timed([bin, 'screen-state', '--device', source], readCpu),
        // The parts both start from: Node.js alone, arc's core bundle alone, the canvas library alone.
        () => timed(['-e', ''], nodeCpu),
        () => timed([path.join(support, 'load-core.mjs')], coreCpu),
        () => timed([path.join(support, 'load-canvas.mjs')], canvasCpu),
      ],
      runs,
      1
    )
    const cpu = (file: string) => median(readFileSync(file, 'utf8').trim().split('\n').map(Number).slice(-runs))
    const wallRatio = median(arcWall as number[]) / median(floorWall as number[])
    console.log(
      `as processes: arc annotate ${median(arcWall as number[]).toFixed(0)} ms wall / ${cpu(arcCpu).toFixed(0)} ms CPU, ` +
        `floor process ${median(floorWall as number[]).toFixed(0)} ms wall / ${cpu(floorCpu).toFixed(0)} ms CPU (median of ${runs}, alternating): ` +
        `${wallRatio.toFixed(2)}x wall, ${(cpu(arcCpu) / cpu(floorCpu)).toFixed(2)}x CPU (goal <= 1.5)`
    )
    console.log(
      `where arc annotate's CPU goes (medians): start-up (arc --version) ${cpu(startCpu).toFixed(0)} ms; ` +
        `the screen read on top (arc screen-state) ${(cpu(readCpu) - cpu(startCpu)).toFixed(0)} ms; ` +
        `loading the annotate plugin and the canvas, decoding, marking, encoding and writing ${(cpu(arcCpu) - cpu(readCpu)).toFixed(0)} ms ` +
        `(the floor process: ${cpu(floorCpu).toFixed(0)} ms in all, Node.js start included)`
    )
    console.log(
      `start-up in parts (CPU medians): Node.js alone (node -e '') ${cpu(nodeCpu).toFixed(0)} ms; ` +
        `arc's core bundle on top (oclif, zod, the core) ${(cpu(coreCpu) - cpu(nodeCpu)).toFixed(0)} ms; ` +
        `oclif's config and --version on top ${(cpu(startCpu) - cpu(coreCpu)).toFixed(0)} ms; ` +
        `the canvas library on top of Node.js ${(cpu(canvasCpu) - cpu(nodeCpu)).toFixed(0)} ms, ` +
        `so the floor's image work is ${(cpu(floorCpu) - cpu(canvasCpu)).toFixed(0)} ms`
    )
    // NODE_EXTRA_CA_CERTS (set on this machine to a system CA bundle) makes every Node.js process parse the bundle at
    // start, the floor's as much as arc's: tens of ms added to both sides flatter the ratio. Most users' machines
    // do not set it, so the same pair again without it, to show what they see.
    if (process.env.NODE_EXTRA_CA_CERTS) {
      const cleanArc = path.join(dir, 'clean-arc-cpu.txt')
      const cleanFloor = path.join(dir, 'clean-floor-cpu.txt')
      const cleanNode = path.join(dir, 'clean-node-cpu.txt')
      const clean = {ARC_SERVER: 'off', NODE_EXTRA_CA_CERTS: ''}
      const [cleanArcWall, cleanFloorWall] = await timeAlternating(
        [
          () => timed([bin, 'annotate', '--device', source, '-o', path.join(dir, 'arc.jpg')], cleanArc, clean),
          () =>
            timed([path.join(support, 'floor-annotate.mjs'), pngFile, path.join(dir, 'floor.jpg')], cleanFloor, clean),
          () => timed(['-e', ''], cleanNode, clean),
        ],
        runs,
        1
      )
      console.log(
        `as processes without NODE_EXTRA_CA_CERTS (this machine sets it, and loading it costs every Node.js start ` +
          `${(cpu(nodeCpu) - cpu(cleanNode)).toFixed(0)} ms of CPU, the floor's too): arc annotate ` +
          `${median(cleanArcWall as number[]).toFixed(0)} ms wall / ${cpu(cleanArc).toFixed(0)} ms CPU, floor process ` +
          `${median(cleanFloorWall as number[]).toFixed(0)} ms wall / ${cpu(cleanFloor).toFixed(0)} ms CPU (median of ${runs}, alternating): ` +
          `${(median(cleanArcWall as number[]) / median(cleanFloorWall as number[])).toFixed(2)}x wall, ` +
          `${(cpu(cleanArc) / cpu(cleanFloor)).toFixed(2)}x CPU (goal <= 1.5)`
      )
    } else {
      console.log(
        'as processes: NODE_EXTRA_CA_CERTS is not set here, so no Node.js start above loads an extra CA bundle'
      )
    }
    const server = await startArcServer(dir)
    try {
      const {env} = server
      const servedCpu = path.join(dir, 'served-cpu.txt')
      const floorAgain = path.join(dir, 'floor-again-cpu.txt')
      const served = () =>
        timed([bin, 'annotate', '--device', source, '-o', path.join(dir, 'served.jpg')], servedCpu, env)
      // Two commands to warm the server (its first annotation loads the plugin and the canvas), then the CPU count.
      for (let i = 0; i < 2; i++) await served()
      const before = server.cpuMs()
      const [servedWall, floorWall2] = await timeAlternating(
        [
          served,
          () => timed([path.join(support, 'floor-annotate.mjs'), pngFile, path.join(dir, 'floor.jpg')], floorAgain),
        ],
        runs,
        0
      )
      const serverPerRun = (server.cpuMs() - before) / runs
      const ratio = median(servedWall as number[]) / median(floorWall2 as number[])
      console.log(
        `as processes with \`arc server\` running (docs/server.md): arc annotate ${median(servedWall as number[]).toFixed(0)} ms wall ` +
          `(its own process ${cpu(servedCpu).toFixed(0)} ms CPU, the server ${serverPerRun.toFixed(0)} ms CPU per command), ` +
          `floor process ${median(floorWall2 as number[]).toFixed(0)} ms wall (median of ${runs}, alternating): ${ratio.toFixed(2)}x wall (goal <= 1.5)`
      )
    } finally {
      await server.stop()
    }
  } finally {
    rmSync(dir, {recursive: true, force: true})
  }
}
