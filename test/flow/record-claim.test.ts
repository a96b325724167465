/**
 * One recording per flow file: `--record` rewrites its file whole after every step, so a second session recording
 * into the file of one still going (two `arc mcp serve` that client configurations started with the same
 * `--record`, a batch beside a server) replaced the first's recording at its start and then overwrote it step by
 * step: one session's steps were lost. The second is refused before it writes or acts, naming the holder.
 */
import {readFile} from 'node:fs/promises'
import path from 'node:path'

import {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js'
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js'
import {exitCodeFor} from '@arc-cli/core'
import {expect} from 'chai'

import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {ROOT} from '@arc-cli/test-support/paths'
import {runArc} from '@arc-cli/test-support/run-arc'

describe('--record: one recording per flow file', function () {
  this.timeout(120_000)
  const h = useEmulator({devices: [{serial: 'emu-1', app: 'demo'}]})

  it('a batch recording into the file of an MCP server still recording is refused: its steps stay, nothing acts', async () => {
    const out = path.join(h.dir, 'agent.flow')
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.join(ROOT, 'bin', 'run.js'), 'mcp', 'serve', '--stdio', '--device', 'emu-1', '--record', out],
      cwd: h.dir,
      env: {...(process.env as Record<string, string>), ...(h.env as Record<string, string>), NO_COLOR: '1'},
      stderr: 'pipe',
    })
    const client = new Client({name: 'arc-test', version: '0.0.0'})
    await client.connect(transport)
    try {
      const pressed = (await client.callTool({name: 'android_press_back', arguments: {}})) as CallToolResult
      expect(pressed.isError).to.not.equal(true)
      const recorded = await readFile(out, 'utf8')
      expect(recorded).to.include('press back')
      const events = h.emu.device('emu-1').inputEvents.length
      const batch = await runArc(['batch', '-', '--record', out], {
        env: {...h.env, ANDROID_SERIAL: 'emu-1'},
        input: 'press home\n',
      })
      expect(batch.code, batch.stderr).to.equal(exitCodeFor('OUTPUT_FAILED'))
      expect(batch.stderr).to.match(/another arc process \(pid \d+\) records into it/)
      expect(await readFile(out, 'utf8')).to.equal(recorded)
      expect(h.emu.device('emu-1').inputEvents.length).to.equal(events)
    } finally {
      await client.close()
    }
    // Once that session ended, the file is free for another recording.
    // It holds that session's steps: replacing them takes --overwrite.
    const again = await runArc(['batch', '-', '--record', out, '--overwrite'], {
      env: {...h.env, ANDROID_SERIAL: 'emu-1'},
      input: 'press home\n',
    })
    expect(again.code, again.stderr).to.equal(0)
    expect(await readFile(out, 'utf8')).to.include('press home')
  })
})
