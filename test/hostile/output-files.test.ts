import {expect} from 'chai'
import {execFileSync, spawn, type ChildProcess} from 'node:child_process'
import {chmod, lstat, mkdir, readdir, readFile, symlink, writeFile} from 'node:fs/promises'
import net from 'node:net'
import path from 'node:path'

import {exitCodeFor} from '@arc-cli/core'
import {runCommand} from '@oclif/test'

import {isRoot, mountTmpfs, scratch, tree} from '@arc-cli/test-support/hostile'
import {runArc} from '@arc-cli/test-support/run-arc'
import {inDevelopment, sourceOptions} from '@arc-cli/test-support/source-config'

const JPEG = Buffer.from([0xff, 0xd8, 0xff])
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47])

/** Hostile output targets for `arc annotate`: every failure leaves every existing file exactly as it was. */
describe('hostile: annotate output targets', function () {
  let dir: string
  beforeEach(async () => {
    dir = await scratch()
    await writeFile(path.join(dir, 'out.jpg'), 'PRECIOUS\n')
    await writeFile(path.join(dir, 'same.json'), 'PRECIOUS\n')
  })

  it('-o out.jpg --map mapdir (a folder): exit OUTPUT_FAILED (13), out.jpg unchanged, no temp files', async () => {
    await mkdir(path.join(dir, 'mapdir'))
    const before = await tree(dir)
    const run = await runArc(['annotate', '-d', 'demo', '-o', 'out.jpg', '--map', 'mapdir'], {cwd: dir})
    expect(run.code, run.stderr).to.equal(exitCodeFor('OUTPUT_FAILED'))
    expect(run.stderr).to.include('--map').and.include('it is a folder')
    expect(await tree(dir)).to.deep.equal(before)
  })

  // In process: no argv carries a megabyte (a batch line or a flow can). The side-file cleanup once compiled the
  // name into a regular expression, which V8 refuses at this size: INTERNAL "Invalid regular expression".
  it('-o with a 1 MB file name: exit OUTPUT_FAILED (13) saying the name is too long, nothing written', async () => {
    const before = await tree(dir)
    const name = `${'x'.repeat(1 << 20)}.jpg`
    const {error, stderr} = await inDevelopment(async () =>
      runCommand(['annotate', '-d', 'demo', '-o', path.join(dir, name)], await sourceOptions())
    )
    process.exitCode = undefined
    expect((error as {oclif?: {exit?: number}} | undefined)?.oclif?.exit, stderr).to.equal(exitCodeFor('OUTPUT_FAILED'))
    expect(stderr).to.include('--output').and.include('name too long').and.not.include('INTERNAL')
    expect(await tree(dir)).to.deep.equal(before)
  })

  it('-o same.json --map same.json: exit INVALID_INPUT (2) naming both flags, same.json unchanged', async () => {
    const before = await tree(dir)
    const run = await runArc(['annotate', '-d', 'demo', '-o', 'same.json', '--map', 'same.json'], {cwd: dir})
    expect(run.code, run.stderr).to.equal(exitCodeFor('INVALID_INPUT'))
    expect(run.stderr).to.include('--map and --output both name')
    expect(await tree(dir)).to.deep.equal(before)
  })

  // Compared as spelt, the two were told apart: both went to one temporary file, and the run failed with "the folder
  // does not exist" for a folder that does.
  it('-o out.jpg --map sub/out.jpg, sub a link to its own folder: exit INVALID_INPUT (2) naming both flags', async () => {
    await symlink('.', path.join(dir, 'sub'))
    const before = await tree(dir)
    const run = await runArc(['annotate', '-d', 'demo', '-o', 'out.jpg', '--map', 'sub/out.jpg'], {cwd: dir})
    expect(run.code, run.stderr).to.equal(exitCodeFor('INVALID_INPUT'))
    expect(run.stderr).to.include(`--map and --output both name ${path.join(dir, 'sub', 'out.jpg')}`)
    expect(await tree(dir)).to.deep.equal(before)
  })

  it('-o into a missing folder: exit 13 before any work, nothing written', async () => {
    const before = await tree(dir)
    const run = await runArc(['annotate', '-d', 'demo', '-o', 'nope/x.jpg', '--map', 'm.json'], {cwd: dir})
    expect(run.code, run.stderr).to.equal(exitCodeFor('OUTPUT_FAILED'))
    expect(run.stderr).to.include('the folder does not exist')
    expect(await tree(dir)).to.deep.equal(before)
  })

  it('replaces a symlinked target with the file, never writing through the link', async () => {
    await writeFile(path.join(dir, 'victim.txt'), 'VICTIM\n')
    await symlink('victim.txt', path.join(dir, 'shot.jpg'))
    const run = await runArc(['annotate', '-d', 'demo', '-o', 'shot.jpg'], {cwd: dir})
    expect(run.code, run.stderr).to.equal(0)
    expect(await readFile(path.join(dir, 'victim.txt'), 'utf8')).to.equal('VICTIM\n')
    expect((await readFile(path.join(dir, 'shot.jpg'))).subarray(0, 3)).to.deep.equal(JPEG)
  })

  // The new content goes to a temporary file renamed over the target: made with the default mode (0666 less the
  // umask), it replaced a private 0600 file with one anyone could read, and a 0755 one with one no one could run.
  it('a replaced file keeps its permission bits: annotate -o, its --map, screenshot -o', async () => {
    const modeOf = async (name: string) => ((await lstat(path.join(dir, name))).mode & 0o7777).toString(8)
    for (const mode of [0o600, 0o755, 0o640]) {
      for (const name of ['shot.jpg', 'map.json', 'plain.png']) {
        await writeFile(path.join(dir, name), 'OLD\n')
        await chmod(path.join(dir, name), mode)
      }
      const annotated = await runArc(['annotate', '-d', 'demo', '-o', 'shot.jpg', '--map', 'map.json'], {cwd: dir})
      expect(annotated.code, annotated.stderr).to.equal(0)
      const shot = await runArc(['screenshot', '-d', 'demo', '-o', 'plain.png'], {cwd: dir})
      expect(shot.code, shot.stderr).to.equal(0)
      for (const name of ['shot.jpg', 'map.json', 'plain.png'])
        expect(await modeOf(name), `${name} was ${mode.toString(8)}`).to.equal(mode.toString(8))
    }
    // A new file gets the default mode, as before.
    await runArc(['screenshot', '-d', 'demo', '-o', 'fresh.png'], {cwd: dir})
    expect((await lstat(path.join(dir, 'fresh.png'))).mode & 0o111).to.equal(0)
  })

  // A file system takes names of up to 255 bytes; the side files (`.NAME.PID.tmp`) add some 20, so every name from
  // about 236 bytes on (80 Chinese characters are 240) was refused with ENAMETOOLONG for a file arc never meant to keep.
  it('names of up to 255 bytes, as the file system takes them: annotate, its map, screenshot and snapshot save', async () => {
    const long = (ext: string) => `${'n'.repeat(255 - ext.length)}${ext}`
    const cjk = `${'图'.repeat(83)}.png` // 253 bytes
    const runs = [
      ['annotate', '-d', 'demo', '-o', long('.jpg'), '--map', long('.json')],
      ['screenshot', '-d', 'demo', '-o', long('.png')],
      ['screenshot', '-d', 'demo', '-o', cjk],
      ['snapshot', 'save', long('.snap'), '-d', 'demo'],
    ]
    for (const args of runs) {
      const run = await runArc(args, {cwd: dir})
      expect(run.code, `${args.slice(0, 2).join(' ')}: ${run.stderr}`).to.equal(0)
      // Twice: the second replaces the first, through the same side files.
      expect((await runArc(args, {cwd: dir})).code).to.equal(0)
    }
    const after = await tree(dir)
    expect((await readFile(path.join(dir, long('.jpg')))).subarray(0, 3)).to.deep.equal(JPEG)
    expect((await readFile(path.join(dir, cjk))).subarray(0, 4)).to.deep.equal(PNG)
    expect(JSON.parse(await readFile(path.join(dir, long('.json')), 'utf8'))).to.have.property('image')
    expect(after[path.join(long('.snap'), 'window_dump.xml')]).to.match(/^file:/)
    expect(Object.keys(after).filter((n) => !n.includes('/'))).to.have.members([
      'out.jpg',
      'same.json',
      long('.jpg'),
      long('.json'),
      long('.png'),
      cjk,
      long('.snap'),
    ])
  })

  it("removes .NAME.PID.tmp files left by a killed run (dead pid), keeps a live process's", async () => {
    const dead = path.join(dir, '.shot.jpg.999999999.tmp')
    const live = path.join(dir, `.shot.jpg.${process.pid}.tmp`)
    await writeFile(dead, 'half')
    await writeFile(live, 'busy')
    const run = await runArc(['annotate', '-d', 'demo', '-o', 'shot.jpg'], {cwd: dir})
    expect(run.code, run.stderr).to.equal(0)
    expect(Object.keys(await tree(dir)))
      .to.include(path.basename(live))
      .and.not.include(path.basename(dead))
  })

  describe('format follows the file name', () => {
    it('-o x.png writes PNG bytes, -o x.jpg JPEG bytes, and says where each went', async () => {
      const png = await runArc(['annotate', '-d', 'demo', '-o', 'x.png'], {cwd: dir})
      expect(png.code, png.stderr).to.equal(0)
      expect(png.stdout)
        .to.include(`path: ${path.join(dir, 'x.png')}\n`)
        .and.include(' png,')
      expect((await readFile(path.join(dir, 'x.png'))).subarray(0, 4)).to.deep.equal(PNG)
      const jpg = await runArc(['annotate', '-d', 'demo', '-o', 'x.jpeg'], {cwd: dir})
      expect(jpg.code, jpg.stderr).to.equal(0)
      expect((await readFile(path.join(dir, 'x.jpeg'))).subarray(0, 3)).to.deep.equal(JPEG)
    })

    it('--format jpg is jpeg', async () => {
      const run = await runArc(['annotate', '-d', 'demo', '--format', 'jpg', '-o', 'y'], {cwd: dir})
      expect(run.code, run.stderr).to.equal(0)
      expect((await readFile(path.join(dir, 'y'))).subarray(0, 3)).to.deep.equal(JPEG)
    })

    it('--format png -o x.jpg is a contradiction: exit 2, nothing written', async () => {
      const before = await tree(dir)
      const run = await runArc(['annotate', '-d', 'demo', '--format', 'png', '-o', 'x.jpg'], {cwd: dir})
      expect(run.code, run.stderr).to.equal(exitCodeFor('INVALID_INPUT'))
      expect(run.stderr).to.include('contradicts')
      expect(await tree(dir)).to.deep.equal(before)
    })

    it('screen-state --screenshot x.png writes PNG bytes', async () => {
      const run = await runArc(['screen-state', '-d', 'demo', '--screenshot', 'x.png'], {cwd: dir})
      expect(run.code, run.stderr).to.equal(0)
      expect((await readFile(path.join(dir, 'x.png'))).subarray(0, 4)).to.deep.equal(PNG)
    })
  })
})

describe('hostile: full and read-only disks', function () {
  it('ENOSPC on the map (a full tmpfs): exit 13 "the disk is full", the image target beside it unchanged', async function () {
    const disk = await mountTmpfs({sizeKb: 8})
    if (!disk) this.skip()
    try {
      const dir = await scratch()
      await writeFile(path.join(dir, 'out.jpg'), 'PRECIOUS\n')
      await writeFile(path.join(disk.dir, 'filler'), Buffer.alloc(8 * 1024 - 1))
      const before = [await tree(dir), await tree(disk.dir)]
      const run = await runArc(['annotate', '-d', 'demo', '-o', 'out.jpg', '--map', path.join(disk.dir, 'map.json')], {
        cwd: dir,
      })
      expect(run.code, run.stderr).to.equal(exitCodeFor('OUTPUT_FAILED'))
      expect(run.stderr).to.include('the disk is full')
      expect([await tree(dir), await tree(disk.dir)]).to.deep.equal(before)
    } finally {
      await disk.unmount()
    }
  })

  it('a read-only file system: exit 13 "permission denied", even as root', async function () {
    const disk = await mountTmpfs({sizeKb: 64, readOnly: true})
    if (!disk) this.skip()
    try {
      const run = await runArc(['annotate', '-d', 'demo', '-o', path.join(disk.dir, 'x.jpg')])
      expect(run.code, run.stderr).to.equal(exitCodeFor('OUTPUT_FAILED'))
      expect(run.stderr).to.include('permission denied')
    } finally {
      await disk.unmount()
    }
  })
})

describe('hostile: special files as output targets are written into, never replaced', function () {
  this.timeout(60_000)
  let dir: string
  beforeEach(async () => {
    dir = await scratch()
  })

  const readers: ChildProcess[] = []
  afterEach(() => {
    for (const reader of readers.splice(0)) reader.kill('SIGKILL')
  })

  /**
   * Everything a writer puts into the FIFO at `fifo`, read by a `cat` of its own (killed after the test, so a FIFO
   * nobody ever writes cannot keep the suite waiting), which opens the read side at once.
   */
  function readFifo(fifo: string): Promise<Buffer> {
    const reader = spawn('cat', [fifo], {stdio: ['ignore', 'pipe', 'ignore']})
    readers.push(reader)
    const chunks: Buffer[] = []
    reader.stdout.on('data', (chunk: Buffer) => chunks.push(chunk))
    return new Promise((resolve) => reader.on('close', () => resolve(Buffer.concat(chunks))))
  }

  it('annotate --map FIFO with a reader: the map goes down the pipe, the FIFO stays a FIFO', async () => {
    const fifo = path.join(dir, 'map.fifo')
    execFileSync('mkfifo', [fifo])
    const received = readFifo(fifo)
    const run = await runArc(['annotate', '-d', 'demo', '-o', 'x.jpg', '--map', fifo], {cwd: dir})
    expect(run.code, run.stderr).to.equal(0)
    expect(JSON.parse((await received).toString('utf8'))).to.have.property('image')
    expect((await lstat(fifo)).isFIFO()).to.equal(true)
  })

  it('screenshot -o a link to a FIFO: written through the link; the link and the FIFO stay', async () => {
    const fifo = path.join(dir, 'shot.fifo')
    execFileSync('mkfifo', [fifo])
    await symlink('shot.fifo', path.join(dir, 'link.png'))
    const received = readFifo(fifo)
    const run = await runArc(['screenshot', '-d', 'demo', '-o', 'link.png'], {cwd: dir})
    expect(run.code, run.stderr).to.equal(0)
    expect((await received).subarray(0, 4)).to.deep.equal(PNG)
    expect((await lstat(path.join(dir, 'link.png'))).isSymbolicLink()).to.equal(true)
    expect((await lstat(fifo)).isFIFO()).to.equal(true)
  })

  it('screenshot -o FIFO nobody reads: exit 13 saying so, at once (no hang); the FIFO stays', async () => {
    const fifo = path.join(dir, 'lonely.png')
    execFileSync('mkfifo', [fifo])
    const run = await runArc(['screenshot', '-d', 'demo', '-o', fifo], {cwd: dir})
    expect(run.code, run.stderr).to.equal(exitCodeFor('OUTPUT_FAILED'))
    expect(run.stderr).to.include(
      `--output: cannot write ${fifo}: it is a FIFO no process is reading (start the reader first)`
    )
    expect((await lstat(fifo)).isFIFO()).to.equal(true)
    expect(await readdir(dir)).to.deep.equal(['lonely.png'])
  })

  it('annotate -o a Unix socket: refused (exit 13) before anything is written; the socket stays', async () => {
    const sock = path.join(dir, 'out.jpg')
    const server = net.createServer()
    await new Promise<void>((resolve) => server.listen(sock, resolve))
    try {
      const run = await runArc(['annotate', '-d', 'demo', '-o', sock, '--map', 'm.json'], {cwd: dir})
      expect(run.code, run.stderr).to.equal(exitCodeFor('OUTPUT_FAILED'))
      expect(run.stderr).to.include('it is a socket')
      expect((await lstat(sock)).isSocket()).to.equal(true)
      expect(await readdir(dir)).to.deep.equal(['out.jpg'])
    } finally {
      server.close()
    }
  })

  it('annotate -o and --map a character device (a /dev/null made with mknod): written into, the node stays', async function () {
    if (!isRoot) this.skip() // mknod of a character device needs root (CAP_MKNOD); /dev/null itself is not risked
    const node = path.join(dir, 'null.jpg')
    try {
      execFileSync('mknod', [node, 'c', '1', '3'])
    } catch {
      this.skip() // a container without CAP_MKNOD
    }
    const link = path.join(dir, 'stdout-like.json')
    await symlink(node, link)
    const run = await runArc(['annotate', '-d', 'demo', '-o', node, '--map', link], {cwd: dir})
    expect(run.code, run.stderr).to.equal(0)
    expect((await lstat(node)).isCharacterDevice()).to.equal(true)
    expect((await lstat(link)).isSymbolicLink()).to.equal(true)
    expect((await readdir(dir)).sort()).to.deep.equal(['null.jpg', 'stdout-like.json'])
  })
})
