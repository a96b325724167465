import {exitCodeFor, parseErrorMessage, schemaFields, toolCommand, flagName, type AnyTool} from '@arc-cli/core'
import {tools as annotateTools} from '@arc-cli/plugin-annotate'
import {tools as screenStateTools} from '@arc-cli/plugin-screen-state'
import {runCommand} from '@oclif/test'
import {expect} from 'chai'

import {tools as coreTools} from '../../src/tools/index.js'
import {runArc} from '@arc-cli/test-support/run-arc'
import {sourceOptions} from '@arc-cli/test-support/source-config'

const ALL: AnyTool[] = [...coreTools, ...screenStateTools, ...annotateTools]
const INVALID = exitCodeFor('INVALID_INPUT')

/** The required inputs of each tool that the CLI takes as flags (not positional arguments). */
function requiredFlags(tool: AnyTool): string[] {
  const positional = tool.cli?.positional ?? []
  const fields = [...schemaFields(tool.input), ...(tool.cli.input ? schemaFields(tool.cli.input) : [])]
  return fields.filter((f) => f.required && !positional.includes(f.name)).map((f) => flagName(f.name))
}

describe('required inputs on the command line', () => {
  it('makes every required tool input that becomes a flag a required flag, shown so in --help', async () => {
    const withRequired = ALL.filter((t) => requiredFlags(t).length > 0)
    // The ones a new user met: wait's --timeout, details' --ids, gesture's --paths, type insert's --offset.
    expect(withRequired.map((t) => t.cli.id)).to.include.members([
      'wait element',
      'wait idle',
      'details',
      'gesture',
      'type insert',
    ])
    for (const tool of withRequired) {
      const flags = (toolCommand(tool) as unknown as {flags: Record<string, {required?: boolean}>}).flags
      for (const name of requiredFlags(tool)) expect(flags[name]?.required, `${tool.cli.id} --${name}`).to.equal(true)
      const {stdout} = await runCommand([...tool.cli.id.split(' '), '--help'], await sourceOptions())
      for (const name of requiredFlags(tool)) {
        // oclif leaves a required flag out of the brackets in USAGE and marks it "(required)" in FLAGS.
        expect(stdout, `${tool.cli.id} --${name}`).to.match(new RegExp(`\\$ arc ${tool.cli.id} .*--${name}[ =]<`, 's'))
        expect(stdout, `${tool.cli.id} --${name}`).to.not.match(new RegExp(`\\[--${name}[ =]`))
        expect(stdout, `${tool.cli.id} --${name}`).to.match(new RegExp(`--${name}=\\S+ +\\(required\\)`))
      }
    }
  })

  it('refuses `arc wait element` without --timeout: INVALID_INPUT naming the flag and what it allows, before any device', async () => {
    // An adb port nothing listens on: reaching for the device would fail with another code.
    const run = await runArc(['wait', 'element', 'text', 'Groceries', '--adb-port', '9', '-d', 'emulator-5554'])
    expect(run.code).to.equal(INVALID)
    expect(run.stderr).to.include(
      'Error [INVALID_INPUT]: --timeout is required: How long to wait: 500ms, 30s, 2m, or a bare number of milliseconds (at least 1 ms; no 30 s cap on the command line, up to 24h)'
    )
    expect(run.stderr).to.not.include('received undefined').and.not.include('The following error')
    const json = await runArc(['wait', 'idle', '-d', 'demo', '--json'])
    expect(json.code).to.equal(INVALID)
    expect(JSON.parse(json.stdout).error).to.include({
      code: 'INVALID_INPUT',
      message:
        '--timeout is required: How long to wait: 500ms, 30s, 2m, or a bare number of milliseconds (at least 1 ms; no 30 s cap on the command line, up to 24h)',
      exitCode: INVALID,
    })
  })

  it('names each missing flag of details, gesture and type insert', async () => {
    const cases: Array<[string[], string]> = [
      [['details'], '--ids is required: Element ids to look up'],
      [['gesture'], '--paths is required: Array of paths'],
      [['type', 'insert', 'node_a', 'hi'], '--offset is required: 0-based offset for the cursor in code points'],
    ]
    for (const [argv, message] of cases) {
      const run = await runArc([...argv, '-d', 'demo'])
      expect(run.code, argv.join(' ')).to.equal(INVALID)
      expect(run.stderr, argv.join(' ')).to.include(`Error [INVALID_INPUT]: ${message}`)
    }
  })

  it("says what a wrong input allows by its flag or argument, as the user typed it, never in zod's words", async () => {
    const path = (...points: Array<Record<string, unknown>>) =>
      JSON.stringify(points.map((p, i) => ({x: 1, y: 1, time: i * 10, ...p})))
    const cases: Array<[string[], string]> = [
      [
        ['type', 'insert', 'node_abcdef', 'hi', '--offset', '-1'],
        '--offset must be at least 0 (got -1): 0-based offset for the cursor in code points',
      ],
      // The command line's waits have no 30 s cap (MCP keeps it): a day at most.
      [['wait', 'idle', '--timeout', '25h'], '--timeout must be 1 ms to 24h (got "25h")'],
      [
        ['logs', '--last-lines', '0'],
        '--last-lines must be at least 1 (got 0): Number of most recent log lines to return (1-1000)',
      ],
      [['type', 'append', 'node_abcdef', ''], 'argument <text> must not be empty: Text to type (1-2000 characters'],
      [
        ['swipe', '1', '1', '2', '2', '--duration', '1.5'],
        '--duration must be a whole number (got 1.5): Swipe duration',
      ],
      [
        ['find', 'label', 'Submit'],
        'argument <by> must be one of text, content_desc, resource_id, class_name (got "label")',
      ],
      [
        ['gesture', '--paths', path({x: -1}, {z: 1})],
        '--paths[0][0].x must be at least 0 (got -1); --paths[0][1] has a key it does not take: "z"',
      ],
      [['gesture', '--paths', path({})], '--paths[0]: each path needs at least 2 points'],
      [['tap', '0x10', '5'], 'argument <x> must be a number in decimal digits (got "0x10")'],
      [['gesture', '--paths', '[{'], '--paths must be JSON (got "[{")'],
      // oclif's own checks of a flag's value, said the same way.
      [['annotate', '--format', 'gif'], '--format must be one of jpeg, jpg, png (got "gif")'],
      [['tap', '1', '1', '--adb-port', '70000'], '--adb-port must be at most 65535 (got 70000)'],
      [['tap', '1', '1', '--adb-port', 'x'], '--adb-port must be a whole number (got "x")'],
    ]
    for (const [argv, message] of cases) {
      const run = await runArc([...argv, '-d', 'demo'])
      expect(run.code, argv.join(' ')).to.equal(INVALID)
      expect(run.stderr, argv.join(' ')).to.include(`Error [INVALID_INPUT]: ${message}`)
      expect(run.stderr, argv.join(' ')).to.not.match(/Too (small|big)|Invalid input|received|Expected|Parsing/)
    }
    const json = await runArc(['type', 'insert', 'node_abcdef', 'hi', '--offset', '-1', '-d', 'demo', '--json'])
    expect(JSON.parse(json.stdout).error.message).to.match(/^--offset must be at least 0 \(got -1\)/)
  })

  it('words `arc emulate` without --port like every other missing input, not oclif\'s "The following error occurred"', async () => {
    const run = await runArc(['emulate'])
    expect(run.code).to.equal(INVALID)
    expect(run.stderr).to.match(/^Error \[INVALID_INPUT\]: --port is required: TCP port/)
    expect(run.stderr).to.not.include('The following error').and.not.include('Missing required flag')
  })

  it("rewrites each missing flag among oclif's reasons and keeps the others, colours stripped", () => {
    const error = Object.assign(
      new Error(
        'The following errors occurred:\n  \u001B[2mMissing required flag port\n  --a cannot also be provided when using --b\u001B[22m\nSee more help with --help'
      ),
      {parse: {input: {flags: {port: {required: true, summary: 'TCP port.'}}}}}
    )
    expect(parseErrorMessage(error)).to.equal(
      '--port is required: TCP port.; --a cannot also be provided when using --b'
    )
    expect(parseErrorMessage(new Error('Nonexistent flag: --x\nSee more help with --help'))).to.equal(
      'Nonexistent flag: --x'
    )
  })
})
