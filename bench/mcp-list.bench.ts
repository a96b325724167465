/**
 * What `tools/list` costs an agent: the answer's `tools` array in o200k tokens (gpt-tokenizer, as the budget test
 * counts it) for a server of 1, 2 and 5 devices, with the default tool set (one tool set, a `device` argument) and
 * with the spec's per-device names (`--slug-names`: android_<slug>_<name> per device). Every tool is served; the
 * devices are snapshot folders (the listing does not read a device). Run: npm run bench -- mcp-list
 */
import os from 'node:os'

import type {ListToolsResult} from '@modelcontextprotocol/sdk/types.js'
import {encode} from 'gpt-tokenizer/encoding/o200k_base'

import {connect, startServer} from '../plugins/mcp/test/support.js'

const COUNTS = [1, 2, 5]

async function listing(devices: string[], slugNames: boolean): Promise<ListToolsResult> {
  // An APK folder, so install_app is served too: every tool.
  const server = await startServer({devices, apkFolder: os.tmpdir(), ...(slugNames ? {slugNames: true} : {})})
  try {
    const client = await connect(server.url)
    const listed = await client.listTools()
    await client.close()
    return listed
  } finally {
    await server.close()
  }
}

export default async function bench(): Promise<void> {
  console.log('| devices | one tool set, `device` argument (default) | per-device names (`--slug-names`) |')
  console.log('| ---: | ---: | ---: |')
  for (const count of COUNTS) {
    const devices = Array.from({length: count}, (_, i) => (count === 1 ? 'demo' : `d${i + 1}=demo`))
    const cells: string[] = []
    for (const slugNames of [false, true]) {
      const {tools} = await listing(devices, slugNames)
      cells.push(`${encode(JSON.stringify(tools)).length} tokens, ${tools.length} tools`)
    }
    console.log(`| ${count} | ${cells.join(' | ')} |`)
  }
}
