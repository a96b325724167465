import {mkdir, readFile, stat, symlink, writeFile} from 'node:fs/promises'
import path from 'node:path'

import {exitCodeFor} from '@arc-cli/core'
import {DEMO_DIR, useEmulator} from '@arc-cli/test-support/emulator-support'
import {runArc} from '@arc-cli/test-support/run-arc'
import {expect} from 'chai'

/**
 * A flow file may come from a repository its user never read. While `arc test` runs its steps, the files they name
 * on this machine stay within the folder arc test runs in and the flow's own folder (core's host-paths.ts): before,
 * a flow could write a file on the device, then `files pull` it over `~/.bashrc`, or `files push` `~/.ssh/id_rsa`
 * to the device and read it back.
 */
describe('arc test: a step uses files on this machine only within its folders', function () {
  this.timeout(60_000)
  const h = useEmulator({devices: [{serial: 'emu-1', snapshot: DEMO_DIR}]})
  // The run's folder (the checkout), the flow inside it, and a folder of the user's outside both.
  const dirs = async (name: string) => {
    const repo = path.join(h.dir, name, 'repo')
    const home = path.join(h.dir, name, 'home')
    await mkdir(path.join(repo, 'flows'), {recursive: true})
    await mkdir(home, {recursive: true})
    return {repo, home, flows: path.join(repo, 'flows')}
  }
  const exists = (file: string) =>
    stat(file).then(
      () => true,
      () => false
    )
  const test = (cwd: string, file: string) => runArc(['test', file, '--device', 'emu-1'], {env: h.env, cwd})

  it('refuses files pull over a file outside them (PERMISSION_DENIED naming --output), and writes nothing there', async () => {
    const {repo, home, flows} = await dirs('pull')
    const target = path.join(home, '.bashrc')
    await writeFile(target, 'the user’s own\n')
    const file = path.join(flows, 'evil.flow')
    await writeFile(
      file,
      [`files write tmp evil.sh --content "echo pwned"`, `files pull tmp evil.sh -o ${target}`, ''].join('\n')
    )
    const run = await test(repo, file)
    expect(run.code, run.stderr).to.equal(exitCodeFor('PERMISSION_DENIED'))
    expect(run.stderr).to.include(`Error [PERMISSION_DENIED]: --output: ${target} is outside the folders`)
    expect(await readFile(target, 'utf8')).to.equal('the user’s own\n')
  })

  it('refuses files push of a file outside them (naming source): nothing reaches the device', async () => {
    const {repo, home, flows} = await dirs('push')
    const secret = path.join(home, 'id_rsa')
    await writeFile(secret, 'PRIVATE KEY\n')
    const file = path.join(flows, 'push.flow')
    await writeFile(file, `files push ${secret} tmp key.txt\n`)
    const run = await test(repo, file)
    expect(run.code, run.stderr).to.equal(exitCodeFor('PERMISSION_DENIED'))
    expect(run.stderr).to.include(`Error [PERMISSION_DENIED]: source: ${secret} is outside the folders`)
    const read = await runArc(['files', 'read', 'tmp', 'key.txt', '--device', 'emu-1'], {env: h.env})
    expect(read.code, read.stdout).to.equal(exitCodeFor('NOT_FOUND'))
  })

  it('counts a link inside the folders as where it leads', async () => {
    const {repo, home, flows} = await dirs('link')
    await symlink(home, path.join(repo, 'out'))
    const file = path.join(flows, 'link.flow')
    await writeFile(file, 'screenshot -o out/shot.png\n')
    const run = await test(repo, file)
    expect(run.code, run.stderr).to.equal(exitCodeFor('PERMISSION_DENIED'))
    expect(run.stderr).to.include(`which leads to ${path.join(home, 'shot.png')}`)
    expect(await exists(path.join(home, 'shot.png'))).to.equal(false)
  })

  it('refuses every other writer too: annotate --map, screen-state --screenshot, snapshot save, an assert screenshot baseline', async () => {
    const {repo, home, flows} = await dirs('writers')
    const lines = [
      `annotate -o ann.jpg --map ${path.join(home, 'map.json')}`,
      `screen-state --screenshot ${path.join(home, 'screen.jpg')}`,
      `snapshot save ${path.join(home, 'snap')}`,
      `assert screenshot ${path.join(home, 'base.png')}`,
      `screenrecord -o ${path.join(home, 'video.mp4')} --time-limit 1`,
    ]
    for (const [i, line] of lines.entries()) {
      const file = path.join(flows, `writer-${i}.flow`)
      await writeFile(file, `${line}\n`)
      const run = await test(repo, file)
      expect(run.code, `${line}\n${run.stderr}`).to.equal(exitCodeFor('PERMISSION_DENIED'))
      expect(run.stderr).to.include('is outside the folders a step of arc test may use')
    }
    for (const name of ['map.json', 'screen.jpg', 'snap', 'base.png', 'video.mp4'])
      expect(await exists(path.join(home, name)), name).to.equal(false)
  })

  it('takes files within the run folder and the flow folder, relative or absolute; the same command alone writes anywhere', async () => {
    const {repo, home, flows} = await dirs('inside')
    const file = path.join(flows, 'ok.flow')
    await writeFile(
      file,
      [
        'files write tmp note.txt --content hello',
        'files pull tmp note.txt -o pulled/note.txt',
        `screenshot -o ${path.join(flows, 'shot.png')}`,
        'annotate -o ann.jpg --map map.json',
        'snapshot save snaps/list',
        // Output thrown away reaches no file: allowed.
        'files pull tmp note.txt -o /dev/null',
        '',
      ].join('\n')
    )
    await mkdir(path.join(repo, 'pulled'))
    const run = await test(repo, file)
    expect(run.code, run.stderr).to.equal(0)
    expect(await readFile(path.join(repo, 'pulled', 'note.txt'), 'utf8')).to.equal('hello')
    for (const made of [path.join(flows, 'shot.png'), path.join(repo, 'ann.jpg'), path.join(repo, 'snaps', 'list')])
      expect(await exists(made), made).to.equal(true)
    // Outside arc test nothing is narrowed: the user names their own files.
    const alone = await runArc(
      ['files', 'pull', 'tmp', 'note.txt', '-o', path.join(home, 'note.txt'), '--device', 'emu-1'],
      {
        env: h.env,
        cwd: repo,
      }
    )
    expect(alone.code, alone.stderr).to.equal(0)
    expect(await readFile(path.join(home, 'note.txt'), 'utf8')).to.equal('hello')
  })
})
