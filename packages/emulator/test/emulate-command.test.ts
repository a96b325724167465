import {execFileSync, spawn} from 'node:child_process'
import {lstat, mkdtemp, readdir, readFile, rm} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

import {expect} from 'chai'

import {ROOT} from '@arc-cli/test-support/paths'
import {Adb, readAll} from './support.js'

const children = new Set<ReturnType<typeof spawn>>()

/** Runs `bin/dev.js emulate …`; `listening` resolves with the port once it prints its listening line. */
function startCli(args: string[]) {
  const child = spawn(path.join(ROOT, 'bin', 'dev.js'), ['emulate', ...args], {
    cwd: ROOT,
    env: {...process.env, NODE_OPTIONS: ''},
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.add(child)
  child.on('close', () => children.delete(child))
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
  const listening = new Promise<number>((resolve, reject) => {
    child.stdout.on('data', () => {
      const m = /listening on 127\.0\.0\.1:(\d+).*\n.*screen-state/.exec(stdout)
      if (m) resolve(Number(m[1]))
    })
    void exited.then(() => reject(new Error(`exited early: ${stderr}`)))
  })
  return {child, listening, exited, output: () => ({stdout, stderr})}
}

describe('arc emulate (command)', () => {
  // A failed assertion must not leave a server running (it would also keep mocha alive).
  afterEach(() => {
    for (const child of children) child.kill('SIGKILL')
  })

  it('serves the demo device until SIGTERM, then stops cleanly', async () => {
    const cli = startCli(['--port', '0'])
    const port = await cli.listening
    expect(cli.output().stdout).to.match(
      /\(devices: arc-virtual\)\n.*ADB_SERVER_SOCKET=tcp:127\.0\.0\.1:\d+ arc screen-state/
    )
    const client = Adb.createClient({host: '127.0.0.1', port, bin: '/bin/false'})
    expect((await readAll(await client.getDevice('arc-virtual').shell('echo ok'))).toString()).to.equal('ok\n')
    cli.child.kill('SIGTERM')
    expect(await cli.exited).to.equal(0)
    expect(cli.output().stdout).to.include('arc emulate: stopped')
  })

  it('--scenario demo runs the demo app on arc-virtual: ADD adds the typed row', async () => {
    const cli = startCli(['--port', '0', '--scenario', 'demo'])
    const port = await cli.listening
    expect(cli.output().stdout).to.include('(devices: arc-virtual)')
    const device = Adb.createClient({host: '127.0.0.1', port, bin: '/bin/false'}).getDevice('arc-virtual')
    // The field has the focus as the app starts: type, then tap ADD (801,231-1038,357).
    await readAll(await device.shell('input text Tea && input tap 900 300 && uiautomator dump /dev/tty'))
    const dump = (await readAll(await device.shell('uiautomator dump /dev/tty'))).toString()
    expect(dump).to.match(/text="Tea" resource-id="dev\.arc\.demo\.groceries:id\/item_name"/)
    cli.child.kill('SIGTERM')
    expect(await cli.exited).to.equal(0)
  })

  it('--port-file: the address as JSON once listening, for a script that asked for --port 0; gone after stop', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'arc-port-file-'))
    try {
      const file = path.join(dir, 'emulate.json')
      const cli = startCli(['--port', '0', '--serial', 'one=demo', '--serial', 'two=demo', '--port-file', file])
      const port = await cli.listening
      expect(JSON.parse(await readFile(file, 'utf8'))).to.deep.equal({
        host: '127.0.0.1',
        port,
        adbServerSocket: `tcp:127.0.0.1:${port}`,
        devices: ['one', 'two'],
      })
      expect(cli.output().stdout).to.include(`arc emulate: wrote ${file}`)
      expect((await readdir(dir)).sort()).to.deep.equal(['emulate.json'])
      cli.child.kill('SIGTERM')
      expect(await cli.exited).to.equal(0)
      expect(await readdir(dir)).to.deep.equal([])
    } finally {
      await rm(dir, {recursive: true, force: true})
    }
  })

  it('--log: says which file it writes, before the listening line, and writes a line per command there', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'arc-emulate-log-'))
    try {
      const file = path.join(dir, 'commands.jsonl')
      const cli = startCli(['--port', '0', '--log', file])
      const port = await cli.listening
      expect(cli.output().stdout).to.include(`arc emulate: logging every command to ${file}\narc emulate: listening on`)
      const client = Adb.createClient({host: '127.0.0.1', port, bin: '/bin/false'})
      await readAll(await client.getDevice('arc-virtual').shell('echo ok'))
      cli.child.kill('SIGTERM')
      expect(await cli.exited).to.equal(0)
      expect(await readFile(file, 'utf8')).to.include('echo ok')
    } finally {
      await rm(dir, {recursive: true, force: true})
    }
  })

  // A script may read the address from a pipe (`--port-file /dev/stdout`, a FIFO) rather than a file it then polls.
  // The file was a temporary file renamed over the target and removed on stop: a FIFO was replaced by a regular file
  // its reader never saw, and removed; as root, a device node (or the /dev/stdout link) went the same way.
  it('--port-file a FIFO: the JSON goes down the pipe, and the FIFO stays a FIFO after stop', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'arc-port-fifo-'))
    const fifo = path.join(dir, 'port.fifo')
    execFileSync('mkfifo', [fifo])
    const reader = spawn('cat', [fifo], {stdio: ['ignore', 'pipe', 'ignore']})
    try {
      const chunks: Buffer[] = []
      reader.stdout.on('data', (chunk: Buffer) => chunks.push(chunk))
      const read = new Promise<string>((resolve) => reader.on('close', () => resolve(Buffer.concat(chunks).toString())))
      const cli = startCli(['--port', '0', '--port-file', fifo])
      const port = await cli.listening
      // Checked first: had the FIFO been replaced, its reader would wait for ever.
      expect((await lstat(fifo)).isFIFO()).to.equal(true)
      expect(JSON.parse(await read)).to.include({port, adbServerSocket: `tcp:127.0.0.1:${port}`})
      cli.child.kill('SIGTERM')
      expect(await cli.exited).to.equal(0)
      expect((await lstat(fifo)).isFIFO()).to.equal(true)
      expect(await readdir(dir)).to.deep.equal(['port.fifo'])
    } finally {
      reader.kill('SIGKILL')
      await rm(dir, {recursive: true, force: true})
    }
  })

  it('--port-file into a missing folder: OUTPUT_FAILED (13), the server closed, nothing left behind', async () => {
    const cli = startCli(['--port', '0', '--port-file', '/no/such/folder/emulate.json'])
    cli.listening.catch(() => {})
    expect(await cli.exited).to.equal(13)
    expect(cli.output().stderr).to.include('--port-file: cannot write /no/such/folder/emulate.json')
  })

  for (const [args, pattern, code] of [
    [['--port', '70000'], /--port 70000 is out of range: use 0-65535/, 2],
    [['--port', '0', '--serial', 'nameonly'], /--serial "nameonly" must be NAME=SNAPSHOT/, 2],
    [['--port', '0', '--serial', 'a=/no/such/snapshot'], /--serial a=\/no\/such\/snapshot: no snapshot at/, 4],
    [['--port', '0', '--scenario', '/no/such/scenario.json'], /cannot read scenario \/no\/such\/scenario\.json/, 3],
  ] as const) {
    it(`rejects ${args.slice(2).join(' ') || args.join(' ')} with a clear error`, async () => {
      const cli = startCli([...args])
      cli.listening.catch(() => {})
      const exit = await cli.exited
      expect(cli.output().stderr).to.match(pattern)
      expect(exit).to.equal(code)
    })
  }
})
