import {expect} from 'chai'
import {mkdtemp, readdir, readFile, writeFile, chmod} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'

import {openSnapshot, exitCodeFor, type ToolContext} from '@arc-cli/core'

import {displaysXml} from '@arc-cli/test-support/dump'
import {runArc} from '@arc-cli/test-support/run-arc'
import {toolContext} from '@arc-cli/test-support/tool-context'
import {annotate} from '../src/tools/annotate.js'
import {decode, dumpXml, makeSnapshot, solidPng} from './support.js'

const xml = dumpXml([
  {
    bounds: [0, 0, 1080, 1920],
    children: [
      {cls: 'android.widget.Button', text: 'OK', bounds: [100, 200, 500, 400], attrs: {clickable: 'true'}},
      {cls: 'android.widget.TextView', text: 'Hello', bounds: [100, 600, 900, 760]},
    ],
  },
])

/** Files in a folder, temp files included: after a failure there must be none. */
const filesIn = async (dir: string) => (await readdir(dir)).sort()

describe('arc annotate (command)', function () {
  let snapshot: string
  let out: string
  before(async () => {
    snapshot = await makeSnapshot({xml, png: await solidPng(1080, 1920)})
  })
  beforeEach(async () => {
    out = await mkdtemp(path.join(tmpdir(), 'arc-annotate-out-'))
  })

  it('writes the image and the map and prints path, size, bytes, scale and marks', async () => {
    const run = await runArc(['annotate', '--device', snapshot, '-o', 'shot.jpg', '--map', 'map.json'], {cwd: out})
    expect(run.code, run.stderr).to.equal(0)
    expect(await filesIn(out)).to.deep.equal(['map.json', 'shot.jpg'])
    const bytes = await readFile(path.join(out, 'shot.jpg'))
    expect(run.stdout)
      .to.include(`path: ${path.join(out, 'shot.jpg')}\n`)
      .and.include(`map: ${path.join(out, 'map.json')}`)
      .and.include('image: 394x700 jpeg')
      .and.include(`${bytes.length} bytes`)
    expect(run.stdout)
      .to.match(/scale x=0\.364815 y=0\.364583/)
      .and.include('marks: 2')
    const map = JSON.parse(await readFile(path.join(out, 'map.json'), 'utf8'))
    expect(map.marks.map((m: {text: string}) => m.text)).to.deep.equal(['OK', 'Hello'])
    expect(map.marks[0]).to.have.keys([
      'label',
      'number',
      'id',
      'bounds',
      'box',
      'label_rect',
      'class',
      'text',
      'desc',
      'role',
    ])
    expect((await decode(bytes)).width).to.equal(394)
  })

  it("marks the main display's elements only: the screenshot shows no other display", async () => {
    const twoDisplays = await makeSnapshot({
      xml: displaysXml({
        0: [
          {
            type: 'TYPE_APPLICATION',
            title: 'Main',
            layer: 1,
            focused: true,
            tree: {
              bounds: [0, 0, 1080, 1920],
              children: [
                {cls: 'android.widget.Button', text: 'OK', bounds: [100, 200, 500, 400], attrs: {clickable: 'true'}},
              ],
            },
          },
        ],
        2: [
          {
            type: 'TYPE_APPLICATION',
            title: 'Cover',
            layer: 0,
            tree: {
              bounds: [0, 0, 720, 720],
              children: [
                {cls: 'android.widget.Button', text: 'Pause', bounds: [10, 10, 300, 300], attrs: {clickable: 'true'}},
              ],
            },
          },
        ],
      }),
      png: await solidPng(1080, 1920),
    })
    const run = await runArc(['annotate', '--device', twoDisplays, '-o', 'shot.jpg', '--map', 'map.json'], {cwd: out})
    expect(run.code, run.stderr).to.equal(0)
    const map = JSON.parse(await readFile(path.join(out, 'map.json'), 'utf8'))
    expect(map.marks.map((m: {text: string}) => m.text)).to.deep.equal(['OK'])
  })

  it('names the file <device>_<date>_<time>.jpg without -o, and gives JSON with --json', async () => {
    const run = await runArc(['annotate', '--device', snapshot, '--json'], {cwd: out})
    expect(run.code, run.stderr).to.equal(0)
    const files = await filesIn(out)
    expect(files).to.have.length(1)
    expect(files[0]).to.match(
      new RegExp(`^${path.basename(snapshot)}_\\d{4}-\\d{2}-\\d{2}_\\d{2}-\\d{2}-\\d{2}\\.jpg$`)
    )
    const json = JSON.parse(run.stdout)
    expect(json.path).to.equal(path.join(out, files[0]!))
    expect(json.image).to.include({width: 394, height: 700, format: 'jpeg'})
    expect(json.marks).to.have.length(2)
  })

  it('writes the image alone to stdout with -o -, and the summary to stderr', async () => {
    const {spawnSync} = await import('node:child_process')
    const {ROOT} = await import('@arc-cli/test-support/paths')
    const child = spawnSync(
      process.execPath,
      [
        '--conditions=arc-source',
        path.join(ROOT, 'bin/dev.js'),
        'annotate',
        '--device',
        snapshot,
        '--format',
        'png',
        '-o',
        '-',
      ],
      {
        cwd: out,
        env: {...process.env, NODE_OPTIONS: '', NO_COLOR: '1'},
      }
    )
    expect(child.status, String(child.stderr)).to.equal(0)
    const png = child.stdout
    expect(png.subarray(0, 8).toString('hex')).to.equal('89504e470d0a1a0a')
    expect(png.subarray(-8, -4).toString('latin1')).to.equal('IEND')
    expect((await decode(png)).height).to.equal(700)
    expect(String(child.stderr)).to.include('path: (stdout)')
    expect(await filesIn(out)).to.deep.equal([])
  })

  it('writes the same annotated image from screen-state --screenshot, with the TSV on stdout', async () => {
    const a = await runArc(['annotate', '--device', snapshot, '-o', 'a.jpg'], {cwd: out})
    const b = await runArc(['screen-state', '--device', snapshot, '--screenshot', 'b.jpg'], {cwd: out})
    expect(a.code, a.stderr).to.equal(0)
    expect(b.code, b.stderr).to.equal(0)
    expect(b.stdout).to.include('id\tclass\ttext').and.include('\tOK\t')
    const [ja, jb] = [await readFile(path.join(out, 'a.jpg')), await readFile(path.join(out, 'b.jpg'))]
    expect(ja.equals(jb)).to.equal(true)
  })

  it('screen-state --screenshot refuses a name of a format arc does not write, before reading the device', async () => {
    // A read is remembered in the id cache: nothing there means the device was not read.
    const cache = await mkdtemp(path.join(tmpdir(), 'arc-annotate-cache-'))
    const run = await runArc(['screen-state', '--device', snapshot, '--screenshot', 'shot.gif'], {
      cwd: out,
      env: {ARC_CACHE_DIR: cache},
    })
    expect(run.code).to.equal(exitCodeFor('INVALID_INPUT'))
    expect(run.stderr).to.include('--screenshot shot.gif: arc writes PNG and JPEG only')
    expect(run.stdout).to.equal('')
    expect(await filesIn(out)).to.deep.equal([])
    expect(await readdir(cache, {recursive: true})).to.deep.equal([])
    // The same read with a good name is remembered (so the check above can fail).
    const good = await runArc(['screen-state', '--device', snapshot, '--screenshot', 'shot.png'], {
      cwd: out,
      env: {ARC_CACHE_DIR: cache},
    })
    expect(good.code, good.stderr).to.equal(0)
    expect(await readdir(cache, {recursive: true})).to.not.deep.equal([])
  })

  // `-` is stdout to annotate and screenshot (`-o -`); here stdout holds the screen, and `--screenshot -` quietly
  // wrote a file named "-" into the current folder.
  it('screen-state --screenshot - is refused (stdout holds the screen), before reading the device', async () => {
    const run = await runArc(['screen-state', '--device', snapshot, '--screenshot', '-'], {cwd: out})
    expect(run.code, run.stderr).to.equal(exitCodeFor('INVALID_INPUT'))
    expect(run.stderr).to.include('--screenshot').and.include('stdout holds the screen')
    expect(run.stdout).to.equal('')
    expect(await filesIn(out)).to.deep.equal([])
  })

  it('screen-state says on stderr where it wrote the screenshot, and --json names the file', async () => {
    const named = await runArc(['screen-state', '--device', snapshot, '--screenshot', 'b.jpg'], {cwd: out})
    expect(named.code, named.stderr).to.equal(0)
    const bytes = (await readFile(path.join(out, 'b.jpg'))).length
    expect(named.stderr).to.equal(
      `Annotated screenshot saved: ${path.join(out, 'b.jpg')} (394x700 jpeg, ${bytes} bytes)\n`
    )
    expect(named.stdout).not.to.include('b.jpg')

    const unnamed = await runArc(['screen-state', '--device', snapshot, '--include-screenshot', '--json'], {cwd: out})
    expect(unnamed.code, unnamed.stderr).to.equal(0)
    const written = (await filesIn(out)).filter((f) => f !== 'b.jpg')
    expect(written).to.have.length(1)
    expect(written[0]).to.match(
      new RegExp(`^${path.basename(snapshot)}_\\d{4}-\\d{2}-\\d{2}_\\d{2}-\\d{2}-\\d{2}\\.jpg$`)
    )
    expect(unnamed.stderr).to.match(
      new RegExp(
        `^Annotated screenshot saved: ${path.join(out, written[0]!).replaceAll('.', '\\.')} \\(394x700 jpeg, \\d+ bytes\\)\\n$`
      )
    )
    expect(JSON.parse(unnamed.stdout).screenshot).to.equal(path.join(out, written[0]!))
  })

  describe('bad inputs: a clear error, the right exit code, and no file left behind', () => {
    const cases: [string, string[], string, RegExp][] = [
      ['quality 0', ['--quality', '0'], 'INVALID_INPUT', /--quality must be 1 to 100/],
      ['quality 101', ['--quality', '101'], 'INVALID_INPUT', /--quality must be 1 to 100/],
      ['max-size 10', ['--max-size', '10'], 'INVALID_INPUT', /--max-size must be 64 to 8192 pixels/],
      [
        'unknown preset',
        ['--style', 'neon'],
        'INVALID_INPUT',
        /--style: unknown preset "neon"; allowed: by-type, default, som/,
      ],
      ['bad --format', ['--format', 'gif'], 'INVALID_INPUT', /--format/],
      // JPEG bytes in a .gif would be a file every viewer misreads.
      [
        'an extension of a format arc does not write',
        ['-o', 'x.gif'],
        'INVALID_INPUT',
        /--output x\.gif: arc writes PNG and JPEG only, not gif; name the file \.png, \.jpg or \.jpeg/,
      ],
      ['the same with --format', ['-o', 'x.webp', '--format', 'png'], 'INVALID_INPUT', /not webp/],
      [
        'unwritable output path',
        ['-o', 'missing/dir/x.jpg'],
        'OUTPUT_FAILED',
        /--output: cannot write .*x\.jpg: the folder does not exist/,
      ],
      ['unwritable map path', ['-o', 'ok.jpg', '--map', 'missing/m.json'], 'OUTPUT_FAILED', /--map: cannot write/],
    ]
    for (const [what, args, code, message] of cases) {
      it(what, async () => {
        const run = await runArc(['annotate', '--device', snapshot, ...args], {cwd: out})
        expect(run.code, run.stderr).to.equal(exitCodeFor(code as never))
        expect(run.stderr).to.include(`[${code}]`).and.match(message)
        expect(await filesIn(out)).to.deep.equal([])
      })
    }

    it('--json together with -o - (both would write to stdout)', async () => {
      const run = await runArc(['annotate', '--device', snapshot, '-o', '-', '--json'], {cwd: out})
      expect(run.code).to.equal(exitCodeFor('INVALID_INPUT'))
      expect(run.stdout).to.include('INVALID_INPUT').and.include('--json cannot be used with -o -')
      expect(await filesIn(out)).to.deep.equal([])
    })

    it('a snapshot without screen.png', async () => {
      const bare = await makeSnapshot({xml})
      const run = await runArc(['annotate', '--device', bare, '-o', 'x.jpg'], {cwd: out})
      expect(run.code).to.equal(exitCodeFor('UNSUPPORTED'))
      expect(run.stderr).to.include('[UNSUPPORTED]').and.include('screen.png')
      expect(await filesIn(out)).to.deep.equal([])
    })

    it('a corrupt PNG (valid header, truncated data)', async () => {
      const good = await solidPng(1080, 1920)
      const broken = await makeSnapshot({xml, png: good.subarray(0, 60)})
      const run = await runArc(['annotate', '--device', broken, '-o', 'x.jpg'], {cwd: out})
      expect(run.code).to.equal(exitCodeFor('INVALID_INPUT'))
      expect(run.stderr).to.include('[INVALID_INPUT]').and.include('screen.png is not a whole PNG: truncated')
      expect(await filesIn(out)).to.deep.equal([])
    })

    it('an unwritable folder (permission denied), unless running as root', async function () {
      if (process.getuid?.() === 0) {
        // root writes anywhere: check the same path through a file standing where a folder should be.
        await writeFile(path.join(out, 'file'), '')
        const run = await runArc(['annotate', '--device', snapshot, '-o', 'file/x.jpg'], {cwd: out})
        expect(run.code).to.equal(exitCodeFor('OUTPUT_FAILED'))
        expect(run.stderr).to.include('a part of the path is not a folder')
        expect(await filesIn(out)).to.deep.equal(['file'])
        return
      }
      const locked = path.join(out, 'locked')
      const {mkdir} = await import('node:fs/promises')
      await mkdir(locked)
      await chmod(locked, 0o500)
      const run = await runArc(['annotate', '--device', snapshot, '-o', 'locked/x.jpg'], {cwd: out})
      expect(run.code).to.equal(exitCodeFor('OUTPUT_FAILED'))
      expect(run.stderr).to.include('permission denied')
      expect(await readdir(locked)).to.deep.equal([])
    })
  })

  describe('the handler result (what MCP returns; the CLI then calls save)', () => {
    const mcpContext = async (dir: string, warnings: string[]): Promise<ToolContext> =>
      toolContext(await openSnapshot(dir), {cwd: out, warn: (m) => warnings.push(m)})

    it('returns the JPEG inline with the map, and writes no file', async () => {
      const warnings: string[] = []
      const result = await annotate.handler(await mcpContext(snapshot, warnings), {})
      expect(result.image?.mimeType).to.equal('image/jpeg')
      expect((await decode(result.image!.data)).height).to.equal(700)
      expect(result.text).to.include('label\tid\tbounds').and.include('\t100,200,500,400')
      expect((result.data as {marks: unknown[]}).marks).to.have.length(2)
      expect(await filesIn(out)).to.deep.equal([])
      expect(warnings).to.deep.equal([])
    })

    it('warns when the screenshot is entirely black (secure window), and still returns the marks', async () => {
      const black = await makeSnapshot({xml, png: await solidPng(1080, 1920, '#000000')})
      const warnings: string[] = []
      const result = await annotate.handler(await mcpContext(black, warnings), {})
      expect(warnings).to.have.length(1)
      expect(warnings[0]).to.include('entirely black').and.include('still valid')
      expect((result.data as {marks: unknown[]}).marks).to.have.length(2)
    })
  })
})
