/**
 * What android_screenshot sends an agent over MCP: the image's size and bytes for the default (max_size 1024) and
 * other sizes, on the bundled demo screen (1080x2400), with the image tokens Anthropic's published rule gives for
 * it (Claude scales an image whose long side is over 1,568 px, or that would cost over about 1,600 tokens, down
 * first; then tokens = width x height / 750). Run: npm run bench -- mcp-image
 */
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js'

import {connect, startServer} from '../plugins/mcp/test/support.js'

/** Claude's image tokens for a width x height image (docs.anthropic.com, "Vision": image costs). */
function claudeImageTokens(width: number, height: number): number {
  const scale = Math.min(1, 1568 / Math.max(width, height), Math.sqrt((1600 * 750) / (width * height)))
  return Math.ceil((Math.round(width * scale) * Math.round(height * scale)) / 750)
}

export default async function bench(): Promise<void> {
  const server = await startServer({devices: ['demo']})
  const client = await connect(server.url)
  try {
    console.log('| android_screenshot arguments | image | bytes | image tokens (Claude, by its rule) |')
    console.log('| --- | --- | ---: | ---: |')
    for (const args of [{}, {format: 'jpeg'}, {max_size: 768}, {max_size: 0}, {max_size: 0, format: 'jpeg'}]) {
      const result = (await client.callTool({name: 'android_screenshot', arguments: args})) as CallToolResult
      const facts = result.structuredContent as {width: number; height: number; bytes: number; format: string}
      console.log(
        `| \`${JSON.stringify(args)}\`${Object.keys(args).length === 0 ? ' (default)' : ''} | ${facts.width}x${facts.height} ${facts.format} | ${facts.bytes} | ${claudeImageTokens(facts.width, facts.height)} |`
      )
    }
  } finally {
    await client.close()
    await server.close()
  }
}
