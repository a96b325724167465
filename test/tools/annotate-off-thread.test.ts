/**
 * `arc mcp serve` makes annotated screenshots off its event loop: while one annotation's CPU work runs (held right
 * after label placement, blocking its thread as that work does), another client's request is read and answered.
 * Order only: the second answer must arrive while the annotation is still held.
 */
import {Client} from '@modelcontextprotocol/sdk/client/index.js'
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js'
import {expect} from 'chai'

import {connectMcp} from '@arc-cli/test-support/mcp-client'

import {holdNextAnnotation, tools as annotateTools} from '@arc-cli/plugin-annotate'
import {serveHttp} from '@arc-cli/plugin-mcp'
import {tools as screenTools} from '@arc-cli/plugin-screen-state'

const TOKEN = 'test-token-0123456789abcdef0123456789'

const connect = (url: string) => connectMcp(url, TOKEN)

describe('arc mcp serve: an annotation never holds up other requests', () => {
  let server: Awaited<ReturnType<typeof serveHttp>>
  const clients: Client[] = []
  before(async () => {
    server = await serveHttp({
      tools: [...annotateTools, ...screenTools],
      config: {},
      token: TOKEN,
      port: 0,
      devices: ['demo'],
    })
    for (let i = 0; i < 2; i++) clients.push(await connect(server.url))
  })
  after(async () => {
    for (const client of clients) await client.close()
    await server?.close()
  })

  it('answers another client while an annotation is being made, and the annotation still comes out whole', async () => {
    const [a, b] = clients as [Client, Client]
    const hold = holdNextAnnotation()
    try {
      const annotating = a.callTool({
        name: 'android_annotate_screenshot',
        arguments: {},
      }) as Promise<CallToolResult>
      await hold.arrived
      const state = (await b.callTool({
        name: 'android_get_screen_state',
        arguments: {detail: 'compact'},
      })) as CallToolResult
      // Answered while the annotation's thread is still blocked: the server's loop was free.
      expect(hold.held(), 'the annotation was still held when the other answer came').to.equal(true)
      expect(state.isError ?? false).to.equal(false)
      hold.release()
      const marked = await annotating
      expect(marked.isError ?? false).to.equal(false)
      expect((marked.content[0] as {text: string}).text).to.match(/^image: 315x700 jpeg/)
      expect((marked.content[1] as {type: string; mimeType: string}).mimeType).to.equal('image/jpeg')
    } finally {
      hold.release()
    }
  })
})
