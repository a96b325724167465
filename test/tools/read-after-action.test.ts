/**
 * A read right after an action sees the screen the action opened, not the one before it. On a phone (and on the
 * virtual device: timing.transitionMs) a tap that starts an activity changes the accessibility tree only some
 * hundreds of ms later; `uiautomator dump` waits for quiet, and the on-device helper waits after an action too (its
 * Settle: the action's own time counts, whether the helper or ADB sent it). Without that wait, a batch's `click`
 * after a `click` read the old page, so "Next" twice went one page.
 */
import {writeFile} from 'node:fs/promises'
import path from 'node:path'

import {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js'
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js'
import {expect} from 'chai'

import {DEMO_DIR} from '@arc-cli/core'

import {arcNodeArgs} from '@arc-cli/test-support/built-cli'
import {dumpXml, type NodeSpec} from '@arc-cli/test-support/dump'
import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {runArc} from '@arc-cli/test-support/run-arc'

const page = (n: number): NodeSpec[] => [
  {
    pkg: 'com.example',
    bounds: [0, 0, 1080, 2400],
    children: [
      {cls: 'android.widget.TextView', res: 'com.example:id/title', text: `Page ${n}`, bounds: [100, 100, 980, 200]},
      {
        cls: 'android.widget.Button',
        res: 'com.example:id/next',
        text: 'Next',
        attrs: {clickable: 'true'},
        bounds: [100, 2000, 980, 2150],
      },
    ],
  },
]

describe('a read right after an action sees the screen it opened (arc batch against screen transitions)', function () {
  this.timeout(120_000)
  const h = useEmulator(async (dir) => {
    const screens: Record<string, string> = {}
    for (const n of [1, 2, 3]) {
      screens[`page${n}`] = path.join(dir, `page${n}.xml`)
      await writeFile(screens[`page${n}`]!, dumpXml(page(n)))
    }
    return {
      devices: [],
      scenario: {
        devices: {
          'emu-1': {
            screens,
            initialScreen: 'page1',
            windowsDump: true,
            // A phone's own times (scale 1): the transition (300 ms) is far longer than a batch takes from one line
            // to the next, and shorter than the quiet both uiautomator (1 s) and the helper (500 ms) wait for.
            timing: {scale: 1},
            transitions: [
              {from: 'page1', tap: {text: 'Next'}, to: 'page2'},
              {from: 'page2', tap: {text: 'Next'}, to: 'page3'},
              {from: 'page2', keyevent: 'BACK', to: 'page1'},
            ],
          },
          // The same pages for a second process's action; its transition (450 ms) still shows within the helper's
          // 500 ms of quiet counted from that action's end.
          'emu-2': {
            screens,
            initialScreen: 'page1',
            windowsDump: true,
            timing: {scale: 1, transitionMs: 450},
            transitions: [{from: 'page1', tap: {text: 'Next'}, to: 'page2'}],
          },
          // A screen that never settles (a video); at a tenth of a phone's times the helper's bound is 300 ms.
          video: {screens: {player: {snapshot: DEMO_DIR, animated: true}}, windowsDump: true, timing: {scale: 0.1}},
        },
      },
    }
  })
  beforeEach(() => {
    h.emu.device('emu-1').showScreen('page1')
    h.emu.device('emu-2').showScreen('page1')
  })

  const titles = (stdout: string) => [...stdout.matchAll(/Page \d/g)].map((m) => m[0])
  const batch = async (helper: 'auto' | 'off', script: string) => {
    const run = await runArc(['batch'], {env: {...h.env, ARC_HELPER: helper, ANDROID_SERIAL: 'emu-1'}, input: script})
    expect(run.code, run.stderr).to.equal(0)
    return run.stdout
  }

  for (const helper of ['auto', 'off'] as const) {
    const path = helper === 'auto' ? 'the on-device helper' : 'uiautomator dump'
    it(`${path}: click then screen-state shows the page the click opened`, async () => {
      expect(titles(await batch(helper, 'click --text Next\nscreen-state\n'))).to.deep.equal(['Page 2'])
      expect(h.emu.device('emu-1').screenName).to.equal('page2')
    })

    it(`${path}: "Next" clicked twice goes exactly two pages (the second click reads the second page)`, async () => {
      expect(titles(await batch(helper, 'click --text Next\nclick --text Next\nscreen-state\n'))).to.deep.equal([
        'Page 3',
      ])
      expect(h.emu.device('emu-1').screenName).to.equal('page3')
    })

    it(`${path}: a key sent over ADB (press back) is waited for too`, async () => {
      const script = 'click --text Next\nscreen-state\npress back\nscreen-state\n'
      expect(titles(await batch(helper, script))).to.deep.equal(['Page 2', 'Page 1'])
    })
  }

  it('a screen that never settles after an action is read after the bound, with a warning and settled: false', async () => {
    const env = {...h.env, ARC_HELPER: 'auto', ANDROID_SERIAL: 'video'}
    const run = await runArc(['batch'], {env, input: 'tap 10 10\nscreen-state --json\n'})
    expect(run.code, run.stderr).to.equal(0)
    const read = JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as {
      backend?: {screen?: {by: string; settled?: boolean}}
      warnings?: string[]
    }
    expect(read.backend?.screen).to.include({by: 'helper', settled: false})
    expect(read.warnings?.join('\n')).to.match(/the screen was still changing .* after the last action/)
    // With no action before it, the same screen reads at once, as before, and nothing is said.
    const alone = await runArc(['screen-state', '--json'], {env})
    expect(alone.code, alone.stderr).to.equal(0)
    expect(alone.stdout).to.not.include('still changing')
  })

  it('the helper served the reads (not a fallback to uiautomator)', async () => {
    const device = h.emu.device('emu-1')
    const asked = device.helperRequests.length
    await batch('auto', 'click --text Next\nscreen-state\n')
    const dumps = device.helperRequests.slice(asked).filter((r) => r[0] === 'dump')
    expect(dumps.length).to.equal(2)
  })

  it("another process's action is waited for too: an MCP server's read right after a one-shot arc tap", async () => {
    // The MCP server (a process of its own, its helper started by a first read) has made no action: only the mark
    // the one-shot `arc tap` left in arc's cache folder tells its helper to wait for the page that tap opens.
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      NODE_OPTIONS: '',
      NO_COLOR: '1',
      ...h.env,
    }
    delete env.ANDROID_SERIAL
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: arcNodeArgs(['mcp', 'serve', '--stdio', '--device', 'emu-2', '--slug', 'phone']),
      env: {...env, ARC_HELPER: 'auto'},
      stderr: 'pipe',
    })
    const client = new Client({name: 'arc-test', version: '0.0.0'})
    await client.connect(transport)
    try {
      const read = async () => {
        const result = (await client.callTool({
          name: 'android_phone_get_screen_state',
          arguments: {},
        })) as CallToolResult
        expect(result.isError, JSON.stringify(result.content)).to.not.equal(true)
        return titles((result.content[0] as {text: string}).text)
      }
      expect(await read()).to.deep.equal(['Page 1'])
      const device = h.emu.device('emu-2')
      const dumps = device.helperRequests.filter((r) => r[0] === 'dump').length
      // Over `input tap` (the helper off in that process): nothing of it reaches the server's helper.
      const tap = await runArc(['tap', '540', '2075'], {env: {...h.env, ARC_HELPER: 'off', ANDROID_SERIAL: 'emu-2'}})
      expect(tap.code, tap.stderr).to.equal(0)
      expect(await read()).to.deep.equal(['Page 2'])
      // The helper served the read (its dump carried how long ago the tap ended), not uiautomator.
      const after = device.helperRequests.filter((r) => r[0] === 'dump')
      expect(after.length).to.equal(dumps + 1)
      expect(after.at(-1)?.length).to.equal(2)
    } finally {
      await client.close()
    }
  })
})
