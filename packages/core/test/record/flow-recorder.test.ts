import {expect} from 'chai'
import {z} from 'zod'

import {defineTool, type ActedElement, type AnyTool} from '../../src/tools/define-tool.js'
import {mkdtemp, readFile, rm} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

import {FlowRecorder, flowWord, stepFor} from '../../src/record/flow-recorder.js'
import type {ToolObserver} from '../../src/tools/run-tool.js'

const noop = async () => ({text: ''})

const click = defineTool({
  name: 'click_element',
  title: 'Click an element',
  description: 'Clicks the element an id names.',
  kind: 'action',
  needs: {input: 'act'},
  group: 'elements',
  input: z.object({element_id: z.string().describe('The element id')}),
  cli: {
    id: 'click',
    positional: ['element_id'],
    input: z.object({exact_match: z.boolean().default(false).describe('Match whole values')}),
  },
  handler: noop,
})

const shell = defineTool({
  name: 'shell',
  title: 'Run a shell command',
  description: 'Runs one command on the device.',
  kind: 'destructive',
  needs: {shell: 'act'},
  group: 'system',
  input: z.object({
    command: z.array(z.string()).describe('The command and its arguments'),
    timeout_ms: z.number().optional().describe('A limit in milliseconds'),
  }),
  cli: {id: 'shell', positional: ['command']},
  handler: noop,
})

const append = defineTool({
  name: 'type_append_text',
  title: 'Type text',
  description: 'Types text into the field an id names.',
  kind: 'action',
  needs: {input: 'act'},
  group: 'elements',
  input: z.object({element_id: z.string().describe('The element id'), text: z.string().describe('The text')}),
  cli: {
    id: 'type append',
    positional: ['element_id', 'text'],
    input: z.object({exact_match: z.boolean().default(false).describe('Match whole values')}),
  },
  handler: noop,
})

const scroll = defineTool({
  name: 'scroll',
  title: 'Scroll',
  description: 'Scrolls.',
  kind: 'action',
  needs: {input: 'act'},
  group: 'touch',
  input: z.object({
    direction: z.string().describe('The direction'),
    element_id: z.string().optional().describe('Inside this element'),
  }),
  cli: {id: 'scroll', positional: ['direction']},
  handler: noop,
})

/** One call as the recorder sees it, and the flow line it writes (a string) or the comment of a step left out. */
interface Case {
  what: string
  tool: AnyTool
  input: Record<string, unknown>
  cliInput?: Record<string, unknown>
  target?: ActedElement
  line: string | RegExp
}

/** The element an action resolved: `selector` where a selector names it alone on its screen. */
const acted = (id: string, ...selector: Array<[string, string]>): ActedElement => ({
  id,
  ordinal: /-\d+$/.test(id),
  ...(selector.length > 0 ? {selector} : {}),
})

const CASES: Case[] = [
  {
    what: 'puts a selector where the id stood',
    tool: click,
    input: {element_id: 'node_abc234'},
    cliInput: {exact_match: false},
    target: acted('node_abc234', ['--res-id', 'dev.x:id/save']),
    line: 'click --res-id dev.x:id/save --exact-match',
  },
  {
    what: 'keeps the id itself where no selector names the element alone',
    tool: click,
    input: {element_id: 'node_abc234'},
    target: acted('node_abc234'),
    line: 'click node_abc234',
  },
  {
    what: 'leaves out an ordinal id (it holds only in the session that read it)',
    tool: click,
    input: {element_id: 'node_abc234-2'},
    target: acted('node_abc234-2'),
    line: /^# left out: click on node_abc234-2, one of several look-alikes/,
  },
  {
    what: 'an array positional goes last after --, flags before it',
    tool: shell,
    input: {command: ['sh', '-c', 'echo $X | wc -l'], timeout_ms: 500},
    line: "shell --timeout-ms 500 -- sh -c 'echo $X | wc -l'",
  },
  {
    what: 'a positional that starts with - goes after --, at the end, so replay does not read it as a flag',
    tool: append,
    input: {element_id: 'node_abc234', text: '-x'},
    target: acted('node_abc234', ['--res-id', 'dev.x:id/f']),
    line: 'type append --res-id dev.x:id/f --exact-match -- -x',
  },
  {
    what: 'a positional that does not start with - stays in its place, after the selector',
    tool: append,
    input: {element_id: 'node_abc234', text: 'x'},
    target: acted('node_abc234', ['--res-id', 'dev.x:id/f']),
    line: 'type append --res-id dev.x:id/f --exact-match x',
  },
  ...['two\nlines', 'cr\r'].map((text): Case => ({
    what: `a value with a line break (${JSON.stringify(text)}) is left out with a comment: a flow line cannot carry it`,
    tool: append,
    input: {element_id: 'node_abc234', text},
    target: acted('node_abc234'),
    line: /^# left out: type append with a value holding a line break/,
  })),
  {
    what: 'a command that takes no selector keeps a content id',
    tool: scroll,
    input: {direction: 'down', element_id: 'node_abc234'},
    target: acted('node_abc234', ['--res-id', 'dev.x:id/items']),
    line: 'scroll down --element-id node_abc234',
  },
  {
    what: 'a command that takes no selector leaves out an ordinal id',
    tool: scroll,
    input: {direction: 'down', element_id: 'node_abc234-2'},
    target: acted('node_abc234-2', ['--res-id', 'dev.x:id/items']),
    line: /^# left out: scroll on node_abc234-2/,
  },
]

describe('the flow recorder (--record)', () => {
  it('quotes a word only when the flow reader would split or expand it, and never lets ${…} expand', () => {
    expect(flowWord('node_abc234')).to.equal('node_abc234')
    expect(flowWord('dev.example:id/save')).to.equal('dev.example:id/save')
    expect(flowWord('Oat milk')).to.equal("'Oat milk'")
    expect(flowWord('${HOME}')).to.equal("'${HOME}'")
    expect(flowWord("it's #1")).to.equal(`'it'\\''s #1'`)
    expect(flowWord('')).to.equal("''")
  })

  for (const c of CASES) {
    it(c.what, () => {
      const step = stepFor(c.tool, c.input, c.cliInput, c.target)
      if (typeof c.line === 'string') {
        expect(step.skipped ?? false, step.line).to.equal(false)
        expect(step.line).to.equal(c.line)
      } else {
        expect(step.skipped, step.line).to.equal(true)
        expect(step.line).to.match(c.line)
      }
      // A flow has one step a line: whatever is written, a comment included, holds no line break.
      expect(step.line).not.to.match(/[\r\n]/)
    })
  }

  // A flow names no device (arc test picks it): a batch line's own --device, or an MCP call's `device`, was written
  // into its step, so a replay on another device acted on the recorded one.
  describe('a session on devices', () => {
    let dir: string
    beforeEach(async () => (dir = await mkdtemp(path.join(os.tmpdir(), 'arc-recorder-'))))
    afterEach(() => rm(dir, {recursive: true, force: true}))

    /** Calls the recorder hears, each succeeding on `serial`; the flow's lines and what it warned. */
    const record = async (calls: Array<{serial?: string; call?: Partial<Parameters<ToolObserver>[0]>}>) => {
      const warned: string[] = []
      const recorder = new FlowRecorder({file: path.join(dir, 'x.flow'), by: 'a test', warn: (m) => warned.push(m)})
      for (const [i, {serial, call}] of calls.entries()) {
        const watcher = recorder.observe({tool: click, input: {element_id: `node_abc23${i}`}, ...call})
        watcher!.target(acted(`node_abc23${i}`))
        watcher!.succeeded(serial)
      }
      await recorder.write()
      await recorder.flush()
      return {lines: (await readFile(recorder.file, 'utf8')).split('\n'), warned, recorder}
    }

    it('writes no device, however the line named it: the replay acts on the device arc test picks', async () => {
      const {lines, warned} = await record([
        {serial: 'emu-2'},
        {serial: 'emu-2', call: {device: 'emu-2'}},
        {serial: 'emu-2', call: {device: 'emu-2', adbHost: 'farm', adbPort: 5038}},
      ])
      // Another adb server's emu-2 is another device: left out.
      expect(lines.filter((l) => !l.startsWith('#') && l !== '')).to.deep.equal([
        'click node_abc230',
        'click node_abc231',
      ])
      expect(lines.join('\n')).to.include('# left out: click on emu-2 on farm:5038, not emu-2')
      expect(lines.join('\n')).to.include('# Recorded on emu-2;')
      expect(warned).to.have.length(1)
    })

    it('leaves out, with a comment, each step on another device than the first, and says so once', async () => {
      const {lines, warned, recorder} = await record([
        {serial: 'a'},
        {serial: 'b', call: {device: 'b'}},
        {serial: 'a'},
        {serial: 'b'},
      ])
      expect(lines.filter((l) => !l.startsWith('#') && l !== '')).to.deep.equal([
        'click node_abc230',
        'click node_abc232',
      ])
      expect(lines.filter((l) => l.startsWith('# left out: click on b, not a'))).to.have.length(2)
      expect([recorder.recorded, recorder.skipped]).to.deep.equal([2, 2])
      expect(warned).to.have.length(1)
      expect(warned[0]).to.match(/click acted on b, not a/)
    })

    it('a call that opened no device counts for none', async () => {
      const {lines, warned} = await record([{}, {serial: 'a'}, {}])
      expect(lines.filter((l) => !l.startsWith('#') && l !== '')).to.have.length(3)
      expect(warned).to.deep.equal([])
    })
  })
})
