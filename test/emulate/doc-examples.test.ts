/**
 * The command lines of README.md and docs/*.md, run as written, in document order, against `arc emulate`'s demo app
 * (the device `arc emulate` serves by default). Each is extracted from the docs' shell blocks, so a changed or new
 * example fails here until this file says what it does on the demo device: its exit status (0, or the status its
 * comment promises), or why it cannot run here (it serves until stopped, names a phone or a file of yours).
 * docs/commands.md is left out: its examples are the tools' own (`cli.examples`).
 */
import {chmod, mkdir, readFile, writeFile} from 'node:fs/promises'
import {spawn} from 'node:child_process'
import path from 'node:path'

import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {ROOT} from '@arc-cli/test-support/paths'
import {expect} from 'chai'

const DOCS = [
  'README.md',
  'docs/annotate.md',
  'docs/ci.md',
  'docs/emulate.md',
  'docs/flows.md',
  'docs/install.md',
  'docs/mcp.md',
  'docs/screen-state.md',
]

/** Lines of the docs' shell blocks (sh, bash, or none) that run arc: `arc …`, `X=1 arc …`, `… | arc …`. */
async function examples(): Promise<Array<{doc: string; line: string}>> {
  const found: Array<{doc: string; line: string}> = []
  for (const doc of DOCS) {
    let block: string | undefined
    for (const raw of (await readFile(path.join(ROOT, doc), 'utf8')).split('\n')) {
      const fence = /^```(\w*)/.exec(raw)
      if (fence) {
        block = block === undefined ? fence[1] : undefined
        continue
      }
      const line = raw.trim()
      // `arc mcp: 53 tools; …` is what arc printed, not a command: a command's word after `arc` never ends in ':'.
      if (/^arc [\w-]+:/.test(line)) continue
      if ((block === 'sh' || block === 'bash' || block === '') && /(^|\|\s*|&&\s*)([A-Z_]+=\S+\s+)*arc\s/.test(line))
        found.push({doc, line})
    }
  }
  return found
}

type Expect = number | {skip: string}
const SERVES = {skip: 'serves until stopped'}
const PHONE = {skip: 'names a phone or emulator serial that is not the demo device'}
const YOURS = {skip: 'names your app, file or snapshot folder (a placeholder)'}
const PORT = {skip: 'names port 5039, where the `arc emulate` line above would listen'}

/** What each example does on the demo device, by its exact text. */
const EXPECTED: Record<string, Expect> = {
  // README.md
  'arc screen-state': 0,
  'arc screen-state --device emulator-5554 --json | jq \'.windows[].elements[] | select(.flags | index("clk"))\'':
    PHONE,
  'arc screen-state --device ./snapshots/login': YOURS,
  'arc screen-state --device window_dump.xml': YOURS,
  'arc find text ADD                              # exits 9 when nothing matches, so `arc find … && next` works': 0,
  'arc click node_s7ddgy': 0,
  'arc click --text ADD --exact-match             # or by what it shows: exactly one match, else an error': 0,
  'arc type append node_hqx8qp "Oat milk"': 0,
  'arc type append --res-id new_item "café 中文 👍" # text outside ASCII goes through ADBKeyBoard where installed': 0,
  'arc scroll-to --text "Coffee beans" --max-scrolls 30   # swipes the list until it shows, or says it ended': 0,
  'arc click --text ADD --wait 30s               # reads again until ADD shows; exit 11 (TIMEOUT) if it never does': 0,
  'arc wait element text Lemons --timeout 2m && arc click node_s7ddgy   # exit 11 when Lemons never shows': 0,
  'arc wait gone text Loading --timeout 10000     # until no element says Loading': 0,
  'arc assert checked --text Wi-Fi                # exit 0, or 23 with what the screen shows instead': 23,
  'arc screenshot -o screen.png': 0,
  "arc screenshot --element node_s7ddgy -o button.png   # one element's visible part": 0,
  'arc screenrecord -o demo.mp4                  # until Ctrl-C (or --time-limit)': SERVES,
  'arc logs --follow --level W': SERVES,
  'arc annotate --device demo -o login.jpg --map login.marks.json': 0,
  'arc files write downloads notes/todo.txt --content "Buy groceries"': 0,
  'arc files read downloads notes/todo.txt': 0,
  'arc doctor': 0,
  'arc press key VOLUME_UP                       # any Android keycode by name or number': 0,
  'arc keyboard hide                             # BACK only when the soft keyboard shows': 0,
  'arc app install app-debug.apk -r -g           # replace, grant every runtime permission': YOURS,
  'arc app grant com.example.app CAMERA': YOURS,
  "arc app open-url 'myapp://item/42'": YOURS,
  'arc app open com.example.app --activity .SettingsActivity --extra tab=privacy': YOURS,
  'arc app clear com.example.app': YOURS,
  'arc device info': 0,
  'arc device unlock                             # wake and dismiss a lock screen without a PIN': 0,
  'arc device rotation 90                        # or auto': 0,
  'arc shell -- getprop ro.build.version.sdk     # stdout, stderr and exit status passed through': 0,
  'arc screen-state --detail compact': 0,
  'arc screen-state --detail compact --changes diff': 0,
  "printf 'tap 540 1200\\npress back\\nscreen-state --changes ack\\n' | arc batch": 0,
  'arc test flows/*.flow --retries 1 --report-dir arc-report': 0,
  'arc config': 0,
  'arc emulate --port 5039 --serial login=./snapshots/login &': YOURS,
  'arc devices --wait --timeout-ms 10000     # returns once the server answers and the device is ready': 0,
  'arc screen-state --device login': YOURS,
  'arc mcp serve                                  # http://127.0.0.1:7777/mcp, prints a token and a client config':
    SERVES,
  // docs/annotate.md
  'arc annotate --device demo -o screen.jpg                    # default preset, JPEG q80, 700 px long side': 0,
  'arc annotate --style som --map marks.json -o screen.jpg     # numbered badges 1..N, plus the map': 0,
  'arc annotate --format png --max-size 1200 -o - > screen.png # the image on stdout, the summary on stderr': 0,
  'arc annotate --only clickable --json                        # only clickable elements; the map as JSON on stdout': 0,
  'arc screen-state --screenshot screen.jpg                    # the TSV on stdout, the same annotated image in a file': 0,
  // docs/ci.md ($SERIAL is the demo device)
  'arc devices --wait --serial "$SERIAL" --timeout-ms 120000    # a cold emulator takes a while': 0,
  'arc device unlock --device "$SERIAL"': 0,
  'arc test flows/*.flow --device "$SERIAL" --retries 1 --report-dir arc-report': 0,
  // docs/emulate.md
  'arc emulate --port 5039                                   # one device, `arc-virtual`, running the demo app': SERVES,
  'arc emulate --port 5039 --serial login=./snaps/login --serial tablet=./snaps/tablet': SERVES,
  'arc emulate --port 5039 --scenario scenario.json --log commands.jsonl': SERVES,
  'ADB_SERVER_SOCKET=tcp:127.0.0.1:5039 arc devices --wait   # returns once the server answers': PORT,
  'ADB_SERVER_SOCKET=tcp:127.0.0.1:5039 arc screen-state      # same TSV as `arc screen-state --device demo`': PORT,
  // docs/flows.md
  'arc test flows/add-item.flow': 0,
  'arc test flows/*.flow --retries 1 --report-dir report          # junit.xml, summary.md, failure pictures': 0,
  'arc test flows/*.flow -d emulator-5554 -d emulator-5556 --shard --report-dir report': PHONE,
  'arc mcp serve --record flows/agent-run.flow                   # the agent works; every action it took is a step':
    SERVES,
  "printf 'click node_s7ddgy\\npress back\\n' | arc batch --record flows/steps.flow": 0,
  'arc test flows/agent-run.flow --device emulator-5554': PHONE,
  // docs/screen-state.md: the selector forms, with words of a login screen (Submit, email) the demo does not show
  'arc click --text Submit': 9,
  'arc click --res-id com.example:id/ok': 9,
  'arc long-click --text "Oat milk" --exact-match': 0,
  'arc scroll-to --desc "Delete Coffee beans"': 0,
  'arc type clear --res-id new_item --class-name EditText': 0,
  'arc type append --res-id email "@example.com"': 9,
  'arc type replace --field-text "Ada" Ada Grace': 9,
  'arc screenshot --text ADD --exact-match -o add.png': 0,
  'arc assert screenshot baselines/add.png --res-id add_button --exact-match --wait 30s': 0,
  'arc click text Submit --exact-match          # = arc click --text Submit --exact-match': 9,
  'arc type append resource_id email "@x.org"   # = arc type append --res-id email "@x.org"': 9,
  'arc find --res-id add --exact-match          # = arc find resource_id add --exact-match': 9,
  'arc screenshot text ADD --exact-match -o add.png    # = arc screenshot --text ADD --exact-match -o add.png': 0,
  'arc assert screenshot add.png resource_id add_button # = arc assert screenshot add.png --res-id add_button': 0,
  'arc wait element --text Done --exact-match --timeout 2m': {skip: 'waits 2 minutes for a Done the demo never shows'},
  'arc scroll-to --text "Item 40" --exact-match            # down the list, at most 20 swipes': 9,
  'arc scroll-to --desc Settings --direction up --max-scrolls 5': 9,
  // docs/install.md
  'arc screen-state -d demo': 0,
  // docs/mcp.md
  'arc mcp serve                                   # http://127.0.0.1:7777/mcp, the single attached device': SERVES,
  'arc mcp serve --device emulator-5554 --port 8000': SERVES,
  'arc mcp serve --device demo --read-only         # try it without a phone: the bundled demo screen': SERVES,
  'arc mcp serve --stdio --device R58M12ABCDE      # for a client that spawns arc': SERVES,
  'arc mcp serve --device pixel=R58M12ABCDE --device tablet=emulator-5554': SERVES,
  'arc mcp serve --device emulator-5554 --device emulator-5556     # named by their serials': SERVES,
  'ARC_MCP_TOKEN=inspector-check-token-0123456789 arc mcp serve --device demo --port 17777 &': SERVES,
}

/** The flow of docs/flows.md's format section, as the file it names (its `# flows/…` first line). */
async function docFlow(): Promise<{name: string; text: string}> {
  const doc = await readFile(path.join(ROOT, 'docs/flows.md'), 'utf8')
  const block = /```text\n(# (flows\/[\w.-]+\.flow)[^\n]*\n[\s\S]*?)```/.exec(doc)
  if (!block) throw new Error('docs/flows.md has no ```text block starting with "# flows/NAME.flow"')
  return {name: block[2]!, text: block[1]!}
}

function sh(line: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{code: number | null; output: string}> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', line], {cwd, env, stdio: ['ignore', 'pipe', 'pipe']})
    let output = ''
    child.stdout.on('data', (d: Buffer) => (output += d.toString()))
    child.stderr.on('data', (d: Buffer) => (output += d.toString()))
    child.on('close', (code) => resolve({code, output}))
  })
}

describe('the examples of README.md and docs/ run as written against arc emulate', function () {
  this.timeout(600_000)
  const h = useEmulator({devices: [{serial: 'arc-virtual', app: 'demo'}]})

  it('every example is known here, and every known example is still in the docs', async () => {
    const lines = (await examples()).map((e) => e.line)
    const unknown = lines.filter((line) => !(line in EXPECTED))
    expect(unknown, 'examples this test does not know: say what each does on the demo device').to.deep.equal([])
    const gone = Object.keys(EXPECTED).filter((line) => !lines.includes(line))
    expect(gone, 'examples no longer in the docs').to.deep.equal([])
  })

  it('each runnable example exits as expected, in document order, ids included', async () => {
    const work = path.join(h.dir, 'work')
    const bin = path.join(h.dir, 'bin')
    await mkdir(path.join(work, 'flows'), {recursive: true})
    await mkdir(bin, {recursive: true})
    await writeFile(
      path.join(bin, 'arc'),
      `#!/bin/sh\nexec '${process.execPath}' '${path.join(ROOT, 'bin', 'run.js')}' "$@"\n`
    )
    await chmod(path.join(bin, 'arc'), 0o755)
    const flow = await docFlow()
    await writeFile(path.join(work, flow.name), flow.text)
    const env = {
      ...process.env,
      ...h.env,
      PATH: `${bin}:${process.env.PATH}`,
      SERIAL: 'arc-virtual',
      RUN_ID: '7',
      // As a user runs arc: the on-device helper where it helps (text beyond ASCII).
      ARC_HELPER: 'auto',
    }
    const outcomes: string[] = []
    for (const {doc, line} of await examples()) {
      const expected = EXPECTED[line]
      if (expected === undefined || typeof expected === 'object') continue
      const {code, output} = await sh(line, work, env)
      if (code !== expected)
        outcomes.push(`${doc}: ${line}\n  exit ${code}, expected ${expected}: ${output.slice(-600)}`)
    }
    expect(outcomes, outcomes.join('\n')).to.deep.equal([])
  })
})
