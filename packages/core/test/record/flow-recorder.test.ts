import {expect} from 'chai'
import {z} from 'zod'

import {defineTool} from '../../src/tools/define-tool.js'
import {flowWord, stepFor} from '../../src/record/flow-recorder.js'

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

describe('the flow recorder (--record)', () => {
  it('quotes a word only when the flow reader would split or expand it, and never lets ${…} expand', () => {
    expect(flowWord('node_abc234')).to.equal('node_abc234')
    expect(flowWord('dev.example:id/save')).to.equal('dev.example:id/save')
    expect(flowWord('Oat milk')).to.equal("'Oat milk'")
    expect(flowWord('${HOME}')).to.equal("'${HOME}'")
    expect(flowWord("it's #1")).to.equal(`'it'\\''s #1'`)
    expect(flowWord('')).to.equal("''")
  })

  it('puts a selector where the id stood, or the id itself where it holds, and leaves out an ordinal id', () => {
    const selector = {
      id: 'node_abc234',
      ordinal: false,
      selector: [['--res-id', 'dev.x:id/save']] as Array<[string, string]>,
    }
    expect(stepFor(click, {element_id: 'node_abc234'}, {exact_match: false}, selector).line).to.equal(
      'click --res-id dev.x:id/save --exact-match'
    )
    expect(stepFor(click, {element_id: 'node_abc234'}, undefined, {id: 'node_abc234', ordinal: false}).line).to.equal(
      'click node_abc234'
    )
    const skipped = stepFor(click, {element_id: 'node_abc234-2'}, undefined, {id: 'node_abc234-2', ordinal: true})
    expect(skipped.skipped).to.equal(true)
    expect(skipped.line).to.match(/^# left out: click on node_abc234-2, one of several look-alikes/)
  })

  it('an array positional goes last after --, flags before it, and a device named when several are served', () => {
    expect(
      stepFor(shell, {command: ['sh', '-c', 'echo $X | wc -l'], timeout_ms: 500}, undefined, undefined, 'pixel').line
    ).to.equal("shell --timeout-ms 500 --device pixel -- sh -c 'echo $X | wc -l'")
  })

  it('a positional that starts with - goes after --, at the end, so replay does not read it as a flag', () => {
    const save = {id: 'node_abc234', ordinal: false, selector: [['--res-id', 'dev.x:id/f']] as Array<[string, string]>}
    expect(stepFor(append, {element_id: 'node_abc234', text: '-x'}, undefined, save).line).to.equal(
      'type append --res-id dev.x:id/f --exact-match -- -x'
    )
    expect(stepFor(append, {element_id: 'node_abc234', text: 'x'}, undefined, save).line).to.equal(
      'type append --res-id dev.x:id/f --exact-match x'
    )
  })

  it('a value with a line break is left out with a comment: a flow line cannot carry it', () => {
    for (const text of ['two\nlines', 'cr\r']) {
      const step = stepFor(append, {element_id: 'node_abc234', text}, undefined, {id: 'node_abc234', ordinal: false})
      expect(step.skipped).to.equal(true)
      expect(step.line).to.match(/^# left out: type append with a value holding a line break/)
      expect(step.line).not.to.match(/[\r\n]/)
    }
  })

  it("names the line's own device and adb server", () => {
    expect(
      stepFor(click, {element_id: 'node_abc234'}, undefined, {id: 'node_abc234', ordinal: false}, 'emu-2', {
        host: 'farm',
        port: 5038,
      }).line
    ).to.equal('click node_abc234 --device emu-2 --adb-host farm --adb-port 5038')
  })

  it('a command that takes no selector keeps a content id and leaves out an ordinal one', () => {
    const selector = [['--res-id', 'dev.x:id/items']] as Array<[string, string]>
    expect(
      stepFor(scroll, {direction: 'down', element_id: 'node_abc234'}, undefined, {
        id: 'node_abc234',
        ordinal: false,
        selector,
      }).line
    ).to.equal('scroll down --element-id node_abc234')
    const left = stepFor(scroll, {direction: 'down', element_id: 'node_abc234-2'}, undefined, {
      id: 'node_abc234-2',
      ordinal: true,
      selector,
    })
    expect(left.skipped).to.equal(true)
    expect(left.line).to.match(/^# left out: scroll on node_abc234-2/)
  })
})
