/**
 * android_screenshot's size over MCP: by default the longest side is 1024 pixels (about mobile-mcp's 461x1024 from a
 * 1080x2400 screen), max_size picks another (0: full size), and what comes back is always a valid image of the size
 * it says.
 */
import {readFile} from 'node:fs/promises'
import path from 'node:path'

import {DEMO_DIR, pngSize} from '@arc-cli/core'
import type {StartedHttp} from '@arc-cli/plugin-mcp'
import type {Client} from '@modelcontextprotocol/sdk/client/index.js'
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js'
import {loadImage} from '@napi-rs/canvas'
import {expect} from 'chai'

import {connect, jpegSize, startServer} from './support.js'

describe('android_screenshot size control over MCP', () => {
  let server: StartedHttp
  let client: Client
  before(async () => {
    server = await startServer()
    client = await connect(server.url)
  })
  after(async () => {
    await client?.close()
    await server?.close()
  })

  async function shot(args: Record<string, unknown>) {
    const result = (await client.callTool({name: 'android_screenshot', arguments: args})) as CallToolResult
    expect(result.isError, JSON.stringify(result.content)).to.not.equal(true)
    const image = result.content.find((c) => c.type === 'image') as {data: string; mimeType: string}
    const data = Buffer.from(image.data, 'base64')
    // Valid: the canvas decodes it, at the size its header gives.
    const decoded = await loadImage(data)
    const header = image.mimeType === 'image/png' ? pngSize(data) : jpegSize(data)
    expect({width: decoded.width, height: decoded.height}).to.deep.equal(header)
    return {data, mimeType: image.mimeType, size: header, facts: result.structuredContent as Record<string, unknown>}
  }

  it('lists max_size with the MCP default, 1024', async () => {
    const tool = (await client.listTools()).tools.find((t) => t.name === 'android_screenshot')!
    expect(tool.inputSchema.properties?.max_size).to.include({default: 1024, minimum: 0, maximum: 8192})
  })

  it('sends 461x1024 by default, a PNG of what the device took', async () => {
    const {mimeType, size, facts, data} = await shot({})
    expect(mimeType).to.equal('image/png')
    expect(size).to.deep.equal({width: 461, height: 1024})
    expect(facts).to.include({width: 461, height: 1024, format: 'png', bytes: data.length})
  })

  it('max_size 0 is the full screen, byte for byte; a JPEG is scaled too', async () => {
    const full = await shot({max_size: 0})
    expect(full.size).to.deep.equal({width: 1080, height: 2400})
    expect(full.data.equals(await readFile(path.join(DEMO_DIR, 'screen.png')))).to.equal(true)
    const small = await shot({max_size: 500, format: 'jpeg', quality: 60})
    expect(small.mimeType).to.equal('image/jpeg')
    expect(small.size).to.deep.equal({width: 225, height: 500})
    const larger = await shot({max_size: 4000})
    expect(larger.size, 'never upscaled').to.deep.equal({width: 1080, height: 2400})
  })

  it('refuses a size no image should have, naming what is allowed', async () => {
    for (const max_size of [10, -1, 9000, 1.5]) {
      const result = (await client.callTool({name: 'android_screenshot', arguments: {max_size}})) as CallToolResult
      expect(result.isError, String(max_size)).to.equal(true)
      expect((result.content[0] as {text: string}).text).to.match(/^Error \[INVALID_INPUT\]: max_size /)
    }
  })
})
