import {expect} from 'chai'
import {spawn} from 'node:child_process'
import {chmod, mkdir, readFile, rm, statfs, symlink, writeFile} from 'node:fs/promises'
import path from 'node:path'

import {exitCodeFor} from '@arc-cli/core'

import {isRoot, mountTmpfs, scratch, tree} from '@arc-cli/test-support/hostile'
import {ROOT} from '@arc-cli/test-support/paths'
import {runArc} from '@arc-cli/test-support/run-arc'

const NOBODY = 65534

/** `arc snapshot save` against hostile targets, and snapshot readers against parts that do not belong together. */
describe('hostile: snapshot save and read', function () {
  let dir: string
  beforeEach(async () => {
    dir = await scratch()
  })

  it('replaces a symlinked screen.png, never writing through it (victim and /proc/self/fd/1 alike)', async () => {
    const snap = path.join(dir, 'snap')
    await mkdir(snap)
    await writeFile(path.join(dir, 'victim.txt'), 'VICTIM\n')
    await symlink(path.join(dir, 'victim.txt'), path.join(snap, 'screen.png'))
    await symlink('/proc/self/fd/1', path.join(snap, 'window_dump.xml'))
    const run = await runArc(['snapshot', 'save', 'snap', '-d', 'demo'], {cwd: dir})
    expect(run.code, run.stderr).to.equal(0)
    expect(await readFile(path.join(dir, 'victim.txt'), 'utf8')).to.equal('VICTIM\n')
    const after = await tree(dir)
    expect(after['snap/screen.png']).to.match(/^file:/)
    expect(after['snap/window_dump.xml']).to.match(/^file:/)
    expect(Object.keys(after).filter((n) => n.startsWith('.'))).to.deep.equal([])
  })

  it('a target folder holding other files: exit 13, nothing changed', async () => {
    const snap = path.join(dir, 'snap')
    await mkdir(snap)
    await writeFile(path.join(snap, 'notes.txt'), 'mine\n')
    const before = await tree(dir)
    const run = await runArc(['snapshot', 'save', 'snap', '-d', 'demo'], {cwd: dir})
    expect(run.code, run.stderr).to.equal(exitCodeFor('OUTPUT_FAILED'))
    expect(run.stderr).to.include('holds other files (notes.txt)')
    expect(await tree(dir)).to.deep.equal(before)
  })

  it('the current folder (`.`, or its name from inside it): exit 13, the snapshot and the folder left in place', async () => {
    const snap = path.join(dir, 'snap')
    expect((await runArc(['snapshot', 'save', 'snap', '-d', 'demo'], {cwd: dir})).code).to.equal(0)
    const before = await tree(dir)
    for (const target of ['.', '../snap', snap]) {
      const run = await runArc(['snapshot', 'save', target, '-d', 'demo'], {cwd: snap})
      expect(run.code, run.stderr).to.equal(exitCodeFor('OUTPUT_FAILED'))
      expect(run.stderr).to.include('it is the current folder')
      expect(await tree(dir)).to.deep.equal(before)
    }
  })

  it('a target that is a file: exit 13, the file unchanged', async () => {
    await writeFile(path.join(dir, 'snap'), 'PRECIOUS\n')
    const before = await tree(dir)
    const run = await runArc(['snapshot', 'save', 'snap', '-d', 'demo'], {cwd: dir})
    expect(run.code, run.stderr).to.equal(exitCodeFor('OUTPUT_FAILED'))
    expect(await tree(dir)).to.deep.equal(before)
  })

  it('a target that is a symbolic link: exit 13 naming where it points, the link and its folder unchanged', async () => {
    expect((await runArc(['snapshot', 'save', 'real', '-d', 'demo'], {cwd: dir})).code).to.equal(0)
    await symlink('real', path.join(dir, 'latest'))
    const before = await tree(dir)
    const run = await runArc(['snapshot', 'save', 'latest', '-d', 'demo'], {cwd: dir})
    expect(run.code, run.stderr).to.equal(exitCodeFor('OUTPUT_FAILED'))
    expect(run.stderr).to.include('it is a symbolic link').and.include(path.join(dir, 'real'))
    expect(await tree(dir)).to.deep.equal(before)
  })

  it('a target below a file: exit 13 saying a part of the path is not a folder', async () => {
    await writeFile(path.join(dir, 'plain'), 'PRECIOUS\n')
    const run = await runArc(['snapshot', 'save', 'plain/snap', '-d', 'demo'], {cwd: dir})
    expect(run.code, run.stderr).to.equal(exitCodeFor('OUTPUT_FAILED'))
    expect(run.stderr).to.include('a part of the path is not a folder')
  })

  // Node 20's recursive mkdir never settles under /proc (it spins the CPU): `snapshot save /proc/nope/x/snap` hung.
  it('a folder the OS refuses to create (/proc/nope): exit 13 naming it, no hang', async function () {
    if (process.platform !== 'linux') this.skip()
    const run = await runArc(['snapshot', 'save', '/proc/nope/x/snap', '-d', 'demo'], {cwd: dir, timeoutMs: 20_000})
    expect(run.code, run.stderr).to.equal(exitCodeFor('OUTPUT_FAILED'))
    expect(run.stderr).to.include('cannot write the snapshot to /proc/nope/x/snap').and.include('/proc/nope')
  })

  it('ENOSPC (a full tmpfs): exit 13, the old snapshot whole and still readable', async function () {
    const disk = await mountTmpfs({sizeKb: 512})
    if (!disk) this.skip()
    try {
      const first = await runArc(['snapshot', 'save', 'snap', '-d', 'demo'], {cwd: disk.dir})
      expect(first.code, first.stderr).to.equal(0)
      // Leave room for a dump but not for a second screen.png.
      const {bavail, bsize} = await statfs(disk.dir)
      await writeFile(path.join(disk.dir, 'filler'), Buffer.alloc(bavail * bsize - 64 * 1024))
      const before = await tree(disk.dir)
      const run = await runArc(['snapshot', 'save', 'snap', '-d', 'demo'], {cwd: disk.dir})
      expect(run.code, run.stderr).to.equal(exitCodeFor('OUTPUT_FAILED'))
      expect(run.stderr).to.include('the disk is full')
      expect(await tree(disk.dir)).to.deep.equal(before)
      const read = await runArc(['screen-state', '-d', path.join(disk.dir, 'snap')])
      expect(read.code, read.stderr).to.equal(0)
    } finally {
      await disk.unmount()
    }
  })

  it('a reader refuses a dump that is not the one meta.json recorded: exit 2 "inconsistent"', async () => {
    expect((await runArc(['snapshot', 'save', 'snap', '-d', 'demo'], {cwd: dir})).code).to.equal(0)
    const xmlPath = path.join(dir, 'snap', 'window_dump.xml')
    await writeFile(xmlPath, (await readFile(xmlPath, 'utf8')).replace('Oat milk', 'Oat mylk'))
    const run = await runArc(['screen-state', '-d', path.join(dir, 'snap')])
    expect(run.code, run.stderr).to.equal(exitCodeFor('INVALID_INPUT'))
    expect(run.stderr).to.include('is inconsistent: window_dump.xml does not match')
  })

  it('a reader refuses a truncated screen.png and a missing listed part', async () => {
    expect((await runArc(['snapshot', 'save', 'snap', '-d', 'demo'], {cwd: dir})).code).to.equal(0)
    const pngPath = path.join(dir, 'snap', 'screen.png')
    const png = await readFile(pngPath)
    await writeFile(pngPath, png.subarray(0, png.length >> 1))
    const run = await runArc(['annotate', '-d', path.join(dir, 'snap'), '-o', path.join(dir, 'x.jpg')])
    expect(run.code, run.stderr).to.equal(exitCodeFor('INVALID_INPUT'))
    expect(run.stderr).to.include(`screen.png is ${png.length >> 1} bytes, meta.json recorded ${png.length}`)
    await rm(pngPath)
    const gone = await runArc(['screen-state', '-d', path.join(dir, 'snap')])
    expect(gone.code, gone.stderr).to.equal(exitCodeFor('INVALID_INPUT'))
    expect(gone.stderr).to.include('meta.json lists screen.png, which the folder does not hold')
  })

  it('a truncated screen.png in a snapshot without recorded hashes: screenshot and save refuse it, writing nothing', async () => {
    const snap = path.join(dir, 'old')
    expect((await runArc(['snapshot', 'save', 'old', '-d', 'demo'], {cwd: dir})).code).to.equal(0)
    const metaPath = path.join(snap, 'meta.json')
    const {files: _files, ...meta} = JSON.parse(await readFile(metaPath, 'utf8'))
    await writeFile(metaPath, JSON.stringify(meta))
    const pngPath = path.join(snap, 'screen.png')
    await writeFile(pngPath, (await readFile(pngPath)).subarray(0, 5000))
    const shot = await runArc(['screenshot', '-d', snap, '-o', path.join(dir, 'shot.png')])
    expect(shot.code, shot.stderr).to.equal(exitCodeFor('INVALID_INPUT'))
    expect(shot.stderr).to.include(`${pngPath} is not a whole PNG`).and.include('truncated')
    const copy = await runArc(['snapshot', 'save', 'copy', '-d', snap], {cwd: dir})
    expect(copy.code, copy.stderr).to.equal(exitCodeFor('INVALID_INPUT'))
    const after = Object.keys(await tree(dir))
    expect(after.filter((n) => n.startsWith('shot') || n.startsWith('copy') || n.startsWith('.'))).to.deep.equal([])
  })

  it('an unreadable snapshot file (EACCES): exit 2 naming the file, never INTERNAL', async function () {
    if (!isRoot) this.skip() // run as nobody so that permissions apply
    expect((await runArc(['snapshot', 'save', 'snap', '-d', 'demo'], {cwd: dir})).code).to.equal(0)
    await chmod(dir, 0o755)
    await chmod(path.join(dir, 'snap'), 0o755)
    await chmod(path.join(dir, 'snap', 'window_dump.xml'), 0o600)
    const run = await runArc(['screen-state', '-d', path.join(dir, 'snap')], {
      uid: NOBODY,
      cwd: '/tmp',
      env: {ARC_CACHE_DIR: '/tmp', HOME: '/tmp'},
    })
    expect(run.code, run.stderr).to.equal(exitCodeFor('INVALID_INPUT'))
    expect(run.stderr).to.include('window_dump.xml: permission denied').and.not.include('INTERNAL')
    expect(run.stderr).to.not.match(/\n\s+at /)
  })

  it('kill -9 during saves: the folder is always a whole snapshot, and the next save cleans up', async function () {
    this.timeout(300_000)
    expect((await runArc(['snapshot', 'save', 'snap', '-d', 'demo'], {cwd: dir})).code).to.equal(0)
    for (const delay of [200, 450, 700, 950, 1200]) {
      const child = spawn(
        process.execPath,
        ['--conditions=arc-source', path.join(ROOT, 'bin', 'dev.js'), 'snapshot', 'save', 'snap', '-d', 'demo'],
        {
          cwd: dir,
          stdio: 'ignore',
        }
      )
      const closed = new Promise((resolve) => child.on('close', resolve))
      await new Promise((resolve) => setTimeout(resolve, delay))
      child.kill('SIGKILL') // a no-op when the save already finished: then the check below reads the new snapshot
      await closed
      const read = await runArc(['screen-state', '-d', path.join(dir, 'snap')])
      expect(read.code, `after a kill at ${delay} ms: ${read.stderr}`).to.equal(0)
    }
    expect((await runArc(['snapshot', 'save', 'snap', '-d', 'demo'], {cwd: dir})).code).to.equal(0)
    expect(Object.keys(await tree(dir)).filter((n) => n.startsWith('.'))).to.deep.equal([])
  })
})
