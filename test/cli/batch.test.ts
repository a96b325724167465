import {mkdtemp, readFile, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

import {expect} from 'chai'

import {parseBatch, splitWords} from '../../src/batch-lines.js'
import {runArc} from '@arc-cli/test-support/run-arc'
import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {countedConfig} from '@arc-cli/test-support/counted-config'

describe('arc batch: many commands, one process', () => {
  const h = useEmulator()

  const taps = () => h.emu.device('emu-1').inputEvents.filter((e) => e.type === 'tap').length

  it('runs every line of a file in order, each printing what it prints alone', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'arc-batch-'))
    const file = path.join(dir, 'steps.txt')
    await writeFile(
      file,
      '# three taps and a look\ntap 10 20\n\ntap 30 40  # inline comment\npress back\nscreen-state --detail compact\n'
    )
    const before = taps()
    const run = await runArc(['batch', file], {env: h.env})
    // Each line echoed before it runs, with its file and line number; nothing else (no error, no warning).
    expect(run.stderr).to.equal(
      [2, 'tap 10 20', 4, 'tap 30 40', 5, 'press back', 6, 'screen-state --detail compact']
        .reduce<string[]>((out, v, i, all) => (i % 2 === 0 ? [...out, `${file}:${v} ${all[i + 1]}`] : out), [])
        .join('\n') + '\n'
    )
    expect(run.code).to.equal(0)
    const out = run.stdout.split('\n')
    expect(out.slice(0, 3)).to.deep.equal([
      'Tap executed at (10, 20)',
      'Tap executed at (30, 40)',
      'Back button press executed successfully',
    ])
    expect(out[3]).to.match(/^rows: id role/)
    expect(taps() - before).to.equal(2)
  })

  it('stops at the first failing line with its exit status; --keep-going runs the rest and keeps that status', async () => {
    const before = taps()
    const stopped = await runArc(['batch'], {env: h.env, input: 'tap 1 1\ntap -5 10\ntap 2 2\n'})
    expect(stopped.code).to.equal(2)
    expect(stopped.stdout.trim()).to.equal('Tap executed at (1, 1)')
    expect(stopped.stderr).to.contain('[INVALID_INPUT]')
    expect(taps() - before).to.equal(1)
    const kept = await runArc(['batch', '-', '--keep-going'], {
      env: h.env,
      input: 'tap 1 1\ntap -5 10\ntap 2 2\n',
    })
    expect(kept.code).to.equal(2)
    expect(kept.stdout.trim().split('\n')).to.deep.equal(['Tap executed at (1, 1)', 'Tap executed at (2, 2)'])
    expect(taps() - before).to.equal(3)
    // An unknown command is refused before any line runs, --keep-going or not: nothing acts on the device.
    const unknown = await runArc(['batch', '-', '--keep-going'], {env: h.env, input: 'tap 1 1\nfrobnicate\ntap 2 2\n'})
    expect(unknown.code).to.equal(2)
    expect(unknown.stdout).to.equal('')
    expect(unknown.stderr).to.match(/^Error \[INVALID_INPUT\]: batch line 2: unknown command "frobnicate"/)
    expect(taps() - before).to.equal(3)
  })

  it('a line asking for --help (or -h) prints that help, as `arc COMMAND --help` alone does, and sends nothing', async () => {
    const alone = await runArc(['press', 'key', '--help'], {env: h.env})
    expect(alone.code, alone.stderr).to.equal(0)
    const before = h.emu.commands.length
    const run = await runArc(['batch', '-q'], {env: h.env, input: 'press key --help\ntap -h\nshell -- echo -h\n'})
    expect(run.code, run.stderr).to.equal(0)
    expect(run.stderr).to.equal('')
    const tapHelp = await runArc(['tap', '-h'], {env: h.env})
    // After `--`, -h is the device command's own word.
    expect(run.stdout).to.equal(`${alone.stdout}${tapHelp.stdout}-h\n`)
    // The help lines sent the device nothing (echo is the device shell's own builtin: no program ran).
    expect(h.emu.commands.slice(before)).to.deep.equal([])
  })

  it('names the line a runtime error came from after the error, and --quiet leaves out the echo only', async () => {
    const input = 'tap 1 1\nfind text "No such thing"\ntap 2 2\n'
    const run = await runArc(['batch'], {env: h.env, input})
    expect(run.code).to.equal(9)
    expect(run.stderr).to.equal(
      "stdin:1 tap 1 1\nstdin:2 find text 'No such thing'\nstdin:2: failed with exit 9: find text 'No such thing'\n"
    )
    const quiet = await runArc(['batch', '-q'], {env: h.env, input: 'tap 1 1\ntap -5 10\n'})
    expect(quiet.code).to.equal(2)
    expect(quiet.stderr).to.match(/^Error \[INVALID_INPUT\]: .*\nstdin:2: failed with exit 2: tap -5 10\n$/s)
    expect(quiet.stderr).to.not.include('stdin:1')
  })

  it('refuses to nest, suggests the command an unknown line meant, and names an unreadable file', async () => {
    const nested = await runArc(['batch'], {env: h.env, input: 'batch other.txt\n'})
    expect(nested.code).to.equal(2)
    expect(nested.stderr).to.contain('`batch` cannot run inside a batch')
    const unknown = await runArc(['batch'], {env: h.env, input: 'app stop com.x\n'})
    expect(unknown.code).to.equal(2)
    expect(unknown.stderr).to.contain('batch line 1: unknown command "app stop"\nTry: arc app close com.x\n')
    const missing = await runArc(['batch', '/nonexistent/steps.txt'], {env: h.env})
    expect(missing.code).to.equal(2)
    expect(missing.stderr).to.contain('cannot read batch file /nonexistent/steps.txt')
  })

  it('reads the config once for the whole batch, where one-shot commands read it each time (docs/config.md)', async () => {
    const {dir, reads: count} = await countedConfig(os.tmpdir())
    for (const xy of ['1 1', '2 2'])
      expect((await runArc(['tap', ...xy.split(' ')], {env: h.env, cwd: dir})).code).to.equal(0)
    expect(await count()).to.equal(2)
    const run = await runArc(['batch', '-q'], {env: h.env, cwd: dir, input: 'tap 1 1\ntap 2 2\ntap 3 3\nconfig\n'})
    expect(run.code, run.stderr).to.equal(0)
    expect(await count()).to.equal(3)
    // Every line ran with it: `arc config` in the batch shows the file's value and where it came from.
    expect(run.stdout).to.match(/adb\.timeoutMs\s+19000\s+\S*\.arcrc\.mjs/)
  })

  it("runs each line's command on the batch's own oclif config, not a new one built per line", async () => {
    // oclif's debug log says each time it loads a Config: at start-up and for the batch command, never per line.
    const loads = async (input: string) => {
      const run = await runArc(['batch', '-q'], {env: {...h.env, DEBUG: 'oclif:config'}, input})
      expect(run.code, run.stderr).to.equal(0)
      return run.stderr.match(/oclif:config config done/g)?.length ?? 0
    }
    const one = await loads('tap 1 1\n')
    expect(one).to.be.greaterThan(0)
    expect(await loads('tap 1 1\npress back\ntap 2 2\nscreen-state --detail compact\n')).to.equal(one)
  })

  it("loads each command's module once per batch, however many lines run it", async () => {
    // oclif's debug log names each command module it imports.
    const run = await runArc(['batch', '-q'], {
      env: {...h.env, DEBUG: 'oclif:config:arc-cli'},
      input: 'tap 1 1\ntap 2 2\npress back\ntap 3 3\n',
    })
    expect(run.code, run.stderr).to.equal(0)
    const imports = run.stderr.match(/\(import\) \S+/g) ?? []
    expect(imports.filter((m) => /[\\/]tap\.[jt]s$/.test(m))).to.have.length(1)
    expect(imports.filter((m) => /[\\/]back\.[jt]s$/.test(m))).to.have.length(1)
  })

  it('an `arc test` line keeps the batch a resident host for the lines after it: still one config read', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'arc-batch-nested-'))
    const reads = path.join(dir, 'reads.log')
    await writeFile(path.join(dir, 'package.json'), '{}\n')
    await writeFile(
      path.join(dir, '.arcrc.mjs'),
      `import {appendFileSync} from 'node:fs'\nappendFileSync(${JSON.stringify(reads)}, 'read\\n')\nexport default {}\n`
    )
    await writeFile(path.join(dir, 'one.flow'), 'tap 5 5\n')
    const run = await runArc(['batch', '-q'], {
      env: h.env,
      cwd: dir,
      input: 'tap 1 1\ntest one.flow\ntap 2 2\ntap 3 3\n',
    })
    expect(run.code, run.stderr).to.equal(0)
    expect(run.stderr).to.include('1 passed, 0 failed')
    expect((await readFile(reads, 'utf8')).split('\n').filter(Boolean)).to.have.length(1)
  })
})

describe('batch line splitting', () => {
  it('splits like a shell simple command, without expansion', () => {
    expect(splitWords(`type "hello \\"world\\"" 'a b' c\\ d $HOME`, 1)).to.deep.equal([
      'type',
      'hello "world"',
      'a b',
      'c d',
      '$HOME',
    ])
    expect(splitWords('tap 1 2 # note', 1)).to.deep.equal(['tap', '1', '2'])
    expect(splitWords('type a#b', 1)).to.deep.equal(['type', 'a#b'])
    expect(() => splitWords(`type 'open`, 4)).to.throw(/batch line 4: unterminated ' quote/)
    // A trailing backslash was dropped (`type abc\` typed abc), and before a CRLF file's \r it typed abc\r.
    expect(() => splitWords('type abc\\', 5)).to.throw(/batch line 5: a backslash ends the line, escaping nothing/)
    expect(() => parseBatch('tap 1 1\r\ntype abc\\\r\n')).to.throw(/batch line 2: a backslash ends the line/)
    expect(splitWords(`type 'abc\\' a\\\\`, 1)).to.deep.equal(['type', 'abc\\', 'a\\'])
    expect(parseBatch('\uFEFFtap 1 1\r\n\r\n# c\npress home\n').map((l) => [l.line, l.words])).to.deep.equal([
      [1, ['tap', '1', '1']],
      [4, ['press', 'home']],
    ])
  })
})
