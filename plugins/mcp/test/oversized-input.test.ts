/**
 * What the server answers to input far too large: an isError result that quotes at most a short prefix of it,
 * never the input itself (once in the text, again in the structured message and its details).
 */
import type {StartedHttp} from '@arc-cli/plugin-mcp'
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js'
import {expect} from 'chai'

import {startServer} from './support.js'

describe('arc mcp serve refuses oversized input without echoing it', () => {
  let server: StartedHttp
  before(async () => {
    server = await startServer({devices: ['a=demo', 'b=demo']})
  })
  after(async () => server?.close())

  const big = 'k'.repeat(1_000_000)
  const calls: Array<[string, string, Record<string, unknown>]> = [
    ['an element id', 'android_get_element_details', {device: 'a', ids: [big]}],
    ['a tool name', `android_${big}`, {}],
    ['a device', 'android_tap', {device: big, x: 1, y: 2}],
    ['an enum value', 'android_find_elements', {device: 'a', by: big, value: big}],
  ]
  for (const [what, name, args] of calls) {
    it(`${what} of 1,000,000 characters: a short error naming its start`, async () => {
      const result: CallToolResult = await server.host.call(name, args)
      expect(result.isError).to.equal(true)
      const whole = JSON.stringify(result)
      expect(whole.length, whole.slice(0, 300)).to.be.below(3000)
      expect(whole).to.include('kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk')
    })
  }
})
