import {randomBytes} from 'node:crypto'
import {spawnSync} from 'node:child_process'
import {mkdirSync, readdirSync, writeFileSync} from 'node:fs'
import path from 'node:path'

import {expect} from 'chai'
import type {Emulator, ProgramHelper} from '@arc-cli/emulator'

import {clientFor, DEMO_DIR, emulate, exec, shell, shellV2, shq, tempDir, type AdbClient} from './support.js'

/** Strings arc must be able to pass to a device program unchanged. */
const NASTY = [
  "it's",
  "''",
  'say "hi"',
  '$HOME',
  '$(id)',
  '`id`',
  'a;b && c || d | e & f',
  'line1\nline2',
  'tab\there',
  '%s and %%s',
  'back\\slash\\n',
  '!history !!',
  'glob * ? [a-z] ~root {a,b}',
  '# not a comment',
  '<in >out 2>&1',
  '👍 emoji 🚀',
  '中文 日本語 한국어',
  '',
  ' leading and trailing ',
  '\u00a0nbsp',
]

/** Linux with a perl on PATH: where the emulator relays device programs through perl unless told otherwise. */
const perlHost = process.platform === 'linux' && spawnSync('perl', ['-e', '1']).status === 0

describe('emulator program helper', () => {
  it(`relays device programs through ${perlHost ? 'perl on this Linux host' : 'Node.js on a host without a usable perl'} by default`, async () => {
    const emu = await emulate()
    try {
      expect(emu.programHelper).to.equal(perlHost ? 'perl' : 'node')
    } finally {
      await emu.close()
    }
  })

  it('uses Node.js when told to', async () => {
    const emu = await emulate({programHelper: 'node'})
    try {
      expect(emu.programHelper).to.equal('node')
      expect(await shell(clientFor(emu), 'emu-1', 'wm size')).to.equal('Physical size: 1080x2400\n')
    } finally {
      await emu.close()
    }
  })

  it('relays through Node.js when the perl on PATH cannot relay a program, even one that exits as a failed connect does', async () => {
    // A program named perl that exits 255 without a word is what the helper looks like when it cannot reach the
    // emulator at all: only a program relayed end to end shows the helper works.
    const {dir, cleanup} = tempDir()
    writeFileSync(path.join(dir, 'perl'), '#!/bin/sh\nexit 255\n', {mode: 0o755})
    const searchPath = process.env.PATH
    process.env.PATH = `${dir}${path.delimiter}${searchPath ?? ''}`
    try {
      const emu = await emulate()
      try {
        expect(emu.programHelper).to.equal('node')
        expect(await shell(clientFor(emu), 'emu-1', 'wm size')).to.equal('Physical size: 1080x2400\n')
      } finally {
        await emu.close()
      }
    } finally {
      process.env.PATH = searchPath
      cleanup()
    }
  })

  it('relays device programs when the temporary folder is too long a path for a Unix socket, and leaves nothing', async () => {
    // A socket path is at most 107 bytes: a longer one was cut short, outside the emulator's folder, so the socket
    // outlived close() and the next emulator could not listen there.
    const {dir, cleanup} = tempDir()
    const long = path.join(dir, 'x'.repeat(120))
    mkdirSync(long)
    const tmpdir = process.env.TMPDIR
    process.env.TMPDIR = long
    try {
      for (const helper of ['node', undefined] as const) {
        const emu = await emulate({programHelper: helper})
        try {
          expect(await shell(clientFor(emu), 'emu-1', 'wm size')).to.equal('Physical size: 1080x2400\n')
        } finally {
          await emu.close()
        }
      }
      expect([readdirSync(dir), readdirSync(long)]).to.deep.equal([[path.basename(long)], []])
    } finally {
      if (tmpdir === undefined) delete process.env.TMPDIR
      else process.env.TMPDIR = tmpdir
      cleanup()
    }
  })
})

// Both helpers run every test below: they must be indistinguishable to a client.
for (const helper of (perlHost ? ['perl', 'node'] : ['node']) as ProgramHelper[])
  describe(`emulator device shell (${helper} helper)`, () => {
    let emu: Emulator
    let client: AdbClient
    before(async () => {
      emu = await emulate({
        devices: [
          {serial: 'emu-1', snapshot: DEMO_DIR},
          {serial: 'emu-2', snapshot: DEMO_DIR},
        ],
        programHelper: helper,
      })
      client = clientFor(emu)
    })
    after(() => emu.close())

    it('runs shell: (v1) through a real POSIX sh: builtins, pipes, $?', async () => {
      expect(await shell(client, 'emu-1', 'echo ok')).to.equal('ok\n')
      expect(
        await shell(client, 'emu-1', 'x=$(getprop ro.build.version.sdk); echo "sdk=$x"; false; echo "rc=$?"')
      ).to.equal('sdk=34\nrc=1\n')
      expect(await shell(client, 'emu-1', 'getprop | grep -c ro.product.m; getprop | head -n 1')).to.equal(
        '2\n[dev.bootcomplete]: [1]\n'
      )
      expect(
        await shell(client, 'emu-1', 'dumpsys window | grep -E "mCurrentFocus|mFocusedApp" | tail -n 2 | wc -l')
      ).to.equal('2\n')
    })

    it("gives v1 and exec one stream in the order it was written: a program's error stays before a later echo", async () => {
      // Read as two pipes, a later stdout line could overtake an earlier stderr one when both were ready at once.
      const line = 'am start -a android.intent.action.VIEW -d nothing://here; echo "done $?"'
      const outputs = await Promise.all(
        Array.from({length: 24}, (_, i) =>
          i % 2 === 0 ? shell(client, 'emu-1', line) : exec(client, 'emu-1', line).then((b) => b.toString('utf8'))
        )
      )
      for (const output of outputs) {
        expect(output).to.match(
          /^Starting: Intent \{[^\n]*\}\nError: Activity not started, unable to resolve Intent [^\n]*\ndone 1\n$/
        )
      }
      expect(await shell(client, 'emu-1', 'nosuchprog; echo "rc=$?"')).to.equal(
        '/system/bin/sh: nosuchprog: not found\nrc=127\n'
      )
    })

    it('delivers every nasty string as the exact argv, quoted the way arc quotes', async () => {
      const before = emu.commands.length
      const line = NASTY.map((s) => `input text ${shq(s)}`).join('; ')
      await shell(client, 'emu-1', line)
      const got = emu.commands.slice(before)
      expect(got.map((c) => c.argv)).to.deep.equal(NASTY.map((s) => ['input', 'text', s]))
      expect(got.every((c) => c.raw === line && c.service === 'shell' && c.serial === 'emu-1')).to.equal(true)
      // What the virtual keyboard's key map has (printable ASCII, line feed, tab) is typed; the emoji, CJK and the
      // no-break space fail as on a phone (`input text` finds no keys for them) and type nothing.
      const typable = NASTY.filter((s) => /^[\x20-\x7e\n\t]*$/.test(s))
      expect(typable).to.have.length(NASTY.length - 3)
      expect(
        emu
          .device('emu-1')
          .inputEvents.slice(-typable.length)
          .map((e) => (e.type === 'text' ? e.text : ''))
      ).to.deep.equal(typable.map((s) => s.replaceAll('%s', ' ')))
    })

    it('fails `input text` with a character the virtual key map lacks, typing nothing, as a phone does', async () => {
      const before = emu.device('emu-1').inputEvents.length
      const out = await shell(client, 'emu-1', "input text 'caf\u00e9'; echo status=$?")
      expect(out).to.match(
        /^Exception occurred while executing 'text':\njava.lang.NullPointerException: Attempt to get length of null array\n/
      )
      expect(out).to.match(/status=255\n$/)
      expect(emu.device('emu-1').inputEvents.length).to.equal(before)
    })

    it('delivers them as exact argv with adbkit’s own array quoting too', async () => {
      for (const s of NASTY) {
        const before = emu.commands.length
        await shell(client, 'emu-1', ['input', 'text', s])
        expect(emu.commands.slice(before).map((c) => c.argv)).to.deep.equal([['input', 'text', s]])
      }
    })

    it('gives exit codes and separate stderr over shell,v2', async () => {
      const ok = await shellV2(client, 'emu-1', 'echo out; echo err >&2; exit 3')
      expect(ok.stdout.toString()).to.equal('out\n')
      expect(ok.stderr.toString()).to.equal('err\n')
      expect(ok.exitCode).to.equal(3)
      expect((await shellV2(client, 'emu-1', 'wm size')).exitCode).to.equal(0)
    })

    it('answers unknown commands like a device: not found, exit 127', async () => {
      const r = await shellV2(client, 'emu-1', 'frobnicate --now')
      expect(r.stderr.toString()).to.equal('/system/bin/sh: frobnicate: not found\n')
      expect(r.exitCode).to.equal(127)
      expect(await shell(client, 'emu-1', 'frobnicate')).to.equal('/system/bin/sh: frobnicate: not found\n')
    })

    it("relays a program's CLASSPATH byte for byte (app_process reads its class path there), and none when unset", async () => {
      for (const classPath of ['/data/local/tmp/a.dex', "/data/local/tmp/it's a $(dex) 😀.dex", '']) {
        const r = await shellV2(client, 'emu-1', `CLASSPATH=${shq(classPath)} app_process / arc.helper.Main`)
        expect(r.stderr.toString()).to.equal(
          `Exception in thread "main" java.lang.ClassNotFoundException: Didn't find class "arc.helper.Main" on path: DexPathList[[${classPath ? `dex file "${classPath}"` : ''}]]\n`
        )
        expect(r.exitCode).to.equal(1)
      }
      const unset = await shellV2(client, 'emu-1', 'app_process / arc.helper.Main')
      expect(unset.stderr.toString()).to.match(/on path: DexPathList\[\[\]\]/)
    })

    it('feeds v2 stdin packets to the program', async () => {
      const r = await shellV2(client, 'emu-1', 'cat', Buffer.from('piped\u0000bytes'))
      expect(r.stdout.toString()).to.equal('piped\u0000bytes')
      expect(r.exitCode).to.equal(0)
    })

    it('relays large binary stdin and stdout byte for byte', async () => {
      const bytes = randomBytes(300_000)
      const r = await shellV2(client, 'emu-1', 'cat', bytes)
      expect(r.stdout.equals(bytes)).to.equal(true)
      expect(r.exitCode).to.equal(0)
    })

    it('reports the working folder a program was started in', async () => {
      expect(
        await shell(client, 'emu-1', 'mkdir -p sdcard/cwd-test/inner && cd sdcard/cwd-test && ls; ls /sdcard/cwd-test')
      ).to.equal('inner\ninner\n')
    })

    it('rmdir removes an empty folder only, as rmdir(2) does', async () => {
      const r = await shellV2(
        client,
        'emu-1',
        'mkdir -p sdcard/rd/full && touch sdcard/rd/full/f && mkdir sdcard/rd/empty && rmdir sdcard/rd/full; echo "rc=$?"; rmdir sdcard/rd/empty; echo "rc=$?"; ls sdcard/rd'
      )
      expect(r.stdout.toString()).to.equal('rc=1\nrc=0\nfull\n')
      expect(r.stderr.toString()).to.equal('rmdir: sdcard/rd/full: Directory not empty\n')
    })

    it('runs a program in a folder deleted under it', async () => {
      const r = await shellV2(
        client,
        'emu-1',
        'mkdir -p sdcard/gone && cd sdcard/gone && rm -r /sdcard/gone && ls; echo "rc=$?"'
      )
      expect(r.stdout.toString()).to.equal('rc=1\n')
      // The host's sh may say it lost its folder (dash: `sh: 0: getcwd() failed: …`); the program says nothing more.
      expect(r.stderr.toString()).to.match(/^(sh: [^\n]*\n)*ls: \.: No such file or directory\n$/)
    })

    it('runs a program whose stdin, stdout or stderr is closed as if it were /dev/null', async () => {
      // Node.js opens /dev/null on a standard descriptor it finds closed; perl would leave a file of its own there.
      const closed = ['>&-', '<&- >&-', '>&- 2>&-', '<&- >&- 2>&-'].map((r) => `wm size ${r}; echo "rc=$?"`).join('; ')
      const r = await shellV2(
        client,
        'emu-1',
        `${closed}; echo in | cat <&-; echo "rc=$?"; ls /nope 2>&-; echo "rc=$?"`
      )
      expect([r.stdout.toString(), r.stderr.toString(), r.exitCode]).to.deep.equal([
        'rc=0\nrc=0\nrc=0\nrc=0\nrc=0\nrc=1\n',
        '',
        0,
      ])
    })

    it('ends a program whose reader has gone with 141, as SIGPIPE ends it on a device', async () => {
      // screencap writes 10 MB, more than a pipe holds, so it meets the closed pipe however the two are scheduled.
      const r = await shellV2(client, 'emu-1', '{ screencap; echo "rc=$?" >&2; } | true')
      expect([r.stdout.toString(), r.stderr.toString(), r.exitCode]).to.deep.equal(['', 'rc=141\n', 0])
    })

    it('runs exec: raw, recording the service', async () => {
      const before = emu.commands.length
      expect((await exec(client, 'emu-1', "getprop 'ro.product.model'")).toString()).to.equal('arc emulated device\n')
      expect(emu.commands[before]).to.include({service: 'exec', raw: "getprop 'ro.product.model'"})
      expect(emu.commands[before]?.argv).to.deep.equal(['getprop', 'ro.product.model'])
    })

    it('keeps devices apart', async () => {
      await shell(client, 'emu-2', 'input tap 1 2')
      expect(emu.device('emu-2').inputEvents).to.deep.equal([{type: 'tap', x: 1, y: 2}])
      expect(emu.device('emu-1').inputEvents.some((e) => e.type === 'tap')).to.equal(false)
      expect(emu.commands.at(-1)?.serial).to.equal('emu-2')
    })

    it('leaves no shell running once commands finish', async () => {
      await Promise.all([1, 2, 3].map(() => shell(client, 'emu-1', 'wm density')))
      expect(emu.runningShells()).to.deep.equal([])
    })
  })
