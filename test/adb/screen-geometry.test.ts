import {writeFile} from 'node:fs/promises'
import path from 'node:path'

import {collectTools, ToolHost} from '@arc-cli/plugin-mcp'
import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {runArc} from '@arc-cli/test-support/run-arc'
import {inDevelopment, sourceOptions} from '@arc-cli/test-support/source-config'
import {Config} from '@oclif/core'
import {expect} from 'chai'

const node = (text: string, bounds: string, clickable = false) =>
  `<node index="0" text="${text}" resource-id="" class="android.widget.Button" package="dev.arc.rotate" content-desc="" checkable="false" checked="false" clickable="${clickable}" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="${bounds}" />`
const screen = (rotation: number, bounds: string, child: string) =>
  `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="${rotation}"><node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="dev.arc.rotate" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="${bounds}">${child}</node></hierarchy>`

/**
 * The on-screen check of the touch tools keeps the screen's geometry per device within a process (batch, MCP), so
 * an input action is one device command; a tap that turns the screen (an app going landscape) is caught by
 * re-reading before any refusal, and arc's own actions that can reshape the screen forget what was read.
 */
describe('screen geometry: one device command per input action in a batch and an MCP server', () => {
  const h = useEmulator(async (dir) => {
    await writeFile(
      path.join(dir, 'portrait.xml'),
      screen(0, '[0,0][1080,2400]', node('Watch in landscape', '[0,0][1080,400]', true))
    )
    await writeFile(path.join(dir, 'landscape.xml'), screen(1, '[0,0][2400,1080]', node('Video', '[0,0][2400,1080]')))
    return {
      devices: [],
      scenario: {
        devices: {
          'emu-1': {
            screens: {portrait: path.join(dir, 'portrait.xml'), landscape: path.join(dir, 'landscape.xml')},
            initialScreen: 'portrait',
            // Where an input leads, not when its screen shows: a screen a tap or key opens shows at once (a phone's transition
            // time, which the reads after an action wait for, is test/tools/read-after-action.test.ts's).
            timing: {transitionMs: 0},
            transitions: [
              {from: 'portrait', tap: {text: 'Watch in landscape'}, to: 'landscape'},
              {from: 'landscape', keyevent: 'BACK', to: 'portrait'},
            ],
          },
        },
      },
    }
  })
  const device = () => h.emu.device('emu-1')
  /** Where the emulator's logs stand now: the device programs run and the requests received. */
  const mark = () => ({commands: h.emu.commands.length, requests: h.emu.requests.length})
  /**
   * The device round trips since `from`, one per device service request (shell, exec), each named by the last
   * program it ran (its first three words): what a check folded into the tap's own request would not add to.
   */
  const programs = (from: {commands: number; requests: number}) => {
    const trips: Array<{raw: string; argv: string[]}> = []
    for (const command of h.emu.commands.slice(from.commands)) {
      const last = trips.at(-1)
      if (last && last.raw === command.raw) last.argv = command.argv
      else trips.push({raw: command.raw, argv: command.argv})
    }
    const services = h.emu.requests.slice(from.requests).filter((r) => !r.raw.startsWith('host'))
    expect(services, 'one device request per run of programs').to.have.length(trips.length)
    return trips.map((t) => t.argv.slice(0, 3).join(' '))
  }

  let host: ToolHost
  before(async () => {
    const tools = await inDevelopment(async () => collectTools(await Config.load(await sourceOptions())))
    host = new ToolHost({
      tools,
      targets: [{slug: '', device: 'emu-1'}],
      config: {},
      cwd: process.cwd(),
      adb: {host: '127.0.0.1', port: h.emu.port},
    })
  })
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await host.call(`android_${name}`, args)
    return {error: result.isError === true, text: (result.content[0] as {text: string}).text}
  }

  beforeEach(() => device().showScreen('portrait'))

  it('a batch asks the screen size once for all its taps, long presses and swipes', async () => {
    const from = mark()
    const run = await runArc(['batch', '--quiet'], {
      env: h.env,
      input: 'tap 500 1000\ntap 600 1100\nlong-press 500 1500\nswipe 500 2000 500 1000\ntap 700 2300\n',
    })
    expect(run.stderr).to.equal('')
    expect(run.code).to.equal(0)
    expect(programs(from)).to.deep.equal([
      'dumpsys window displays',
      'input tap 500',
      'input tap 600',
      'input swipe 500',
      'input swipe 500',
      'input tap 700',
    ])
  })

  it('an arc test flow asks the screen size once for all its taps', async () => {
    const flow = path.join(h.dir, 'taps.flow')
    await writeFile(flow, 'tap 500 1000\ntap 600 1100\nswipe 500 2000 500 1000\n')
    const from = mark()
    const run = await runArc(['test', flow], {env: h.env})
    expect(run.code, run.stderr).to.equal(0)
    expect(programs(from)).to.deep.equal([
      'dumpsys window displays',
      'input tap 500',
      'input tap 600',
      'input swipe 500',
    ])
  })

  it('an MCP server: a screen read renews the geometry, so the taps after it send only the tap', async () => {
    const from = mark()
    expect((await call('get_screen_state', {})).error).to.equal(false)
    const read = mark()
    expect((await call('tap', {x: 100, y: 2300})).text).to.equal('Tap executed at (100, 2300)')
    expect((await call('double_tap', {x: 100, y: 2200})).error).to.equal(false)
    // The double tap is one shell command of two `input tap`s: one round trip.
    expect(programs(read)).to.deep.equal(['input tap 100', 'input tap 100'])
    expect(programs(from)).to.not.include('dumpsys window displays')
  })

  it('a tap that turns the screen: a point off the remembered screen is read again before it is refused or sent', async () => {
    expect((await call('tap', {x: 500, y: 200})).error).to.equal(false)
    expect(device().screenName).to.equal('landscape')
    // Off the portrait screen arc last read (x >= 1080), on the landscape one the tap turned to.
    let from = mark()
    expect((await call('tap', {x: 2000, y: 500})).text).to.equal('Tap executed at (2000, 500)')
    expect(programs(from)).to.deep.equal(['dumpsys window displays', 'input tap 2000'])
    // Off both: refused on the fresh reading (nothing sent), naming the screen as it is now.
    from = mark()
    const refused = await call('tap', {x: 2000, y: 2000})
    expect(refused.error).to.equal(true)
    expect(refused.text).to.contain('(2000, 2000) is off the 2400x1080 screen')
    expect(programs(from)).to.deep.equal(['dumpsys window displays'])
  })

  it("arc's own actions that can reshape the screen forget it: a shell command (wm size), a rotation set", async () => {
    expect((await call('tap', {x: 10, y: 2000})).error).to.equal(false)
    let from = mark()
    await call('shell', {command: ['wm', 'size', '1440x3200']})
    try {
      expect((await call('tap', {x: 1400, y: 3100})).text).to.equal('Tap executed at (1400, 3100)')
      expect(programs(from)).to.deep.equal(['wm size 1440x3200', 'dumpsys window displays', 'input tap 1400'])
    } finally {
      await call('shell', {command: ['wm', 'size', 'reset']})
    }
    from = mark()
    const refused = await call('tap', {x: 1400, y: 3100})
    expect(refused.text).to.contain('is off the 1080x2400 screen')
    expect(programs(from)).to.deep.equal(['dumpsys window displays'])
    await call('tap', {x: 10, y: 2000})
    from = mark()
    await call('rotation', {set: 'auto'})
    await call('tap', {x: 10, y: 2000})
    expect(programs(from)).to.deep.equal(['settings put system', 'dumpsys window displays', 'input tap 10'])
  })

  it('a click is one screen read (the one that resolved its id) and the tap, over MCP and on the command line', async () => {
    const state = await call('get_screen_state', {})
    const id = /^(node_\S+)\t.*Watch in landscape/m.exec(state.text)?.[1]
    expect(id, state.text).to.be.a('string')
    const oneRead = ['dumpsys window -a', 'input tap 540', 'uiautomator dump --windows']
    let from = mark()
    expect((await call('click_element', {element_id: id})).error).to.equal(false)
    // The dump and the window manager's state are read in parallel: either may reach the device first.
    expect(programs(from).sort()).to.deep.equal(oneRead)
    device().showScreen('portrait')
    from = mark()
    const run = await runArc(['click', '--text', 'Watch in landscape'], {env: h.env})
    expect(run.code, run.stderr).to.equal(0)
    expect(programs(from).sort()).to.deep.equal(oneRead)
  })
})
