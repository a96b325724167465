/**
 * The contract between the two surfaces: every tool run through the CLI adapter (the oclif command, in process)
 * and through the MCP server (the SDK client over HTTP) against the same `arc emulate` device gives the same text
 * (or, for a tool whose CLI prints a table in place of the spec's JSON, the same data) and sends the device the
 * same commands. A new tool joins with one row.
 */
import {chmodSync, mkdirSync, mkdtempSync, writeFileSync} from 'node:fs'
import {request} from 'node:http'
import os from 'node:os'
import path from 'node:path'

import {buildScreenModel, DEMO_DIR, SnapshotDriver} from '@arc-cli/core'
import type {StartedHttp} from '@arc-cli/plugin-mcp'
import {startEmulator, type Emulator} from '@arc-cli/emulator'
import type {Client} from '@modelcontextprotocol/sdk/client/index.js'
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js'
import {runCommand} from '@oclif/test'
import {expect} from 'chai'

import {forgetScreenGeometry} from '@arc-cli/core/testing'
import {sourceOptions} from '@arc-cli/test-support/source-config'
import {connect, startServer, TOKEN} from './support.js'

interface Row {
  /** The spec name (MCP: android_<name>). */
  tool: string
  args: Record<string, unknown>
  /** The same call as CLI words. */
  cli: string[]
  /**
   * The tool's MCP text is the spec's JSON, and the CLI prints a table or plain lines in its place (`human`), so
   * the two texts differ by design: the CLI runs with --json, and its JSON must equal MCP's structured content,
   * the data both renderings come from. The human text is checked in the tool's own tests.
   */
  data?: true
  /**
   * With `data`: the CLI's JSON gives the elements in the command line's one shape (docs/json.md: class, desc,
   * res_id, flags) where MCP keeps the spec's (className, contentDescription, resourceId, booleans): the two must
   * list the same elements (id, text, description, resource id, bounds), each in its own shape.
   */
  elements?: true
}

/** Ids of the demo screen, as the screen model (and so get_screen_state) gives them. */
const demo = buildScreenModel(await (await SnapshotDriver.open(DEMO_DIR)).captureScreen())
const idOf = (res: string) => demo.elements.find((e) => e.resId.endsWith(`:id/${res}`))?.id as string
const ADD = idOf('add_button')
const FIELD = idOf('new_item')
const LIST = idOf('items')

const ROWS: Row[] = [
  {tool: 'get_screen_state', args: {}, cli: ['screen-state']},
  {tool: 'list_devices', args: {}, cli: ['devices']},
  {tool: 'tap', args: {x: 500, y: 1000}, cli: ['tap', '500', '1000']},
  {tool: 'long_press', args: {x: 5, y: 6, duration: 2000}, cli: ['long-press', '5', '6', '--duration', '2000']},
  {tool: 'double_tap', args: {x: 7, y: 8}, cli: ['double-tap', '7', '8']},
  {tool: 'swipe', args: {x1: 500, y1: 1500, x2: 500, y2: 500}, cli: ['swipe', '500', '1500', '500', '500']},
  {tool: 'scroll', args: {direction: 'down', amount: 'large'}, cli: ['scroll', 'down', '--amount', 'large']},
  {tool: 'scroll', args: {direction: 'up', element_id: LIST}, cli: ['scroll', 'up', '--element-id', LIST]},
  {tool: 'press_back', args: {}, cli: ['press', 'back']},
  {tool: 'press_home', args: {}, cli: ['press', 'home']},
  {tool: 'press_recents', args: {}, cli: ['press', 'recents']},
  {tool: 'press_key', args: {key: 'ENTER'}, cli: ['press', 'key', 'ENTER']},
  {tool: 'open_notifications', args: {}, cli: ['notifications']},
  {tool: 'open_quick_settings', args: {}, cli: ['quick-settings']},
  {tool: 'open_app', args: {package_id: 'com.android.settings'}, cli: ['app', 'open', 'com.android.settings']},
  {tool: 'close_app', args: {package_id: 'com.android.settings'}, cli: ['app', 'close', 'com.android.settings']},
  {
    tool: 'list_apps',
    args: {filter: 'system', name_query: 'settings'},
    cli: ['app', 'list', '--filter', 'system', '--name-query', 'settings'],
    data: true,
  },
  {
    tool: 'get_device_logs',
    args: {last_lines: 5, level: 'I'},
    cli: ['logs', '--last-lines', '5', '--level', 'I'],
    data: true,
  },
  // Files in the emulator's /data/local/tmp (the `tmp` location); each call leaves the device as it found it.
  {tool: 'list_storage_locations', args: {}, cli: ['files', 'locations'], data: true},
  {
    tool: 'write_file',
    args: {location_id: 'tmp', path: 'contract.txt', content: 'hello\n'},
    cli: ['files', 'write', 'tmp', 'contract.txt', '--content', 'hello\n'],
  },
  {tool: 'list_files', args: {location_id: 'tmp'}, cli: ['files', 'list', 'tmp'], data: true},
  {tool: 'read_file', args: {location_id: 'tmp', path: 'contract.txt'}, cli: ['files', 'read', 'tmp', 'contract.txt']},
  {
    tool: 'file_replace',
    args: {location_id: 'tmp', path: 'contract.txt', old_string: 'hello', new_string: 'hello', replace_all: true},
    cli: ['files', 'replace', 'tmp', 'contract.txt', '--old-string', 'hello', '--new-string', 'hello', '--replace-all'],
  },
  {tool: 'get_clipboard', args: {}, cli: ['clipboard', 'get'], data: true},
  {tool: 'set_clipboard', args: {text: 'x'}, cli: ['clipboard', 'set', 'x']},
  {tool: 'pinch', args: {center_x: 540, center_y: 1200, scale: 2}, cli: ['pinch', '540', '1200', '2']},
  {tool: 'doctor', args: {}, cli: ['doctor']},
  // Elements of the demo screen, by the ids get_screen_state shows for it.
  {tool: 'find_elements', args: {by: 'text', value: 'ADD'}, cli: ['find', 'text', 'ADD'], data: true, elements: true},
  {tool: 'click_element', args: {element_id: ADD}, cli: ['click', ADD]},
  {tool: 'long_click_element', args: {element_id: ADD}, cli: ['long-click', ADD]},
  {tool: 'scroll_to_element', args: {element_id: ADD}, cli: ['scroll-to', ADD]},
  {tool: 'get_element_details', args: {ids: [ADD]}, cli: ['details', '--ids', ADD]},
  {tool: 'type_clear_text', args: {element_id: FIELD}, cli: ['type', 'clear', FIELD]},
  {
    tool: 'open_url',
    args: {url: 'https://example.com/?q=a&b=c'},
    cli: ['app', 'open-url', 'https://example.com/?q=a&b=c'],
  },
  {tool: 'clear_app_data', args: {package_id: 'com.android.settings'}, cli: ['app', 'clear', 'com.android.settings']},
  {
    tool: 'grant_permission',
    args: {package_id: 'com.android.settings', permission: 'CAMERA'},
    cli: ['app', 'grant', 'com.android.settings', 'CAMERA'],
  },
  {
    tool: 'revoke_permission',
    args: {package_id: 'com.android.settings', permission: 'CAMERA'},
    cli: ['app', 'revoke', 'com.android.settings', 'CAMERA'],
  },
  {tool: 'device_info', args: {}, cli: ['device', 'info']},
  {tool: 'rotation', args: {}, cli: ['device', 'rotation']},
  {tool: 'wake', args: {}, cli: ['device', 'wake']},
  {tool: 'unlock', args: {}, cli: ['device', 'unlock']},
  {tool: 'shell', args: {command: ['echo', 'hi']}, cli: ['shell', '--', 'echo', 'hi']},
  // Failures match too: the same message, and nothing sent to the device.
  {tool: 'tap', args: {x: -1, y: 5}, cli: ['tap', '--', '-1', '5']},
  {tool: 'open_app', args: {package_id: 'not a package'}, cli: ['app', 'open', 'not a package']},
  {
    tool: 'delete_file',
    args: {location_id: 'tmp', path: 'missing.txt'},
    cli: ['files', 'delete', 'tmp', 'missing.txt'],
  },
  {
    tool: 'read_file',
    args: {location_id: 'tmp', path: 'app-data/notes.txt'},
    cli: ['files', 'read', 'tmp', 'app-data/notes.txt'],
  },
  {
    tool: 'download_from_url',
    args: {location_id: 'tmp', path: 'x.bin', url: 'http://127.0.0.1:9/x'},
    cli: ['files', 'download', 'tmp', 'x.bin', 'http://127.0.0.1:9/x'],
  },
  {
    tool: 'type_replace_text',
    args: {element_id: FIELD, search: 'zzz', new_text: 'y'},
    cli: ['type', 'replace', FIELD, 'zzz', 'y'],
  },
  {tool: 'install_app', args: {apk: '/no/such/app.apk'}, cli: ['app', 'install', '/no/such/app.apk']},
  {tool: 'uninstall_app', args: {package_id: 'com.example.absent'}, cli: ['app', 'uninstall', 'com.example.absent']},
]

/** Tools without a row, and why: nothing else may be missing. */
const NO_ROW: Record<string, string> = {
  annotate_screenshot: 'the CLI writes the image to a file and prints its path; server.test.ts checks the inline image',
  screenshot: 'the CLI writes the image to a file and prints its path; screenshot.test.ts checks the inline image',
  screenrecord: 'runs until stopped and writes a file on the CLI; screenrecord.test.ts covers both ends',
  append_file: 'the CLI call changes the file the MCP call then appends to, so the two results differ by design',
  type_append_text: 'the CLI call types into the field the MCP call then reads back, so the two read-backs differ',
  type_insert_text: 'the CLI call types into the field the MCP call then reads back, so the two read-backs differ',
  wait_for_element: 'its result carries the elapsed time, which differs between two calls',
  wait_for_idle: 'its result carries the elapsed time, which differs between two calls',
  custom_gesture:
    'paths are one JSON value per --paths flag on the CLI; gestures.test.ts checks the event stream of both',
}

describe('CLI and MCP give the same text and the same device commands (arc emulate)', () => {
  let emu: Emulator
  let server: StartedHttp
  let client: Client
  const saved = {
    socket: process.env.ADB_SERVER_SOCKET,
    serial: process.env.ANDROID_SERIAL,
    env: process.env.NODE_ENV,
    config: process.env.ARC_CONFIG,
  }

  before(async () => {
    emu = await startEmulator({port: 0, devices: [{serial: 'emu-1', snapshot: DEMO_DIR}]})
    // A device that writes the demo's `hint` attributes (Android 16+), so the field's id is the snapshot's.
    emu.device('emu-1').properties.set('ro.build.version.sdk', '36')
    // An app's data folder in the `tmp` location: 0700, so the device's shell user may not look inside it.
    const appData = path.join(emu.device('emu-1').files.root, 'data/local/tmp/app-data')
    mkdirSync(appData)
    writeFileSync(path.join(appData, 'notes.txt'), 'private\n')
    chmodSync(appData, 0o700)
    // The file the write rows write, there before both surfaces: a write over an existing file keeps its mode (a
    // chmod before the rename) and a new file's needs none, so the CLI's write and MCP's must both find one.
    writeFileSync(path.join(emu.device('emu-1').files.root, 'data/local/tmp/contract.txt'), 'old\n', {mode: 0o644})
    // install_app is served only with an APK folder: both surfaces get the same one, the CLI through its config.
    const apkFolder = mkdtempSync(path.join(os.tmpdir(), 'arc-contract-apks-'))
    const configFile = path.join(apkFolder, 'contract.arcrc.json')
    writeFileSync(configFile, JSON.stringify({apps: {apkFolder}}))
    server = await startServer({
      devices: [],
      adbHost: '127.0.0.1',
      adbPort: emu.port,
      config: {apps: {apkFolder}},
      configFile,
    })
    process.env.ARC_CONFIG = configFile
    client = await connect(server.url)
    process.env.ADB_SERVER_SOCKET = `tcp:127.0.0.1:${emu.port}`
    delete process.env.ANDROID_SERIAL
    process.env.NODE_ENV = 'development'
  })
  after(async () => {
    for (const [key, value] of [
      ['ADB_SERVER_SOCKET', saved.socket],
      ['ANDROID_SERIAL', saved.serial],
      ['NODE_ENV', saved.env],
      ['ARC_CONFIG', saved.config],
    ] as const) {
      if (value === undefined) delete process.env[key]
      else process.env[key] = value
    }
    await client?.close()
    await server?.close()
    await emu?.close()
  })

  it('has a row for every tool the server offers', async () => {
    const names = (await client.listTools()).tools.map((t) => t.name.replace(/^android_/, ''))
    const covered = new Set([...ROWS.map((r) => r.tool), ...Object.keys(NO_ROW)])
    expect(
      names.filter((n) => !covered.has(n)),
      'add a row to ROWS for these'
    ).to.deep.equal([])
  })

  const argvSince = (from: number) => emu.commands.slice(from).map((c) => c.argv)

  it('a client that disconnects mid-call cancels it: the device command is cut off', async () => {
    emu.device('emu-1').hangNext('input')
    const from = emu.commands.length
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: {name: 'android_tap', arguments: {x: 1, y: 2}},
    })
    const req = request(server.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${TOKEN}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
    })
    req.on('error', () => undefined)
    req.end(body)
    const deadline = Date.now() + 10_000
    while (!argvSince(from).some((a) => a[0] === 'input') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20))
    expect(emu.runningShells()).to.have.length(1)
    req.destroy()
    while (emu.runningShells().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
    expect(emu.runningShells()).to.deep.equal([])
  })

  it('a file the device keeps from its shell user is an isError result with DEVICE_ACCESS_DENIED and its exit code', async () => {
    const result = (await client.callTool({
      name: 'android_read_file',
      arguments: {location_id: 'tmp', path: 'app-data/notes.txt'},
    })) as CallToolResult
    expect(result.isError).to.equal(true)
    expect((result.content[0] as {text: string}).text).to.match(
      /^Error \[DEVICE_ACCESS_DENIED\]: permission denied on emu-1: .* \/data\/local\/tmp\/app-data\/notes\.txt,/
    )
    expect((result.structuredContent as {error: Record<string, unknown>}).error).to.include({
      code: 'DEVICE_ACCESS_DENIED',
      exitCode: 19,
    })
    const missing = (await client.callTool({
      name: 'android_read_file',
      arguments: {location_id: 'tmp', path: 'no-such.txt'},
    })) as CallToolResult
    expect((missing.structuredContent as {error: Record<string, unknown>}).error).to.include({
      code: 'NOT_FOUND',
      exitCode: 14,
    })
  })

  for (const row of ROWS) {
    it(`${row.tool} ${JSON.stringify(row.args)} = arc ${row.cli.join(' ')}`, async () => {
      // Both surfaces start from a device whose screen geometry this process has not read, as a CLI process does:
      // a server that read it before sends one command fewer (test/adb/screen-geometry.test.ts).
      forgetScreenGeometry()
      let from = emu.commands.length
      const cli = await runCommand(row.data ? [...row.cli, '--json'] : row.cli, await sourceOptions())
      const cliArgv = argvSince(from)
      forgetScreenGeometry()
      from = emu.commands.length
      const mcp = (await client.callTool({name: `android_${row.tool}`, arguments: row.args})) as CallToolResult
      const mcpArgv = argvSince(from)
      const mcpText = (mcp.content[0] as {text: string}).text
      if (cli.error) {
        // The CLI prints `Error [CODE]: message` on stderr; MCP returns the same as an isError result (it names
        // fields as the agent sent them, the CLI as flags or arguments).
        expect(mcp.isError, mcpText).to.equal(true)
        // (With --json the CLI's error is JSON on stdout.)
        const code = row.data
          ? (JSON.parse(cli.stdout) as {error: {code: string}}).error.code
          : /\[([A-Z_]+)\]/.exec(cli.stderr)?.[1]
        expect(mcpText).to.match(new RegExp(`^Error \\[${code}\\]: `))
      } else if (row.data) {
        expect(mcp.isError, mcpText).to.equal(undefined)
        // Free space is the host disk's under the emulator's files, which other processes change between the calls.
        const steady = (data: unknown) =>
          JSON.parse(JSON.stringify(data).replace(/"available_bytes":\d+/g, '"available_bytes":"N"'))
        if (row.elements) {
          type Bounds = Record<string, number>
          const cliElements = (JSON.parse(cli.stdout) as {elements: Array<Record<string, unknown>>}).elements
          const mcpElements = (mcp.structuredContent as {elements: Array<Record<string, unknown>>}).elements
          for (const e of cliElements)
            expect(Object.keys(e)).to.include.members(['id', 'class', 'text', 'desc', 'res_id', 'bounds', 'flags'])
          expect(cliElements.map((e) => [e.id, e.text, e.desc, e.res_id, e.bounds as Bounds])).to.deep.equal(
            mcpElements.map((e) => [e.id, e.text, e.contentDescription, e.resourceId, e.bounds as Bounds])
          )
          expect(
            mcpElements.every((e) => typeof e.clickable === 'boolean' && typeof e.className === 'string')
          ).to.equal(true)
        } else expect(steady(JSON.parse(cli.stdout))).to.deep.equal(steady(mcp.structuredContent))
        // MCP keeps the spec's text: JSON an agent parses.
        expect(() => JSON.parse(mcpText)).not.to.throw()
      } else {
        expect(mcp.isError, mcpText).to.equal(undefined)
        // doctor's costs are measured on each call: the same line, other milliseconds.
        const steadyText = (t: string) =>
          t.replace(/^costs \(measured now\): .*$/m, (line) => line.replace(/\b\d+ ms\b/g, 'N ms'))
        expect(steadyText(mcpText)).to.equal(steadyText(cli.stdout.replace(/\n$/, '')))
      }
      // A screen capture runs its device commands in parallel, so their order varies; the set must not.
      // Atomic writes push to a temporary name with random hex in it: the same command, another name.
      const sorted = (argv: string[][]) =>
        argv.map((a) => JSON.stringify(a).replace(/\.arc-[0-9a-f]{8}\.tmp/g, '.arc-TMP.tmp')).sort()
      expect(sorted(mcpArgv)).to.deep.equal(sorted(cliArgv))
    })
  }
})
