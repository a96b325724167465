/**
 * What an id named is what the caller was shown. A button whose resource-id is its window's only one keeps its id
 * when its text changes (docs/screen-state.md: an anchored element), so "Follow" and "Following" share an id, and
 * only the remembered record tells them apart. These tests check the record a click is checked against is the one
 * the clicking caller was shown: not forgotten by a later read that did not show the id, and not replaced by
 * another caller's read (another MCP session, another ARC_CALLER).
 */
import {writeFile} from 'node:fs/promises'
import {request} from 'node:http'
import path from 'node:path'

import {buildScreenModel, type Rect} from '@arc-cli/core'
import {Client} from '@modelcontextprotocol/sdk/client/index.js'
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js'
import {expect} from 'chai'

import {startEmulator, type InputEvent} from '@arc-cli/emulator'
import {serveHttp} from '@arc-cli/plugin-mcp'
import {tools as annotateTools} from '@arc-cli/plugin-annotate'
import {tools as screenTools} from '@arc-cli/plugin-screen-state'

import {tools} from '../../src/tools/index.js'
import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {connectMcp} from '@arc-cli/test-support/mcp-client'
import {dumpXml, type NodeSpec} from '@arc-cli/test-support/dump'
import {runArc} from '@arc-cli/test-support/run-arc'

const BUTTON: Rect = [100, 1500, 980, 1650]

/** A profile screen; `button` is its one button's text (none: the button is not there, as while a page loads). */
const profile = (title: string, button?: string): NodeSpec[] => [
  {
    pkg: 'com.example',
    bounds: [0, 0, 1080, 2400],
    children: [
      {cls: 'android.widget.TextView', res: 'com.example:id/title', text: title, bounds: [0, 100, 1080, 200]},
      ...(button === undefined
        ? []
        : [
            {
              cls: 'android.widget.Button',
              res: 'com.example:id/follow',
              text: button,
              attrs: {clickable: 'true'},
              bounds: BUTTON,
            },
          ]),
    ],
  },
]

const TOKEN = 'id-records-token-0123456789abcdef'

const connect = (url: string) => connectMcp(url, TOKEN)

/** An MCP server over HTTP serving the emulator's `devices` (its adb server at `adbPort`) with `served`. */
const serveEmu = (adbPort: number, served = [...tools, ...screenTools], devices = ['emu-1']) =>
  serveHttp({tools: served, config: {}, token: TOKEN, port: 0, devices, adbHost: '127.0.0.1', adbPort})

const textOf = (result: CallToolResult) => (result.content[0] as {text: string}).text

/** The profile screen with its button reading "Follow" and "Following" (and, with `loading`, none), written to `dir`. */
async function followScreens(dir: string, loading = false): Promise<Record<string, string>> {
  const screens: Record<string, string> = {}
  const buttons: Array<[string, string | undefined]> = [
    ['follow', 'Follow'],
    ['following', 'Following'],
    ...(loading ? [['loading', undefined] as [string, undefined]] : []),
  ]
  for (const [name, button] of buttons) {
    screens[name] = path.join(dir, `${name}.xml`)
    await writeFile(screens[name] as string, dumpXml(profile('Ada', button)))
  }
  return screens
}

describe('an id is checked against what the clicking caller was shown', function () {
  this.timeout(120_000)
  const h = useEmulator(async (dir) => {
    const screens = await followScreens(dir, true)
    return {
      devices: [],
      scenario: {
        devices: {
          'emu-1': {
            screens,
          },
        },
      },
    }
  })
  const taps: Array<{screen: string}> = []
  let id: string
  let server: Awaited<ReturnType<typeof serveHttp>>
  const clients: Client[] = []
  const device = () => h.emu.device('emu-1')
  const read = (client: Client) =>
    client.callTool({name: 'android_get_screen_state', arguments: {}}) as Promise<CallToolResult>
  const click = (client: Client) =>
    client.callTool({name: 'android_click_element', arguments: {element_id: id}}) as Promise<CallToolResult>

  before(async () => {
    device().on('input', (event: InputEvent, shown: string) => {
      if (event.type === 'tap') taps.push({screen: shown})
    })
    server = await serveEmu(h.emu.port)
    for (let i = 0; i < 2; i++) clients.push(await connect(server.url))
  })
  after(async () => {
    for (const client of clients) await client.close()
    await server?.close()
  })
  beforeEach(async () => {
    taps.length = 0
    // Each test starts on a fresh server-side record: a read of the loading screen (no button) by both clients.
    device().showScreen('loading')
    for (const client of clients) await read(client)
    // The premise: the button keeps its id whatever it says (its resource-id is its window's only one).
    device().showScreen('following')
    const following = buildScreenModel(await h.capture()).elements.find((e) => e.text === 'Following')?.id
    device().showScreen('follow')
    id = buildScreenModel(await h.capture()).elements.find((e) => e.text === 'Follow')?.id as string
    expect(id).to.be.a('string')
    expect(following).to.equal(id)
  })

  it('one client: an id shown as "Follow", then absent from a later read, is refused when it comes back as "Following"', async () => {
    const [a] = clients as [Client]
    expect(textOf(await read(a))).to.include('\tFollow\t')
    device().showScreen('loading')
    expect(textOf(await read(a))).to.not.include(id.slice(5))
    device().showScreen('following')
    const clicked = await click(a)
    expect(clicked.isError, textOf(clicked)).to.equal(true)
    expect(textOf(clicked)).to.match(/^Error \[STALE_ELEMENT\]: element node_\w+ is stale: it named Button "Follow"/)
    expect(taps).to.deep.equal([])
    // Once the client reads the screen again it has been shown "Following", and the same id acts on it.
    expect(textOf(await read(a))).to.include('\tFollowing\t')
    const again = await click(a)
    expect(again.isError, textOf(again)).to.not.equal(true)
    expect(taps).to.deep.equal([{screen: 'following'}])
  })

  it('two clients: B reading "Following" does not make the "Follow" that A was shown act on "Following"', async () => {
    const [a, b] = clients as [Client, Client]
    expect(textOf(await read(a))).to.include('\tFollow\t')
    device().showScreen('following')
    expect(textOf(await read(b))).to.include('\tFollowing\t')
    const clicked = await click(a)
    expect(clicked.isError, textOf(clicked)).to.equal(true)
    expect(textOf(clicked)).to.match(/^Error \[STALE_ELEMENT\]: element node_\w+ is stale: it named Button "Follow"/)
    expect(taps).to.deep.equal([])
    // B was shown "Following": its click acts.
    const byB = await click(b)
    expect(byB.isError, textOf(byB)).to.not.equal(true)
    expect(taps).to.deep.equal([{screen: 'following'}])
  })

  it('two scripts with their own ARC_CALLER: the one shown "Follow" is refused after the other read "Following"', async () => {
    const env = {...h.env, ARC_CACHE_DIR: path.join(h.dir, `cache-callers`)}
    const shownA = await runArc(['screen-state'], {env: {...env, ARC_CALLER: 'a'}})
    expect(shownA.code, shownA.stderr).to.equal(0)
    expect(shownA.stdout).to.include('\tFollow\t')
    device().showScreen('following')
    const shownB = await runArc(['screen-state'], {env: {...env, ARC_CALLER: 'b'}})
    expect(shownB.code, shownB.stderr).to.equal(0)
    expect(shownB.stdout).to.include('\tFollowing\t')
    const clicked = await runArc(['click', id], {env: {...env, ARC_CALLER: 'a'}})
    expect(clicked.code, clicked.stdout).to.equal(18)
    expect(clicked.stderr).to.match(/STALE_ELEMENT.*it named Button "Follow"/)
    expect(taps).to.deep.equal([])
    const byB = await runArc(['click', id], {env: {...env, ARC_CALLER: 'b'}})
    expect(byB.code, byB.stderr).to.equal(0)
    expect(taps).to.deep.equal([{screen: 'following'}])
  })

  it('CLI: arc assert --json remembers the ids of the elements it shows, as find does', async () => {
    const env = {...h.env, ARC_CACHE_DIR: path.join(h.dir, 'cache-assert')}
    const asserted = await runArc(['assert', 'visible', '--text', 'Follow', '--exact-match', '--json'], {env})
    expect(asserted.code, asserted.stderr).to.equal(0)
    const shown = (JSON.parse(asserted.stdout) as {elements: Array<{id: string}>}).elements.map((e) => e.id)
    expect(shown).to.deep.equal([id])
    device().showScreen('following')
    const clicked = await runArc(['click', id], {env})
    expect(clicked.code, clicked.stdout).to.equal(18)
    expect(clicked.stderr).to.match(/STALE_ELEMENT.*it named Button "Follow"/)
    expect(taps).to.deep.equal([])
  })

  it('MCP: an id another client passed on, looked up with get_element_details, is checked against what details showed', async () => {
    // A client that never read the screen, on a server whose device record does not hold the id either.
    const fresh = await serveEmu(h.emu.port)
    const a = await connect(fresh.url)
    try {
      const details = (await a.callTool({
        name: 'android_get_element_details',
        arguments: {ids: [id]},
      })) as CallToolResult
      expect(textOf(details)).to.include('\tFollow\t')
      device().showScreen('following')
      const clicked = await click(a)
      expect(clicked.isError, textOf(clicked)).to.equal(true)
      expect(textOf(clicked)).to.match(/^Error \[STALE_ELEMENT\]: element node_\w+ is stale: it named Button "Follow"/)
      expect(taps).to.deep.equal([])
    } finally {
      await a.close()
      await fresh.close()
    }
  })
})

describe('ids shown only by an annotated screenshot', function () {
  this.timeout(120_000)
  const h = useEmulator(async (dir) => {
    const screens = await followScreens(dir)
    return {
      devices: [],
      scenario: {
        devices: {
          'emu-1': {screens},
        },
      },
    }
  })
  const taps: string[] = []
  const device = () => h.emu.device('emu-1')
  before(() => {
    device().on('input', (event: InputEvent, shown: string) => {
      if (event.type === 'tap') taps.push(shown)
    })
  })
  beforeEach(() => {
    taps.length = 0
    device().showScreen('follow')
  })

  it('MCP: the "Follow" an agent saw in annotate_screenshot does not tap "Following"', async () => {
    const server = await serveEmu(h.emu.port, [...tools, ...screenTools, ...annotateTools])
    const client = await connect(server.url)
    try {
      const annotated = (await client.callTool({
        name: 'android_annotate_screenshot',
        arguments: {},
      })) as CallToolResult
      expect(annotated.isError, textOf(annotated)).to.not.equal(true)
      const follow = buildScreenModel(await h.capture()).elements.find((e) => e.text === 'Follow')?.id as string
      // The agent was shown the id: on the picture's label and in the map.
      expect(textOf(annotated)).to.include(follow)
      device().showScreen('following')
      const clicked = (await client.callTool({
        name: 'android_click_element',
        arguments: {element_id: follow},
      })) as CallToolResult
      expect(clicked.isError, textOf(clicked)).to.equal(true)
      expect(textOf(clicked)).to.match(/^Error \[STALE_ELEMENT\]: element node_\w+ is stale: it named Button "Follow"/)
      expect(taps).to.deep.equal([])
    } finally {
      await client.close()
      await server.close()
    }
  })

  it('CLI: arc annotate remembers the ids its labels and map name, as screen-state does', async () => {
    const env = {...h.env, ARC_CACHE_DIR: path.join(h.dir, 'cache-annotate')}
    const follow = buildScreenModel(await h.capture()).elements.find((e) => e.text === 'Follow')?.id as string
    const annotated = await runArc(['annotate', '-o', path.join(h.dir, 'shot.png')], {env})
    expect(annotated.code, annotated.stderr).to.equal(0)
    device().showScreen('following')
    const clicked = await runArc(['click', follow], {env})
    expect(clicked.code, clicked.stdout).to.equal(18)
    expect(clicked.stderr).to.match(/STALE_ELEMENT.*it named Button "Follow"/)
    expect(taps).to.deep.equal([])
  })
})

describe('an id shown for one device, used on another', function () {
  this.timeout(120_000)
  const h = useEmulator(async (dir) => {
    const screens = await followScreens(dir)
    return {
      devices: [],
      scenario: {
        devices: {
          pixel: {screens, initialScreen: 'follow'},
          tablet: {screens, initialScreen: 'following'},
        },
      },
    }
  })
  const taps: string[] = []
  before(() => {
    for (const serial of ['pixel', 'tablet'])
      h.emu.device(serial).on('input', (event: InputEvent, shown: string) => {
        if (event.type === 'tap') taps.push(`${serial}:${shown}`)
      })
  })

  it('MCP, two devices: the "Follow" a session was shown on pixel does not tap "Following" on tablet', async () => {
    const server = await serveEmu(h.emu.port, undefined, ['pixel', 'tablet'])
    const client = await connect(server.url)
    try {
      const id = buildScreenModel(await h.capture('pixel')).elements.find((e) => e.text === 'Follow')?.id as string
      // The premise: the tablet's "Following" carries the same id.
      expect(buildScreenModel(await h.capture('tablet')).byId.get(id)?.text).to.equal('Following')
      const read = (await client.callTool({
        name: 'android_get_screen_state',
        arguments: {device: 'pixel'},
      })) as CallToolResult
      expect(textOf(read)).to.include('\tFollow\t')
      const clicked = (await client.callTool({
        name: 'android_click_element',
        arguments: {device: 'tablet', element_id: id},
      })) as CallToolResult
      expect(clicked.isError, textOf(clicked)).to.equal(true)
      expect(textOf(clicked)).to.match(/^Error \[STALE_ELEMENT\]: element node_\w+ was shown for another device/)
      expect(taps).to.deep.equal([])
      // Once the session has read the tablet, the id is the tablet's, and acts there.
      await client.callTool({name: 'android_get_screen_state', arguments: {device: 'tablet'}})
      const again = (await client.callTool({
        name: 'android_click_element',
        arguments: {device: 'tablet', element_id: id},
      })) as CallToolResult
      expect(again.isError, textOf(again)).to.not.equal(true)
      expect(taps).to.deep.equal(['tablet:following'])
    } finally {
      await client.close()
      await server.close()
    }
  })

  // A client that does not send back its Mcp-Session-Id (a plain HTTP client, curl) has no store of its own: its ids
  // were checked against the device's records alone, so one shown on pixel acted on tablet, where no one had read it.
  // As the CLI without ARC_CALLER: an id shown on another device the server serves, and never on this one, is refused.
  it('MCP without a session id: an id shown on pixel does not tap tablet, until the tablet is read', async () => {
    taps.length = 0
    h.emu.device('pixel').showScreen('follow')
    h.emu.device('tablet').showScreen('following')
    const server = await serveEmu(h.emu.port, undefined, ['pixel', 'tablet'])
    let next = 1
    const call = async (name: string, args: Record<string, unknown>) => {
      const answer = await new Promise<string>((resolve, reject) => {
        const req = request(
          server.url,
          {
            method: 'POST',
            headers: {
              authorization: `Bearer ${TOKEN}`,
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
            },
          },
          (res) => {
            let body = ''
            res.on('data', (d) => (body += d))
            res.on('end', () => resolve(body))
          }
        )
        req.on('error', reject)
        req.end(JSON.stringify({jsonrpc: '2.0', id: next++, method: 'tools/call', params: {name, arguments: args}}))
      })
      return (JSON.parse(answer) as {result: CallToolResult}).result
    }
    try {
      const id = buildScreenModel(await h.capture('pixel')).elements.find((e) => e.text === 'Follow')?.id as string
      const read = await call('android_get_screen_state', {device: 'pixel'})
      expect(textOf(read)).to.include('\tFollow\t')
      const clicked = await call('android_click_element', {device: 'tablet', element_id: id})
      expect(clicked.isError, textOf(clicked)).to.equal(true)
      expect(textOf(clicked)).to.match(/^Error \[STALE_ELEMENT\]: element node_\w+ was shown for another device/)
      expect(taps).to.deep.equal([])
      // Once the tablet was read (by any caller without a session), the id is the tablet's, and acts there.
      await call('android_get_screen_state', {device: 'tablet'})
      const again = await call('android_click_element', {device: 'tablet', element_id: id})
      expect(again.isError, textOf(again)).to.not.equal(true)
      expect(taps).to.deep.equal(['tablet:following'])
    } finally {
      await server.close()
    }
  })

  it('CLI, two devices: the "Follow" read with -d pixel does not tap "Following" on -d tablet, until the tablet is read', async () => {
    taps.length = 0
    h.emu.device('pixel').showScreen('follow')
    h.emu.device('tablet').showScreen('following')
    const env = {...h.env, ARC_CACHE_DIR: path.join(h.dir, 'cache-two-devices')}
    const id = buildScreenModel(await h.capture('pixel')).elements.find((e) => e.text === 'Follow')?.id as string
    expect(buildScreenModel(await h.capture('tablet')).byId.get(id)?.text).to.equal('Following')
    const shown = await runArc(['screen-state', '-d', 'pixel'], {env})
    expect(shown.code, shown.stderr).to.equal(0)
    expect(shown.stdout).to.include('\tFollow\t')
    const clicked = await runArc(['click', id, '-d', 'tablet', '--json'], {env})
    expect(clicked.code, clicked.stderr).to.equal(18)
    const refusal = JSON.parse(clicked.stdout) as {error: {code: string; message: string; details: {reason: string}}}
    expect(refusal.error.code).to.equal('STALE_ELEMENT')
    expect(refusal.error.details.reason).to.equal('OTHER_DEVICE')
    expect(refusal.error.message).to.match(/was shown for another device, never for tablet/)
    // In a batch too (the same CLI host), and whatever the caller's name: nothing reaches the tablet.
    const batch = await runArc(['batch'], {env, input: `click ${id} -d tablet\n`})
    expect(batch.code, batch.stdout + batch.stderr).to.not.equal(0)
    expect(batch.stdout + batch.stderr).to.match(/was shown for another device/)
    expect(taps).to.deep.equal([])
    // An id shown on the device itself still acts, on the same app on both.
    const pixelClick = await runArc(['click', id, '-d', 'pixel'], {env})
    expect(pixelClick.code, pixelClick.stderr).to.equal(0)
    expect(taps).to.deep.equal(['pixel:follow'])
    // Once the tablet was read, the id is the tablet's, and acts there.
    expect((await runArc(['screen-state', '-d', 'tablet'], {env})).code).to.equal(0)
    const again = await runArc(['click', id, '-d', 'tablet'], {env})
    expect(again.code, again.stderr).to.equal(0)
    expect(taps).to.deep.equal(['pixel:follow', 'tablet:following'])
  })

  // Two adb servers each with a device of one serial (emulators in containers, each its own emulator-5554 behind its
  // own adb server): the cache kept both under one folder, so a read of the second replaced the records of the first,
  // and the first's "Follow" id, now "Following" there, was tapped as what the caller had been shown.
  it('CLI, one serial on two adb servers: each device its own records; an id shown on one is refused on the other', async () => {
    taps.length = 0
    h.emu.device('pixel').showScreen('follow')
    const other = await startEmulator({
      port: 0,
      devices: [],
      scenario: {devices: {pixel: {screens: await followScreens(h.dir), initialScreen: 'following'}}},
    })
    const otherTaps: string[] = []
    other.device('pixel').on('input', (event: InputEvent, shown: string) => {
      if (event.type === 'tap') otherTaps.push(shown)
    })
    try {
      const env = {...h.env, ARC_CACHE_DIR: path.join(h.dir, 'cache-two-servers')}
      const otherEnv = {...env, ADB_SERVER_SOCKET: `tcp:127.0.0.1:${other.port}`}
      const id = buildScreenModel(await h.capture('pixel')).elements.find((e) => e.text === 'Follow')?.id as string
      expect((await runArc(['screen-state', '-d', 'pixel'], {env})).stdout).to.include('\tFollow\t')
      // The other server's pixel, read: its "Following" is that device's record, not this one's.
      expect((await runArc(['screen-state', '-d', 'pixel'], {env: otherEnv})).stdout).to.include('\tFollowing\t')
      h.emu.device('pixel').showScreen('following')
      const clicked = await runArc(['click', id, '-d', 'pixel'], {env})
      expect(clicked.code, clicked.stderr).to.equal(18)
      expect(clicked.stderr).to.match(/STALE_ELEMENT.*it named Button "Follow"/)
      expect(taps).to.deep.equal([])
      // An id shown for the first server's pixel alone, on the other's showing the same: another device's id.
      h.emu.device('pixel').showScreen('follow')
      other.device('pixel').showScreen('follow')
      const fresh = await runArc(['screen-state', '-d', 'pixel'], {
        env: {...env, ARC_CACHE_DIR: path.join(h.dir, 'c2')},
      })
      expect(fresh.code, fresh.stderr).to.equal(0)
      const elsewhere = await runArc(['click', id, '-d', 'pixel', '--json'], {
        env: {...otherEnv, ARC_CACHE_DIR: path.join(h.dir, 'c2')},
      })
      expect(elsewhere.code, elsewhere.stdout).to.equal(18)
      expect(JSON.parse(elsewhere.stdout).error.details.reason).to.equal('OTHER_DEVICE')
      expect(otherTaps).to.deep.equal([])
    } finally {
      await other.close()
    }
  })

  it('CLI: an id no device of the cache was shown (typed from a flow) still gets the on-screen check only', async () => {
    taps.length = 0
    h.emu.device('tablet').showScreen('following')
    const env = {...h.env, ARC_CACHE_DIR: path.join(h.dir, 'cache-by-hand')}
    const id = buildScreenModel(await h.capture('tablet')).elements.find((e) => e.text === 'Following')?.id as string
    const clicked = await runArc(['click', id, '-d', 'tablet'], {env})
    expect(clicked.code, clicked.stderr).to.equal(0)
    expect(taps).to.deep.equal(['tablet:following'])
  })
})

describe('ids within one batch when the cache folder cannot be written', function () {
  this.timeout(120_000)
  const h = useEmulator(async (dir) => {
    const screens = await followScreens(dir)
    return {
      devices: [],
      scenario: {
        devices: {
          'emu-1': {
            screens,
            // Something the batch does turns the button: here BACK, as any app may on any key.
            transitions: [{from: 'follow', keyevent: 'BACK', to: 'following'}],
          },
        },
      },
    }
  })
  const taps: string[] = []
  before(() => {
    h.emu.device('emu-1').on('input', (event: InputEvent, shown: string) => {
      if (event.type === 'tap') taps.push(shown)
    })
  })

  it('the records kept in memory serve every line of the batch: "Follow" read on line 1 does not tap "Following" on line 3', async () => {
    const id = buildScreenModel(await h.capture()).elements.find((e) => e.text === 'Follow')?.id as string
    const env = {...h.env, ARC_CACHE_DIR: '/proc/arc-review5-unwritable'}
    const run = await runArc(['batch'], {env, input: `screen-state\npress back\nclick ${id}\n`})
    expect(run.stderr).to.include('cannot write its cache folder')
    expect(taps).to.deep.equal([])
    expect(run.code, run.stdout + run.stderr).to.equal(18)
  })
})

/**
 * An inbox whose rows are labelled by their sender (the first titled text), with the subject below and a delete
 * button of no words of its own. `mails` are [sender, subject] pairs, top to bottom.
 */
const inbox = (mails: Array<[string, string]>): NodeSpec[] => [
  {
    pkg: 'com.example.mail',
    bounds: [0, 0, 1080, 2400],
    children: [
      {
        cls: 'androidx.recyclerview.widget.RecyclerView',
        res: 'com.example.mail:id/list',
        attrs: {scrollable: 'true'},
        bounds: [0, 200, 1080, 2200],
        children: mails.map(([sender, subject], i): NodeSpec => {
          const top = 200 + i * 200
          return {
            cls: 'android.widget.LinearLayout',
            res: 'com.example.mail:id/row',
            attrs: {clickable: 'true'},
            bounds: [0, top, 1080, top + 200],
            children: [
              {
                cls: 'android.widget.TextView',
                res: 'com.example.mail:id/sender',
                text: sender,
                bounds: [40, top + 20, 900, top + 100],
              },
              {
                cls: 'android.widget.TextView',
                res: 'com.example.mail:id/subject',
                text: subject,
                bounds: [40, top + 100, 900, top + 180],
              },
              {
                cls: 'android.widget.ImageButton',
                res: 'com.example.mail:id/delete',
                desc: 'Delete',
                attrs: {clickable: 'true'},
                bounds: [920, top + 40, 1040, top + 160],
              },
            ],
          }
        }),
      },
    ],
  },
]

/**
 * A feed whose rows are labelled by their content-desc, each with a date line above its subject (texts of no
 * resource-id) and a delete button; `clipped`: the first row's date line is scrolled above the list's top edge,
 * so the dump leaves it out.
 */
const feed = (clipped: boolean): NodeSpec[] => [
  {
    pkg: 'com.example.feed',
    bounds: [0, 0, 1080, 2400],
    children: [
      {
        cls: 'androidx.recyclerview.widget.RecyclerView',
        res: 'com.example.feed:id/list',
        attrs: {scrollable: 'true'},
        bounds: [0, 200, 1080, 2200],
        children: ['PR #1 merged', 'PR #2 closed'].map((subject, i): NodeSpec => {
          const top = (clipped ? 120 : 200) + i * 200
          const date: NodeSpec = {cls: 'android.widget.TextView', text: 'Yesterday', bounds: [40, top, 900, top + 80]}
          return {
            cls: 'android.widget.LinearLayout',
            desc: `Mail ${i + 1}`,
            attrs: {clickable: 'true'},
            bounds: [0, Math.max(200, top), 1080, top + 200],
            children: [
              ...(clipped && i === 0 ? [] : [date]),
              {cls: 'android.widget.TextView', text: subject, bounds: [40, top + 100, 900, top + 180]},
              {
                cls: 'android.widget.ImageButton',
                res: 'com.example.feed:id/delete',
                desc: 'Delete',
                attrs: {clickable: 'true'},
                bounds: [920, top + 100, 1040, top + 180],
              },
            ],
          }
        }),
      },
    ],
  },
]

describe('an id in a list row names that row, not another with the same label in its place', function () {
  this.timeout(120_000)
  const screens: Record<string, Array<[string, string]>> = {
    // One mail from GitHub among others; then, in its place, another mail from GitHub (a row reused for it).
    merged: [
      ['Ada', 'Lunch?'],
      ['GitHub', 'PR #1 merged'],
      ['Bob', 'Hi'],
    ],
    closed: [
      ['Ada', 'Lunch?'],
      ['GitHub', 'PR #2 closed'],
      ['Bob', 'Hi'],
    ],
    // Another mail that differs from the first only by its number.
    merged2: [
      ['Ada', 'Lunch?'],
      ['GitHub', 'PR #2 merged'],
      ['Bob', 'Hi'],
    ],
    // Three mails from GitHub, whose delete buttons are look-alikes counted by place; then the list scrolled by one
    // row, a fourth arriving at the bottom: the same places show the same sender.
    three: [
      ['GitHub', 'one'],
      ['GitHub', 'two'],
      ['GitHub', 'three'],
    ],
    scrolled: [
      ['GitHub', 'two'],
      ['GitHub', 'three'],
      ['GitHub', 'four'],
    ],
    // Timers whose time ticks below their label: the same rows a second later.
    ticking: [
      ['Tea', '04:59 left'],
      ['Eggs', '09:10 left'],
    ],
    ticked: [
      ['Tea', '04:58 left'],
      ['Eggs', '09:09 left'],
    ],
  }
  const h = useEmulator(async (dir) => {
    const files: Record<string, string> = {}
    for (const [name, mails] of Object.entries(screens)) {
      files[name] = path.join(dir, `${name}.xml`)
      await writeFile(files[name] as string, dumpXml(inbox(mails)))
    }
    for (const clipped of [true, false]) {
      const name = clipped ? 'feed-clipped' : 'feed'
      files[name] = path.join(dir, `${name}.xml`)
      await writeFile(files[name] as string, dumpXml(feed(clipped)))
    }
    return {devices: [], scenario: {devices: {'emu-1': {screens: files}}}}
  })
  const taps: string[] = []
  const device = () => h.emu.device('emu-1')
  before(() => {
    device().on('input', (event: InputEvent, shown: string) => {
      if (event.type === 'tap') taps.push(shown)
    })
  })
  beforeEach(() => {
    taps.length = 0
  })

  /** The id of the delete button in the row of `subject`, on the screen shown now. */
  async function deleteOf(subject: string): Promise<string> {
    const model = buildScreenModel(await h.capture())
    const row = model.elements.find((e) => e.text === subject)?.node.parent
    const id = model.elements.find((e) => e.desc === 'Delete' && e.node.parent === row)?.id
    expect(id, subject).to.be.a('string')
    return id as string
  }

  it('CLI: the delete button read in the row of "PR #1 merged" does not delete "PR #2 closed" shown in its place', async () => {
    const env = {...h.env, ARC_CACHE_DIR: path.join(h.dir, 'cache-reused-row')}
    device().showScreen('merged')
    const id = await deleteOf('PR #1 merged')
    const shown = await runArc(['screen-state'], {env})
    expect(shown.code, shown.stderr).to.equal(0)
    device().showScreen('closed')
    // The premise: the other mail's delete button has the same id (the row's label is its sender).
    expect(await deleteOf('PR #2 closed')).to.equal(id)
    const clicked = await runArc(['click', id], {env})
    expect(taps).to.deep.equal([])
    expect(clicked.code, clicked.stdout + clicked.stderr).to.equal(18)
    expect(clicked.stderr).to.match(/STALE_ELEMENT.*shows other words than when it was read/)
    // Read again, the id names the row shown now, and acts.
    expect((await runArc(['screen-state'], {env})).code).to.equal(0)
    const again = await runArc(['click', id], {env})
    expect(again.code, again.stderr).to.equal(0)
    expect(taps).to.deep.equal(['closed'])
  })

  // Digits were once left out of the comparison so that a ticking row kept its ids: then a mail that differs from
  // the one read only by its number ("PR #2 merged" for "PR #1 merged") was deleted in its place. A number is often
  // all that tells two rows apart (an order, an amount, two timers both named "Timer"), so it is compared: a row that
  // ticks has its ids refused at each change, and a read made after it acts.
  it('CLI: a row that differs only by a number is another row; a ticking row is refused, then acts once read again', async () => {
    const env = {...h.env, ARC_CACHE_DIR: path.join(h.dir, 'cache-numbered-row')}
    device().showScreen('merged')
    const id = await deleteOf('PR #1 merged')
    expect((await runArc(['screen-state'], {env})).code).to.equal(0)
    device().showScreen('merged2')
    expect(await deleteOf('PR #2 merged')).to.equal(id)
    const other = await runArc(['click', id], {env})
    expect(other.code, other.stdout + other.stderr).to.equal(18)
    expect(other.stderr).to.match(/STALE_ELEMENT.*shows other words than when it was read/)
    expect(taps).to.deep.equal([])

    const ticking = {...h.env, ARC_CACHE_DIR: path.join(h.dir, 'cache-ticking-row')}
    device().showScreen('ticking')
    const timer = await deleteOf('04:59 left')
    expect((await runArc(['screen-state'], {env: ticking})).code).to.equal(0)
    device().showScreen('ticked')
    expect(await deleteOf('04:58 left')).to.equal(timer)
    const stale = await runArc(['click', timer], {env: ticking})
    expect(stale.code, stale.stdout + stale.stderr).to.equal(18)
    expect(taps).to.deep.equal([])
    expect((await runArc(['screen-state'], {env: ticking})).code).to.equal(0)
    const clicked = await runArc(['click', timer], {env: ticking})
    expect(clicked.code, clicked.stdout + clicked.stderr).to.equal(0)
    expect(taps).to.deep.equal(['ticked'])
  })

  it('CLI: a row read with its top line clipped at the list edge keeps its ids once scrolled whole: its button acts', async () => {
    const env = {...h.env, ARC_CACHE_DIR: path.join(h.dir, 'cache-clipped-row')}
    device().showScreen('feed-clipped')
    const id = await deleteOf('PR #1 merged')
    expect((await runArc(['screen-state'], {env})).code).to.equal(0)
    device().showScreen('feed')
    expect(await deleteOf('PR #1 merged')).to.equal(id)
    const clicked = await runArc(['click', id], {env})
    expect(clicked.code, clicked.stdout + clicked.stderr).to.equal(0)
    expect(taps).to.deep.equal(['feed'])
  })

  it('MCP: the look-alike delete button counted first in three mails from one sender does not act after the list scrolled by one row', async () => {
    const server = await serveEmu(h.emu.port)
    const client = await connect(server.url)
    try {
      device().showScreen('three')
      const id = await deleteOf('one')
      expect(id).to.match(/-1$/)
      const read = (await client.callTool({name: 'android_get_screen_state', arguments: {}})) as CallToolResult
      expect(textOf(read)).to.include(id)
      device().showScreen('scrolled')
      // The premise: the same ordinal names the first row's button, now the mail "two".
      expect(await deleteOf('two')).to.equal(id)
      const clicked = (await client.callTool({
        name: 'android_click_element',
        arguments: {element_id: id},
      })) as CallToolResult
      expect(taps).to.deep.equal([])
      expect(clicked.isError, textOf(clicked)).to.equal(true)
      expect(textOf(clicked)).to.match(/^Error \[STALE_ELEMENT\]: .*shows other words than when it was read/)
    } finally {
      await client.close()
      await server.close()
    }
  })
})

describe('an edit field that hid what is typed, and shows it now', function () {
  this.timeout(120_000)
  /** A sign-in step with one field and no hint, hiding its text (`hidden`) or showing it. */
  const signIn = (hidden: boolean): NodeSpec[] => [
    {
      pkg: 'com.example',
      bounds: [0, 0, 1080, 2400],
      children: [
        {
          cls: 'android.widget.EditText',
          res: 'com.example:id/field',
          attrs: {clickable: 'true', focusable: 'true', password: String(hidden)},
          bounds: [40, 800, 1040, 950],
        },
      ],
    },
  ]
  const h = useEmulator(async (dir) => {
    const files: Record<string, string> = {}
    for (const [name, hidden] of [
      ['hidden', true],
      ['shown', false],
    ] as const) {
      files[name] = path.join(dir, `${name}.xml`)
      await writeFile(files[name] as string, dumpXml(signIn(hidden)))
    }
    return {devices: [], scenario: {devices: {'emu-1': {screens: files}}}}
  })
  const events: InputEvent[] = []
  before(() => {
    h.emu.device('emu-1').on('input', (event: InputEvent) => events.push(event))
  })

  it('CLI: a secret for the password field read is not typed into it once it shows its text', async () => {
    const env = {...h.env, ARC_CACHE_DIR: path.join(h.dir, 'cache-password')}
    const device = h.emu.device('emu-1')
    device.showScreen('hidden')
    const id = buildScreenModel(await h.capture()).elements.find((e) => e.resId === 'com.example:id/field')?.id
    expect(id).to.be.a('string')
    expect((await runArc(['screen-state'], {env})).code).to.equal(0)
    device.showScreen('shown')
    // The premise: the field keeps its id whether it hides its text or not.
    expect(buildScreenModel(await h.capture()).byId.has(id as string)).to.equal(true)
    const typed = await runArc(['type', 'append', id as string, 'hunter2'], {env})
    expect(events).to.deep.equal([])
    expect(typed.code, typed.stdout + typed.stderr).to.equal(18)
    expect(typed.stderr).to.match(/STALE_ELEMENT.*a password field → a field that shows its text/)
  })
})

describe('a toggle that flipped between the read and the click', function () {
  this.timeout(120_000)
  /** A settings screen with one checkbox, checked or not. */
  const settings = (checked: boolean): NodeSpec[] => [
    {
      pkg: 'com.example',
      bounds: [0, 0, 1080, 2400],
      children: [
        {
          cls: 'android.widget.CheckBox',
          res: 'com.example:id/backups',
          text: 'Keep backups',
          attrs: {clickable: 'true', checkable: 'true', checked: String(checked)},
          bounds: [40, 800, 1040, 950],
        },
      ],
    },
  ]
  const h = useEmulator(async (dir) => {
    const files: Record<string, string> = {}
    for (const [name, checked] of [
      ['off', false],
      ['on', true],
    ] as const) {
      files[name] = path.join(dir, `${name}.xml`)
      await writeFile(files[name] as string, dumpXml(settings(checked)))
    }
    return {devices: [], scenario: {devices: {'emu-1': {screens: files}}}}
  })
  const taps: string[] = []
  before(() => {
    h.emu.device('emu-1').on('input', (event: InputEvent, shown: string) => {
      if (event.type === 'tap') taps.push(shown)
    })
  })

  it('MCP: the checkbox an agent was shown unchecked is not tapped (unchecked) after another client checked it', async () => {
    const device = h.emu.device('emu-1')
    device.showScreen('off')
    const id = buildScreenModel(await h.capture()).elements.find((e) => e.text === 'Keep backups')?.id as string
    const server = await serveEmu(h.emu.port)
    const client = await connect(server.url)
    try {
      const read = (await client.callTool({name: 'android_get_screen_state', arguments: {}})) as CallToolResult
      expect(textOf(read)).to.include(id)
      device.showScreen('on')
      // The premise: the checkbox keeps its id whether checked or not.
      expect(buildScreenModel(await h.capture()).byId.has(id)).to.equal(true)
      const clicked = (await client.callTool({
        name: 'android_click_element',
        arguments: {element_id: id},
      })) as CallToolResult
      expect(taps).to.deep.equal([])
      expect(clicked.isError, textOf(clicked)).to.equal(true)
      expect(textOf(clicked)).to.match(/^Error \[STALE_ELEMENT\]: .*unchecked → checked/)
      // Read again, the caller has seen it checked, and its click acts.
      await client.callTool({name: 'android_get_screen_state', arguments: {}})
      const again = (await client.callTool({
        name: 'android_click_element',
        arguments: {element_id: id},
      })) as CallToolResult
      expect(again.isError, textOf(again)).to.not.equal(true)
      expect(taps).to.deep.equal(['on'])
    } finally {
      await client.close()
      await server.close()
    }
  })
})
