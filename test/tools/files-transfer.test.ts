import {execFileSync, spawn} from 'node:child_process'
import {chmod, lstat, mkdir, readFile, readdir, writeFile} from 'node:fs/promises'
import path from 'node:path'

import {exitCodeFor} from '@arc-cli/core'
import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {runArc} from '@arc-cli/test-support/run-arc'
import {expect} from 'chai'

/** Every byte value, several times over, and more than one 64 KiB sync chunk. */
const BINARY = Buffer.concat(
  Array.from({length: 600}, (_, i) => Buffer.from(Array.from({length: 256}, (_, b) => (b + i) % 256)))
)

describe('files pull / files push: any file between this machine and a storage location', function () {
  this.timeout(60_000)
  const h = useEmulator()
  const arc = (args: string[], cwd?: string) =>
    runArc([...args, '--device', 'emu-1'], {env: h.env, ...(cwd ? {cwd} : {})})

  it('push then pull gives back every byte (binary, over 64 KiB), to a file and to stdout', async () => {
    const work = path.join(h.dir, 'roundtrip')
    await mkdir(work)
    await writeFile(path.join(work, 'blob.bin'), BINARY)
    const pushed = await arc(['files', 'push', 'blob.bin', 'tmp', 'arc-transfer/blob.bin'], work)
    expect(pushed.code, pushed.stderr).to.equal(0)
    expect(pushed.stdout).to.equal(`Pushed ${path.join(work, 'blob.bin')} (150 KB) to arc-transfer/blob.bin\n`)
    const pulled = await arc(['files', 'pull', 'tmp', 'arc-transfer/blob.bin', '-o', 'back.bin'], work)
    expect(pulled.code, pulled.stderr).to.equal(0)
    expect(pulled.stdout).to.equal(`Pulled arc-transfer/blob.bin (150 KB) to ${path.join(work, 'back.bin')}\n`)
    expect((await readFile(path.join(work, 'back.bin'))).equals(BINARY)).to.equal(true)
    // Without -o: the device file's name, here.
    const named = await arc(['files', 'pull', 'tmp', 'arc-transfer/blob.bin', '--json'], work)
    expect(named.code, named.stderr).to.equal(0)
    expect(JSON.parse(named.stdout)).to.deep.equal({
      path: 'arc-transfer/blob.bin',
      bytes: BINARY.length,
      output: path.join(work, 'blob.bin'),
    })
    expect((await readdir(work)).sort()).to.deep.equal(['back.bin', 'blob.bin'])
  })

  // Names of up to 255 bytes are what the device's and this machine's file systems take; the temporary sibling of a
  // write (`.NAME.arc-XXXXXXXX.tmp`, `.NAME.PID.RANDOM.tmp`) adds some 20 bytes, and every name from about 236 bytes on
  // failed with ENAMETOOLONG: such a file could be neither pushed, written, replaced nor pulled under its own name.
  it('names of up to 255 bytes: push, replace, write and pull under the very name, no temporary file left', async () => {
    const work = path.join(h.dir, 'long-names')
    await mkdir(work)
    await writeFile(path.join(work, 'blob.bin'), BINARY)
    const long = `${'l'.repeat(251)}.bin`
    const cjk = `${'文件'.repeat(41)}.txt` // 250 bytes
    for (let i = 0; i < 2; i++) {
      const pushed = await arc(['files', 'push', 'blob.bin', 'tmp', `arc-long/${long}`], work)
      expect(pushed.code, pushed.stderr).to.equal(0)
      const written = await arc(['files', 'write', 'tmp', `arc-long/${cjk}`, '--content', `round ${i}`], work)
      expect(written.code, written.stderr).to.equal(0)
    }
    const folder = h.emu.device('emu-1').files.hostPath('/data/local/tmp/arc-long')
    expect((await readdir(folder)).sort()).to.deep.equal([cjk, long].sort())
    expect((await readFile(path.join(folder, long))).equals(BINARY)).to.equal(true)
    expect(await readFile(path.join(folder, cjk), 'utf8')).to.equal('round 1')
    for (const name of [long, cjk]) {
      const pulled = await arc(['files', 'pull', 'tmp', `arc-long/${name}`], work)
      expect(pulled.code, pulled.stderr).to.equal(0)
    }
    expect((await readFile(path.join(work, long))).equals(BINARY)).to.equal(true)
    expect(await readFile(path.join(work, cjk), 'utf8')).to.equal('round 1')
    expect((await readdir(work)).sort()).to.deep.equal(['blob.bin', cjk, long].sort())
  })

  // A pull (up to 1 GiB) or a recording killed while its temporary file was being written left that hidden file for
  // good: nothing ever removed it. Now, as annotate's side files are, it goes with the next write of the same target.
  it("removes the .NAME.PID.tmp a killed pull left (dead pid), keeps a live process's", async () => {
    const work = path.join(h.dir, 'stale')
    await mkdir(work)
    await writeFile(path.join(work, 'src.bin'), BINARY.subarray(0, 100))
    expect((await arc(['files', 'push', 'src.bin', 'tmp', 'arc-transfer/stale.bin'], work)).code).to.equal(0)
    const dead = path.join(work, '.back.bin.999999999.tmp')
    const live = path.join(work, `.back.bin.${process.pid}.tmp`)
    await writeFile(dead, BINARY)
    await writeFile(live, 'busy')
    const pulled = await arc(['files', 'pull', 'tmp', 'arc-transfer/stale.bin', '-o', 'back.bin'], work)
    expect(pulled.code, pulled.stderr).to.equal(0)
    expect((await readdir(work)).sort()).to.deep.equal([path.basename(live), 'back.bin', 'src.bin'].sort())
  })

  // The pulled bytes go to a temporary file renamed over the output: made with the default mode, it replaced a private
  // 0600 file with one anyone could read, and an executable with one no one could run.
  it('a pull over an existing file keeps its permission bits', async () => {
    const work = path.join(h.dir, 'modes')
    await mkdir(work)
    await writeFile(path.join(work, 'blob.bin'), BINARY)
    expect((await arc(['files', 'push', 'blob.bin', 'tmp', 'arc-modes/blob.bin'], work)).code).to.equal(0)
    for (const mode of [0o600, 0o755]) {
      await writeFile(path.join(work, 'kept.bin'), 'old')
      await chmod(path.join(work, 'kept.bin'), mode)
      const pulled = await arc(['files', 'pull', 'tmp', 'arc-modes/blob.bin', '-o', 'kept.bin'], work)
      expect(pulled.code, pulled.stderr).to.equal(0)
      expect((await readFile(path.join(work, 'kept.bin'))).equals(BINARY)).to.equal(true)
      expect(((await lstat(path.join(work, 'kept.bin'))).mode & 0o7777).toString(8)).to.equal(mode.toString(8))
    }
  })

  it('-o - writes the bytes alone to stdout', async () => {
    const work = path.join(h.dir, 'stdout')
    await mkdir(work)
    await writeFile(path.join(work, 'small.bin'), BINARY.subarray(0, 1000))
    expect((await arc(['files', 'push', 'small.bin', 'tmp', 'arc-transfer/small.bin'], work)).code).to.equal(0)
    const {arcNodeArgs} = await import('@arc-cli/test-support/built-cli')
    const bytes = await new Promise<Buffer>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        arcNodeArgs(['files', 'pull', 'tmp', 'arc-transfer/small.bin', '-o', '-', '--device', 'emu-1']),
        {
          env: {...process.env, ...h.env, NODE_OPTIONS: ''},
        }
      )
      const chunks: Buffer[] = []
      child.stdout.on('data', (d: Buffer) => chunks.push(d))
      child.on('error', reject)
      child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(chunks)) : reject(new Error(`exit ${code}`))))
    })
    expect(bytes.equals(BINARY.subarray(0, 1000))).to.equal(true)
  })

  it('refuses before moving a byte: a missing source, a folder as source, an output folder that is not there, a location without write', async () => {
    const work = path.join(h.dir, 'refusals')
    await mkdir(path.join(work, 'adir'), {recursive: true})
    await writeFile(path.join(work, 'x.bin'), 'x')
    const config = path.join(h.dir, 'readonly.arcrc.json')
    await writeFile(
      config,
      JSON.stringify({
        files: {
          locations: [
            {id: 'tmp', path: '/data/local/tmp', allowWrite: true},
            {id: 'readonly', path: '/data/local/tmp'},
          ],
        },
      })
    )
    const cases: Array<[string[], string, RegExp]> = [
      [['files', 'push', 'nope.bin', 'tmp', 'a.bin'], 'NOT_FOUND', /source: no file at .*nope\.bin/],
      [['files', 'push', 'adir', 'tmp', 'a.bin'], 'INVALID_INPUT', /source: .*adir is not a regular file/],
      [
        ['files', 'push', 'x.bin', 'readonly', 'x.bin'],
        'PERMISSION_DENIED',
        /write not allowed in storage location readonly/,
      ],
      [['files', 'pull', 'tmp', 'missing.bin'], 'NOT_FOUND', /file not found: missing\.bin/],
      [
        ['files', 'pull', 'tmp', 'arc-transfer/blob.bin', '-o', 'no/such/folder/b.bin'],
        'OUTPUT_FAILED',
        /--output: cannot write .*b\.bin: the folder does not exist/,
      ],
      [['files', 'pull', 'tmp', 'arc-transfer/blob.bin', '-o', 'adir'], 'OUTPUT_FAILED', /it is a folder/],
      // A folder named with its slash (`adb push x.bin /data/local/tmp/new-folder/` fails on a missing folder): arc
      // dropped the slash and made a file named new-folder holding x.bin's bytes.
      [['files', 'push', 'x.bin', 'tmp', 'new-folder/'], 'INVALID_INPUT', /path "new-folder\/" ends with "\/"/],
      [['files', 'pull', 'tmp', 'arc-transfer/blob.bin/'], 'INVALID_INPUT', /path "arc-transfer\/blob\.bin\/" ends/],
    ]
    for (const [args, code, message] of cases) {
      const before = h.emu.commands.length
      const run = await runArc([...args, '--device', 'emu-1'], {env: {...h.env, ARC_CONFIG: config}, cwd: work})
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).to.equal(exitCodeFor(code as never))
      expect(run.stderr).to.match(message)
      // Nothing written on the device: no mv, no rm, no mkdir.
      expect(h.argvSince(before).filter((a) => ['mv', 'mkdir', 'rm'].includes(a[0] ?? ''))).to.deep.equal([])
    }
    expect((await readdir(work)).sort()).to.deep.equal(['adir', 'x.bin'])
    expect(
      await lstat(path.join(h.emu.device('emu-1').files.root, 'data/local/tmp/new-folder')).catch(() => 'none')
    ).to.equal('none')
  })

  it('-o a FIFO with a reader: the bytes go down the pipe and the FIFO stays a FIFO (never replaced by a file)', async () => {
    const work = path.join(h.dir, 'fifo')
    await mkdir(work)
    await writeFile(path.join(work, 'small.bin'), BINARY.subarray(0, 5000))
    expect((await arc(['files', 'push', 'small.bin', 'tmp', 'arc-transfer/fifo.bin'], work)).code).to.equal(0)
    const fifo = path.join(work, 'out.fifo')
    execFileSync('mkfifo', [fifo])
    const reader = spawn('cat', [fifo], {stdio: ['ignore', 'pipe', 'ignore']})
    const chunks: Buffer[] = []
    reader.stdout.on('data', (d: Buffer) => chunks.push(d))
    const received = new Promise<Buffer>((resolve) => reader.on('close', () => resolve(Buffer.concat(chunks))))
    try {
      const run = await arc(['files', 'pull', 'tmp', 'arc-transfer/fifo.bin', '-o', fifo], work)
      expect(run.code, run.stderr).to.equal(0)
      expect((await received).equals(BINARY.subarray(0, 5000))).to.equal(true)
      expect((await lstat(fifo)).isFIFO()).to.equal(true)
    } finally {
      reader.kill('SIGKILL')
    }
  })

  it('is not served over MCP: an agent would pick paths on your disk', async () => {
    const {tools} = await import('../../src/tools/index.js')
    for (const name of ['pull_file', 'push_file'])
      expect(tools.find((t) => t.name === name)?.cli.only).to.be.a('string')
  })
})
