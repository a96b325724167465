import {execFileSync} from 'node:child_process'
import {lstat, mkdir, readdir, readFile, stat, symlink, writeFile} from 'node:fs/promises'
import path from 'node:path'

import {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js'
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js'
import {MemoryDeviceState, runTool, type ActedElement} from '@arc-cli/core'
import {expect} from 'chai'

import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {scratch} from '@arc-cli/test-support/hostile'
import {ROOT} from '@arc-cli/test-support/paths'
import {runArc} from '@arc-cli/test-support/run-arc'

import {tools} from '../../src/tools/index.js'

/** Recording a session (`arc batch --record`, `arc mcp serve --record`) and playing it back with `arc test`. */
describe('--record: a session becomes a flow arc test replays', function () {
  this.timeout(180_000)
  const h = useEmulator({
    devices: [
      {serial: 'emu-1', app: 'demo'},
      {serial: 'emu-2', app: 'demo'},
      {serial: 'emu-3', app: 'demo'},
      {serial: 'emu-4', app: 'demo'},
      {serial: 'emu-5', app: 'demo'},
      {serial: 'emu-6', app: 'demo'},
    ],
  })
  const names = (serial: string) =>
    h.emu
      .device(serial)
      .screen.dump.nodes.filter((n) => n.resourceId.endsWith(':id/item_name'))
      .map((n) => n.text)
  const ids = async (serial: string, ...query: string[]) => {
    const run = await runArc(['find', ...query, '--json', '--device', serial], {env: h.env})
    expect(run.code, run.stderr).to.equal(0)
    return (JSON.parse(run.stdout) as {elements: Array<{id: string}>}).elements.map((e) => e.id)
  }
  /** The steps of a flow: its lines that are neither comments nor blank. */
  const steps = (flow: string) => flow.split('\n').filter((l) => l !== '' && !l.startsWith('#'))

  it('arc batch --record: ids become selectors, a look-alike is left out with a comment, and the flow replays', async () => {
    const [field] = await ids('emu-1', 'resource_id', 'dev.arc.demo.groceries:id/new_item', '--exact-match')
    const [add] = await ids('emu-1', 'text', 'ADD', '--exact-match')
    // Two rows alike (Tea, twice): their check boxes are look-alikes, with ordinal ids.
    const prepare = await runArc(['batch', '-'], {
      env: {...h.env, ANDROID_SERIAL: 'emu-1'},
      input: [
        'type append --res-id new_item Tea',
        'click --text ADD',
        'type append --res-id new_item Tea',
        'click --text ADD',
        '',
      ].join('\n'),
    })
    expect(prepare.code, prepare.stderr).to.equal(0)
    const teaBoxes = (await ids('emu-1', 'resource_id', 'dev.arc.demo.groceries:id/item_done', '--exact-match')).slice(
      0,
      2
    )
    expect(teaBoxes[1]).to.match(/-\d+$/)
    // The check box of a row of its own: no selector names it alone, its content id holds anywhere the row is.
    const boxes = await ids('emu-1', 'resource_id', 'dev.arc.demo.groceries:id/item_done', '--exact-match')
    const bread = boxes[3]!
    expect(bread).not.to.match(/-\d+$/)
    const script = path.join(h.dir, 'session.txt')
    const item = 'Tea \'n\' ${HOME} "x"'
    await writeFile(
      script,
      [
        `click ${teaBoxes[1]}`,
        `click ${bread}`,
        `type append ${field} '${item.replaceAll("'", `'\\''`)}'`,
        `click ${add}`,
        'screen-state --detail compact',
        'click --desc "Delete Cherry tomatoes"',
        'press back',
        '',
      ].join('\n')
    )
    const out = path.join(h.dir, 'recorded', 'batch.flow')
    const run = await runArc(['batch', script, '--record', out], {env: {...h.env, ANDROID_SERIAL: 'emu-1'}})
    expect(run.code, run.stderr).to.equal(0)
    expect(run.stderr).to.include(`arc batch: recorded 5 step(s) to ${out}, 1 left out (see its comments)`)
    const flow = await readFile(out, 'utf8')
    expect(steps(flow)).to.deep.equal([
      `click ${bread}`,
      `type append --res-id dev.arc.demo.groceries:id/new_item --exact-match 'Tea '\\''n'\\'' \${HOME} "x"'`,
      'click --res-id dev.arc.demo.groceries:id/add_button --exact-match',
      "click --desc 'Delete Cherry tomatoes'",
      'press back',
    ])
    expect(flow).to.include(`# left out: click on ${teaBoxes[1]}`)
    // What was typed is in it (a password too): the file is the user's alone, whatever the umask.
    expect((await stat(out)).mode & 0o777).to.equal(0o600)

    // The other device gets the two Tea rows first, as the session's device had them.
    await runArc(['batch', '-'], {
      env: {...h.env, ANDROID_SERIAL: 'emu-2'},
      input: [
        'type append --res-id new_item Tea',
        'click --text ADD',
        'type append --res-id new_item Tea',
        'click --text ADD',
        '',
      ].join('\n'),
    })
    const replay = await runArc(['test', out, '--device', 'emu-2'], {env: h.env})
    expect(replay.code, replay.stderr).to.equal(0)
    expect(names('emu-2')[0]).to.equal(item)
    const ticked = (serial: string) =>
      h.emu
        .device(serial)
        .dumpXml()
        .match(/checked="true"/g)?.length ?? 0
    expect(names('emu-2')).to.deep.equal(names('emu-1'))
    // The bread row was ticked on both; the Tea look-alike only where the session ran (its step was left out).
    expect(ticked('emu-2')).to.equal(ticked('emu-1') - 1)
    expect(ticked('emu-2')).to.equal(3)
  })

  it('a --record file that cannot be written: OUTPUT_FAILED (13) before any line acts', async () => {
    const script = path.join(h.dir, 'one-tap.txt')
    await writeFile(script, 'tap 500 1000\n')
    const before = h.emu.device('emu-1').inputEvents.length
    const run = await runArc(['batch', script, '--record', path.join(script, 'x.flow')], {
      env: {...h.env, ANDROID_SERIAL: 'emu-1'},
    })
    expect(run.code, run.stderr).to.equal(13)
    expect(run.stderr).to.include(`--record: cannot write ${path.join(script, 'x.flow')}`)
    expect(h.emu.device('emu-1').inputEvents.length).to.equal(before)
  })

  it('a --record folder the OS refuses to create (/proc/nope): OUTPUT_FAILED (13) naming it, no hang', async function () {
    if (process.platform !== 'linux') this.skip()
    const script = path.join(h.dir, 'one-tap.txt')
    await writeFile(script, 'tap 500 1000\n')
    const before = h.emu.device('emu-1').inputEvents.length
    // Node's recursive mkdir never settles under /proc: bounded, so a regression fails instead of hanging.
    const run = await runArc(['batch', script, '--record', '/proc/nope/x.flow'], {
      env: {...h.env, ANDROID_SERIAL: 'emu-1'},
      timeoutMs: 60_000,
    })
    expect(run.code, run.stderr).to.equal(13)
    expect(run.stderr).to.include('--record: cannot write /proc/nope/x.flow')
    expect(h.emu.device('emu-1').inputEvents.length).to.equal(before)
  })

  // The flow is rewritten whole (a temporary file renamed over it) after every step: renamed over a FIFO, or as root
  // over a device node (`--record /dev/null`), it replaced the node with a regular file and exited 0.
  it('a --record FIFO or folder: OUTPUT_FAILED (13) saying what it is, before any line acts, the target unchanged', async () => {
    const script = path.join(h.dir, 'one-tap.txt')
    await writeFile(script, 'tap 500 1000\n')
    const dir = await scratch()
    const fifo = path.join(dir, 'flow.fifo')
    execFileSync('mkfifo', [fifo])
    await mkdir(path.join(dir, 'folder.flow'))
    const before = h.emu.device('emu-1').inputEvents.length
    for (const [target, why] of [
      [fifo, 'it is a FIFO'],
      [path.join(dir, 'folder.flow'), 'it is a folder'],
    ] as const) {
      const run = await runArc(['batch', script, '--record', target], {env: {...h.env, ANDROID_SERIAL: 'emu-1'}})
      expect(run.code, run.stderr).to.equal(13)
      expect(run.stderr).to.include(`--record: cannot write ${target}: ${why}`)
    }
    expect(h.emu.device('emu-1').inputEvents.length).to.equal(before)
    expect((await lstat(fifo)).isFIFO()).to.equal(true)
    expect((await lstat(path.join(dir, 'folder.flow'))).isDirectory()).to.equal(true)
    expect((await readdir(dir)).sort()).to.deep.equal(['flow.fifo', 'folder.flow'])
  })

  // The recorder writes its file before the first line runs: naming the batch file itself replaced the user's script
  // with an empty recording (exit 0), however it was named (here also through a link to its folder).
  it('--record naming the batch file itself: INVALID_INPUT (2) before any line acts, the script unchanged', async () => {
    const dir = await scratch()
    const script = path.join(dir, 'steps.txt')
    await writeFile(script, 'tap 500 1000\n')
    await symlink('.', path.join(dir, 'here'))
    const before = h.emu.device('emu-1').inputEvents.length
    for (const target of [script, path.join(dir, 'here', 'steps.txt')]) {
      const run = await runArc(['batch', script, '--record', target], {env: {...h.env, ANDROID_SERIAL: 'emu-1'}})
      expect(run.code, run.stderr).to.equal(2)
      expect(run.stderr).to.include(`--record ${target} is the batch file`)
    }
    expect(h.emu.device('emu-1').inputEvents.length).to.equal(before)
    expect(await readFile(script, 'utf8')).to.equal('tap 500 1000\n')
  })

  // A recording starts by writing its file whole: naming a flow that already held steps (written or edited by hand,
  // or an earlier session's) replaced it with an empty recording before the first line ran, and then with the new
  // session's steps alone (exit 0). asciinema's `rec` refuses an existing file unless told --overwrite or --append.
  it('--record naming a file that holds something: OUTPUT_FAILED (13) naming it and --overwrite, before any line acts; --overwrite replaces it', async () => {
    const dir = await scratch()
    const flow = path.join(dir, 'login.flow')
    const handWritten = '# my login steps\nclick --text Login\ntype append --res-id user ${USER}\n'
    await writeFile(flow, handWritten)
    const before = h.emu.device('emu-1').inputEvents.length
    const batch = (...extra: string[]) =>
      runArc(['batch', '-', '--record', flow, ...extra], {env: {...h.env, ANDROID_SERIAL: 'emu-1'}, input: 'tap 5 5\n'})
    const refused = await batch()
    expect(refused.code, refused.stderr).to.equal(13)
    expect(refused.stderr).to.include(`--record: cannot write ${flow}: it already exists (${handWritten.length} bytes)`)
    expect(refused.stderr).to.include('pass --overwrite to replace it')
    expect(await readFile(flow, 'utf8')).to.equal(handWritten)
    expect(h.emu.device('emu-1').inputEvents.length).to.equal(before)
    expect(await readdir(dir)).to.deep.equal(['login.flow'])

    // Over MCP the server does not start: the agent's session would have replaced the flow.
    const served = await runArc(['mcp', 'serve', '--stdio', '--device', 'emu-1', '--record', flow], {
      env: h.env,
      input: '',
    })
    expect(served.code, served.stderr).to.equal(13)
    expect(served.stderr).to.include(`--record: cannot write ${flow}: it already exists`)
    expect(await readFile(flow, 'utf8')).to.equal(handWritten)

    // --overwrite is for --record alone: given without it, it would be dropped unseen.
    const alone = await runArc(['batch', '-', '--overwrite'], {
      env: {...h.env, ANDROID_SERIAL: 'emu-1'},
      input: 'tap 5 5\n',
    })
    expect(alone.code, alone.stderr).to.equal(2)
    expect(alone.stderr).to.include('--overwrite is for --record FILE')
    expect(h.emu.device('emu-1').inputEvents.length).to.equal(before)

    const replaced = await batch('--overwrite')
    expect(replaced.code, replaced.stderr).to.equal(0)
    expect(steps(await readFile(flow, 'utf8'))).to.deep.equal(['tap 5 5'])

    // An empty file (touch, mktemp) holds nothing to lose: recorded into without --overwrite.
    const empty = path.join(dir, 'empty.flow')
    await writeFile(empty, '')
    const into = await runArc(['batch', '-', '--record', empty], {
      env: {...h.env, ANDROID_SERIAL: 'emu-1'},
      input: 'tap 6 6\n',
    })
    expect(into.code, into.stderr).to.equal(0)
    expect(steps(await readFile(empty, 'utf8'))).to.deep.equal(['tap 6 6'])
  })

  // A flow is device-independent (arc test picks the devices): a batch line's own --device was written into its step,
  // so `arc test FLOW --device Y` (or across several devices) acted on the device the batch had named instead.
  it("arc batch --record writes no line's --device: the replay acts on the device arc test picks; a second device is left out, said", async () => {
    const script = path.join(h.dir, 'two-devices.txt')
    const out = path.join(h.dir, 'two-devices.flow')
    await writeFile(
      script,
      [
        // On emu-5 by $ANDROID_SERIAL, then by each line's own flag: one device, every step recorded.
        'tap 10 10',
        'type append --res-id dev.arc.demo.groceries:id/new_item --device emu-5 -- -x',
        'click --text ADD --exact-match -d emu-5',
        // Another device: the flow cannot say which device that was, so the step is left out, and said.
        'tap 20 20 --device emu-6',
        '',
      ].join('\n')
    )
    const run = await runArc(['batch', script, '--record', out, '--quiet'], {env: {...h.env, ANDROID_SERIAL: 'emu-5'}})
    expect(run.code, run.stderr).to.equal(0)
    expect(names('emu-5')[0]).to.equal('-x')
    const flow = await readFile(out, 'utf8')
    expect(steps(flow)).to.deep.equal([
      'tap 10 10',
      'type append --res-id dev.arc.demo.groceries:id/new_item -- -x',
      'click --text ADD --exact-match',
    ])
    expect(flow).to.include('# left out: tap on emu-6')
    expect(flow).to.include('# Recorded on emu-5')
    expect(run.stderr).to.include(`arc batch: recorded 3 step(s) to ${out}, 1 left out (see its comments)`)
    expect(run.stderr).to.match(/acted on emu-6, not emu-5/)
    // Replayed on emu-6: every step acts there, none on the device the batch named.
    const before5 = h.emu.device('emu-5').inputEvents.length
    const replay = await runArc(['test', out, '--device', 'emu-6'], {env: h.env, cwd: h.dir})
    expect(replay.code, replay.stderr).to.equal(0)
    expect(names('emu-6')[0]).to.equal('-x')
    expect(names('emu-5').filter((n) => n === '-x')).to.have.length(1)
    expect(h.emu.device('emu-5').inputEvents.length).to.equal(before5)
  })

  it('scroll by element_id tells the recorder the element it acted on, so an ordinal id is never written', async () => {
    const [list] = await ids('emu-1', 'resource_id', 'dev.arc.demo.groceries:id/items')
    const targets: ActedElement[] = []
    const scroll = tools.find((t) => t.name === 'scroll')!
    const state = new MemoryDeviceState()
    const run = (id: string) =>
      runTool(
        scroll,
        {input: {direction: 'down', amount: 'small', element_id: id}},
        {
          config: {},
          cwd: h.dir,
          openDriver: () => h.driver('emu-1'),
          stateFor: () => state,
          observe: () => ({target: (t) => targets.push(t), succeeded: () => undefined}),
        }
      )
    // The id must have been read in this state first (the stale-id check): a read, then the scroll.
    await runTool(
      tools.find((t) => t.name === 'find_elements')!,
      {input: {by: 'resource_id', value: 'dev.arc.demo.groceries:id/items'}},
      {config: {}, cwd: h.dir, openDriver: () => h.driver('emu-1'), stateFor: () => state}
    )
    await run(list!)
    expect(targets.map((t) => [t.id, t.ordinal])).to.deep.equal([[list, false]])
  })

  it('arc mcp serve --record: the agent’s successful actions, not its reads or its failures, replay with arc test', async () => {
    const out = path.join(h.dir, 'agent.flow')
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.join(ROOT, 'bin', 'run.js'), 'mcp', 'serve', '--stdio', '--device', 'emu-3', '--record', out],
      cwd: h.dir,
      env: {...(process.env as Record<string, string>), ...(h.env as Record<string, string>), NO_COLOR: '1'},
      stderr: 'pipe',
    })
    let stderr = ''
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const client = new Client({name: 'arc-test', version: '0.0.0'})
    await client.connect(transport)
    const call = async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({name: `android_${name}`, arguments: args})) as CallToolResult
    try {
      const found = await call('find_elements', {by: 'resource_id', value: 'dev.arc.demo.groceries:id/new_item'})
      const field = (found.structuredContent as {elements: Array<{id: string}>}).elements[0]!.id
      expect((await call('type_append_text', {element_id: field, text: 'Rye bread'})).isError).to.not.equal(true)
      const add = (await call('find_elements', {by: 'text', value: 'ADD'})).structuredContent as {
        elements: Array<{id: string}>
      }
      expect((await call('click_element', {element_id: add.elements[0]!.id})).isError).to.not.equal(true)
      // A failed call is not a step.
      expect((await call('click_element', {element_id: 'node_222222'})).isError).to.equal(true)
      const [del] = await ids('emu-3', 'content_desc', 'Delete Rye bread', '--exact-match')
      expect((await call('click_element', {element_id: del})).isError).to.not.equal(true)
      expect((await call('press_back', {})).isError).to.not.equal(true)
    } finally {
      await client.close()
    }
    expect(stderr).to.include(`arc mcp: recording the session's actions to ${out}`)
    expect(stderr).to.include(`arc mcp: recorded 4 step(s) to ${out}`)
    const flow = await readFile(out, 'utf8')
    expect(steps(flow)).to.deep.equal([
      "type append --res-id dev.arc.demo.groceries:id/new_item --exact-match 'Rye bread'",
      'click --res-id dev.arc.demo.groceries:id/add_button --exact-match',
      "click --desc 'Delete Rye bread' --exact-match",
      'press back',
    ])
    const replay = await runArc(['test', out, '--device', 'emu-4'], {env: h.env})
    expect(replay.code, replay.stderr).to.equal(0)
    expect(names('emu-4')).to.deep.equal(names('emu-3'))
    expect(names('emu-4')[0]).to.equal('Rye bread')
  })

  // With several devices served, each step was written with `--device` the call named: replayed with arc test on
  // another device, it acted on the recorded one.
  it('arc mcp serve -d a -d b --record: steps name no device; one on the second device is left out, said', async () => {
    const out = path.join(h.dir, 'agent-two.flow')
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        path.join(ROOT, 'bin', 'run.js'),
        'mcp',
        'serve',
        '--stdio',
        '-d',
        'emu-1',
        '-d',
        'emu-2',
        '--record',
        out,
      ],
      cwd: h.dir,
      env: {...(process.env as Record<string, string>), ...(h.env as Record<string, string>), NO_COLOR: '1'},
      stderr: 'pipe',
    })
    let stderr = ''
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const client = new Client({name: 'arc-test', version: '0.0.0'})
    await client.connect(transport)
    const call = async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({name: `android_${name}`, arguments: args})) as CallToolResult
    try {
      expect((await call('tap', {x: 5, y: 5, device: 'emu-2'})).isError).to.not.equal(true)
      expect((await call('press_back', {device: 'emu-2'})).isError).to.not.equal(true)
      expect((await call('press_back', {device: 'emu-1'})).isError).to.not.equal(true)
    } finally {
      await client.close()
    }
    const flow = await readFile(out, 'utf8')
    expect(steps(flow)).to.deep.equal(['tap 5 5', 'press back'])
    expect(flow).to.include('# left out: press back on emu-1, not emu-2')
    expect(stderr).to.include(`arc mcp: recorded 2 step(s) to ${out}, 1 left out (see its comments)`)
    expect(stderr).to.match(/press back acted on emu-1, not emu-2/)
  })
})
