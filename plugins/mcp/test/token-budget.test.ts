import os from 'node:os'

import type {StartedHttp} from '@arc-cli/plugin-mcp'
import {expect} from 'chai'
import {encode} from 'gpt-tokenizer/encoding/o200k_base'

import {allTools, connect, startServer} from './support.js'

/** The budget for the whole `tools/list` answer an agent loads into its context (issue 7). */
const BUDGET = 6000

describe('tools/list size', () => {
  let server: StartedHttp
  before(async () => {
    // With an APK folder, so install_app is served too: the budget is for every tool.
    server = await startServer({apkFolder: os.tmpdir()})
  })
  after(async () => server?.close())

  it(`stays within ${BUDGET} o200k tokens for every tool`, async () => {
    const client = await connect(server.url)
    const listing = await client.listTools()
    const tokens = encode(JSON.stringify(listing.tools)).length
    expect(listing.tools.length).to.equal((await allTools()).filter((t) => t.cli.only === undefined).length)
    expect(tokens, `tools/list is ${tokens} tokens for ${listing.tools.length} tools`).to.be.at.most(BUDGET)
    await client.close()
  })
})
