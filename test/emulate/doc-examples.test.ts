/**
 * The command lines of README.md and docs/*.md, run as written, in document order, against `arc emulate`'s demo app
 * (the device `arc emulate` serves by default). Each is extracted from the docs' shell blocks, so a changed or new
 * example fails here until this file says what it does on the demo device: its exit status (0, or the status its
 * comment promises), or why it cannot run here (it serves until stopped, names a phone or a file of yours).
 * docs/commands.md's examples (each command's own `cli.examples`, its ```sh blocks) run too, each command's on a
 * fresh demo device of its own (a `press key 26` or `app uninstall` must not decide what the next command finds),
 * some after `given` lines that make the state the example presumes (the file it reads, the text it edits).
 */
import {chmod, mkdir, readFile, writeFile} from 'node:fs/promises'
import {spawn, spawnSync} from 'node:child_process'
import path from 'node:path'

import {startEmulator} from '@arc-cli/emulator'
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
  'docs/server.md',
]

/** The generated command reference: its examples are in ```sh blocks (a bare block is a command's usage line). */
const COMMANDS_DOC = 'docs/commands.md'

/**
 * Lines of the docs' shell blocks (sh, bash, or none; only sh in the command reference) that run arc: `arc …`,
 * `X=1 arc …`, `… | arc …`, each with the section (`## …` heading) it is under.
 */
async function examples(docs: readonly string[] = DOCS): Promise<Array<{doc: string; line: string; section: string}>> {
  const found: Array<{doc: string; line: string; section: string}> = []
  for (const doc of docs) {
    let block: string | undefined
    let section = ''
    const shell = doc === COMMANDS_DOC ? ['sh'] : ['sh', 'bash', '']
    for (const raw of (await readFile(path.join(ROOT, doc), 'utf8')).split('\n')) {
      const fence = /^```(\w*)/.exec(raw)
      if (fence) {
        block = block === undefined ? fence[1] : undefined
        continue
      }
      if (block === undefined && raw.startsWith('## ')) section = raw.slice(3)
      const line = raw.trim()
      // `arc mcp: 53 tools; …` is what arc printed, not a command: a command's word after `arc` never ends in ':'.
      if (/^arc [\w-]+:/.test(line)) continue
      if (block !== undefined && shell.includes(block) && /(^|\|\s*|&&\s*)([A-Z_]+=\S+\s+)*arc\s/.test(line))
        found.push({doc, line, section})
    }
  }
  return found
}

/** An example that pipes into a program arc does not ship (jq): it runs where that program is on the PATH. */
type Needs = {exit: number; needs: string}
type Expect = number | {skip: string} | Needs
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
  'arc assert visible text ADD --exact-match   # = arc assert visible --text ADD --exact-match': 0,
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
  // README.md and docs/server.md: run here with no server, each command in its own process, as the page says it may
  'arc server --idle 10m &': SERVES,
  'arc server --idle 10m &        # keeps arc loaded; stops after 10 minutes without a command': SERVES,
  'arc screen-state               # runs in the server: same output, same exit status, same files': 0,
  'arc tap 540 1200': 0,
  'arc server status              # running, since when, how many commands': 0,
  'arc server stop': 0,
  'arc server --idle 30m > arc-server.log 2>&1 &': SERVES,
}

/** An example that runs once `given` (shell lines, run first on the same device) made the state it presumes. */
interface Given {
  exit: number
  given: string[]
}
const WORK_PROFILE = {skip: 'names an app of a work profile (user 10), which the demo device does not have'}
const NETWORK = {skip: 'downloads from the internet (https://example.com), which a test may not reach'}
const STEPS = "printf 'click node_s7ddgy\\npress back\\n' > steps.txt"
const TODO = 'arc files write downloads notes/todo.txt --content "Buy groceries"'

/** What each example of docs/commands.md does on a fresh demo device (one per command), by its exact text. */
const COMMANDS: Record<string, Expect | Given> = {
  'arc annotate --device demo -o screen.jpg': 0,
  'arc annotate --style som --map marks.json': 0,
  'arc annotate --format png --max-size 1200 -o - > screen.png': 0,
  'arc app clear dev.arc.demo.groceries': 0,
  'arc app clear com.example.work --user 10': WORK_PROFILE,
  'arc app close dev.arc.demo.groceries': 0,
  'arc app close com.example.work --user 10': WORK_PROFILE,
  'arc app grant dev.arc.demo.groceries CAMERA': 0,
  'arc app grant dev.arc.demo.groceries android.permission.ACCESS_FINE_LOCATION': 0,
  'arc app grant com.example.work CAMERA --user 10': WORK_PROFILE,
  'arc app install app-debug.apk -r -g': YOURS,
  'arc app list --filter user --name-query calc': 0,
  'arc app list --user 10': 0,
  'arc app open com.android.settings': 0,
  'arc app open dev.arc.demo.groceries --activity .ListActivity': 0,
  "arc app open dev.arc.demo.groceries --activity dev.arc.demo.groceries/.ListActivity --extra 'title=Hello world' --extra-int id=42 --extra-bool debug=true": 0,
  "arc app open-url 'https://example.com/?q=arc'": 0,
  'arc app revoke dev.arc.demo.groceries CAMERA': 0,
  'arc app revoke dev.arc.demo.groceries android.permission.ACCESS_FINE_LOCATION': 0,
  'arc app revoke com.example.work CAMERA --user 10': WORK_PROFILE,
  'arc app uninstall dev.arc.demo.groceries --keep-data': 0,
  'arc app uninstall com.example.app --user 10': WORK_PROFILE,
  'arc assert visible --text ADD --exact-match --timeout 5000': 0,
  'arc assert gone --text Loading --timeout 10000': 0,
  // A settings screen's switch: the demo has none, so the assertion fails as it says it does (exit 23).
  'arc assert checked --res-id wifi_switch': 23,
  'arc assert text --res-id add_button --value ADD': 0,
  'arc assert screenshot baselines/list.png --mask 0,0,1080,63': 0,
  'arc assert screenshot baselines/add.png --element node_s7ddgy --threshold 0.01 --tolerance 8': 0,
  'arc assert screenshot baselines/add.png --text ADD --exact-match --wait 30s': 0,
  'arc assert screenshot baselines/list.png --update': 0,
  'arc batch steps.txt': {exit: 0, given: [STEPS]},
  'printf "tap 540 1200\\npress back\\nscreen-state --changes ack\\n" | arc batch': 0,
  'arc batch steps.txt --keep-going': {exit: 0, given: [STEPS]},
  'arc batch steps.txt --record flows/steps.flow': {exit: 0, given: [STEPS]},
  'arc click node_s7ddgy': 0,
  'arc click --text ADD --exact-match': 0,
  'arc click --res-id dev.arc.demo.groceries:id/add_button': 0,
  'arc clipboard get': 0,
  'arc clipboard set "Hello from arc"': 0,
  'arc config': 0,
  'arc config --json': 0,
  'ARC_CONFIG=ci.arcrc.json arc config': {exit: 0, given: ['printf \'{"elements": {"wait": "30s"}}\' > ci.arcrc.json']},
  'arc details --ids node_s7ddgy --ids node_hqx8qp': 0,
  'arc details --ids node_s7ddgy --wait 10s': 0,
  'arc device info': 0,
  'arc device info --json': 0,
  'arc device rotation': 0,
  'arc device rotation 90': 0,
  'arc device rotation auto': 0,
  'arc device unlock': 0,
  'arc device wake': 0,
  'arc devices': 0,
  'arc devices --wait --timeout-ms 10000': 0,
  'arc devices --wait --serial 192.168.1.5 --timeout-ms 60000': PHONE,
  'ADB_SERVER_SOCKET=tcp:farm.example.com:7401 arc devices': {skip: "names a device farm's adb server"},
  'arc doctor': 0,
  'arc doctor --json': 0,
  'arc double-tap 540 1200': 0,
  'arc emulate --port 5039': SERVES,
  'arc emulate --port 5039 --serial phone=./snapshots/login --serial tablet=./snapshots/tablet': SERVES,
  'arc emulate --port 5039 --scenario scenario.json --log commands.jsonl': SERVES,
  'ADB_SERVER_SOCKET=tcp:127.0.0.1:5039 arc screen-state': PORT,
  'arc files append downloads notes/todo.txt --content "Feed the cat"': {exit: 0, given: [TODO]},
  'arc files delete tmp notes/old-todo.txt': {
    exit: 0,
    given: ['arc files write tmp notes/old-todo.txt --content "Old list"'],
  },
  'arc files download downloads images/photo.jpg https://example.com/photo.jpg': NETWORK,
  'arc files list downloads': 0,
  'arc files list tmp notes --limit 20': {exit: 0, given: ['arc files write tmp notes/todo.txt --content x']},
  'arc files locations': 0,
  'arc files pull downloads report.pdf': {
    exit: 0,
    given: ['arc files write downloads report.pdf --content "%PDF-1.4"'],
  },
  'arc files pull tmp trace.bin -o ./traces/run1.bin': {
    exit: 0,
    given: ['arc files write tmp trace.bin --content trace', 'mkdir -p traces'],
  },
  'arc files push ./build/fixture.db tmp data/fixture.db': {
    exit: 0,
    given: ['mkdir -p build && printf fixture > build/fixture.db'],
  },
  'arc files read downloads notes/todo.txt': {exit: 0, given: [TODO]},
  'arc files read tmp log.txt --offset 201': {
    exit: 0,
    given: ['arc files write tmp log.txt --content "$(seq 1 300)"'],
  },
  'arc files replace downloads notes/todo.txt --old-string groceries --new-string "organic groceries"': {
    exit: 0,
    given: [TODO],
  },
  'arc files write downloads notes/todo.txt --content "Buy groceries"': 0,
  'arc find text ADD': 0,
  'arc find resource_id dev.arc.demo.groceries:id/add_button --exact-match': 0,
  'arc find --res-id add_button --exact-match': 0,
  'arc gesture --paths \'[{"x":100,"y":100,"time":0},{"x":300,"y":300,"time":300}]\'': 0,
  'arc gesture --paths \'[{"x":400,"y":600,"time":0},{"x":300,"y":600,"time":300}]\' --paths \'[{"x":600,"y":600,"time":0},{"x":700,"y":600,"time":300}]\'': 0,
  'arc keyboard hide': 0,
  'arc keyboard hide --json': 0,
  'arc keyboard status': 0,
  'arc keyboard status --json': 0,
  'arc logs --last-lines 50 --level W': 0,
  'arc logs --follow --level W --json': SERVES,
  'arc logs --tag ActivityManager --since 2024-01-15T10:30:00': 0,
  'arc long-click node_8qp7xe': 0,
  'arc long-click --text "Oat milk" --exact-match': 0,
  'arc long-press 540 1200 --duration 2000': 0,
  'arc mcp serve': SERVES,
  'arc mcp serve --device pixel=R58M12ABCDE --device tablet=emulator-5554': SERVES,
  'arc mcp serve --device pixel=R58M12ABCDE --device tablet=emulator-5554 --slug-names': SERVES,
  'arc mcp serve --stdio --device demo --read-only --detail compact': SERVES,
  'arc mcp serve --tools group:screen,group:touch,press_*': SERVES,
  'arc mcp serve --record flows/agent-run.flow': SERVES,
  'arc notifications': 0,
  'arc pinch 540 1200 2': 0,
  'arc pinch 540 1200 0.5 --duration 500': 0,
  'arc press back': 0,
  'arc press home': 0,
  'arc press key ENTER': 0,
  'arc press key VOLUME_UP': 0,
  'arc press key 26': 0,
  'arc press recents': 0,
  'arc quick-settings': 0,
  'arc screen-state --device demo': 0,
  'arc screen-state --device ./snapshots/login': YOURS,
  'arc screen-state --json | jq \'.windows[].elements[] | select(.flags | index("clk"))\'': {exit: 0, needs: 'jq'},
  'arc screenrecord -o demo.mp4': SERVES,
  'arc screenrecord -o demo.mp4 --time-limit 10': 0,
  'arc screenshot -o screen.png': 0,
  'arc screenshot -o - --format jpeg > screen.jpg': 0,
  'arc screenshot -o small.jpg --max-size 1024': 0,
  'arc screenshot --element node_s7ddgy -o button.png': 0,
  'arc screenshot --text ADD --exact-match -o button.png --wait 30s': 0,
  'arc scroll down --amount large': 0,
  'arc scroll down --element-id node_53u26m': 0,
  'arc scroll-to node_peywab': 0,
  'arc scroll-to --text Coffee': 0,
  'arc scroll-to --text "Coffee beans" --exact-match --max-scrolls 30': 0,
  'arc scroll-to --desc "Delete Oat milk" --direction up': 0,
  'arc shell -- getprop ro.build.version.sdk': 0,
  "arc shell -- sh -c 'ls /sdcard | wc -l'": 0,
  'arc snapshot save ./snapshots/login': 0,
  'arc swipe 500 1500 500 500': 0,
  'arc tap 540 1200': 0,
  'arc test flows/login.flow': YOURS,
  'arc test flows/*.flow --retries 1 --report-dir report': 0,
  'arc test flows/*.flow -d emulator-5554 -d emulator-5556 --shard --report-dir report': PHONE,
  'arc type append node_hqx8qp "Hello World"': 0,
  'arc type append --res-id dev.arc.demo.groceries:id/new_item "Rye bread"': 0,
  'arc type clear node_hqx8qp': 0,
  'arc type clear --res-id dev.arc.demo.groceries:id/new_item': 0,
  'arc type insert node_hqx8qp "organic " --offset 4': {exit: 0, given: ['arc type append node_hqx8qp "Oat milk"']},
  'arc type insert --field-text "Rye bread" "Dark " --offset 0': {
    exit: 0,
    given: ['arc type clear node_hqx8qp', 'arc type append node_hqx8qp "Rye bread"'],
  },
  'arc type replace node_hqx8qp World Android': {exit: 0, given: ['arc type append node_hqx8qp "Hello World"']},
  'arc type replace --res-id new_item World Android': {exit: 0, given: ['arc type append node_hqx8qp " World"']},
  'arc version': 0,
  'arc version --json': 0,
  'arc wait element text ADD --timeout 5000': 0,
  'arc wait element --res-id add_button --exact-match --timeout 2m': 0,
  'arc wait gone text Loading --timeout 10000': 0,
  // ADD stays on the demo's screen: the wait runs out, as its help says, with exit 11.
  'arc wait gone id node_s7ddgy --timeout 2000': 11,
  'arc wait idle --timeout 3000': 0,
  'arc wait idle --timeout 5000 --match-percentage 95': 0,
  'arc server --idle 10m &': SERVES,
  'arc server status': 0,
  'arc server status --json': 0,
  'arc server stop': 0,
}

/** The flow of docs/flows.md's format section, as the file it names (its `# flows/…` first line). */
async function docFlow(): Promise<{name: string; text: string}> {
  const doc = await readFile(path.join(ROOT, 'docs/flows.md'), 'utf8')
  const block = /```text\n(# (flows\/[\w.-]+\.flow)[^\n]*\n[\s\S]*?)```/.exec(doc)
  if (!block) throw new Error('docs/flows.md has no ```text block starting with "# flows/NAME.flow"')
  return {name: block[2]!, text: block[1]!}
}

/** Whether `program` is on the PATH of `env`, as the shell running the examples finds it. */
function onPath(program: string, env: NodeJS.ProcessEnv): boolean {
  return spawnSync('/bin/sh', ['-c', 'command -v "$1" >/dev/null', 'sh', program], {env}).status === 0
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
    for (const [docs, known] of [
      [DOCS, EXPECTED],
      [[COMMANDS_DOC], COMMANDS],
    ] as const) {
      const lines = (await examples(docs)).map((e) => e.line)
      const unknown = lines.filter((line) => !(line in known))
      expect(unknown, 'examples this test does not know: say what each does on the demo device').to.deep.equal([])
      const gone = Object.keys(known).filter((line) => !lines.includes(line))
      expect(gone, `examples no longer in ${docs.join(', ')}`).to.deep.equal([])
    }
  })

  /** A work folder holding the flow docs/flows.md shows, and `arc` on PATH as a user has it (bin/run.js). */
  async function workspace(name: string): Promise<{work: string; env: NodeJS.ProcessEnv}> {
    const work = path.join(h.dir, name)
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
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...h.env,
      PATH: `${bin}:${process.env.PATH}`,
      SERIAL: 'arc-virtual',
      RUN_ID: '7',
      // As a user runs arc: the on-device helper where it helps (text beyond ASCII).
      ARC_HELPER: 'auto',
    }
    // The examples write their screenshot baselines, as on a developer's machine: on CI (the runner's CI set) a
    // missing baseline fails instead.
    delete env.CI
    return {work, env}
  }

  it('each runnable example exits as expected, in document order, ids included', async () => {
    const {work, env} = await workspace('work')
    const outcomes: string[] = []
    for (const {doc, line} of await examples()) {
      const given = EXPECTED[line]
      if (given === undefined || (typeof given === 'object' && !('needs' in given))) continue
      if (typeof given === 'object' && !onPath(given.needs, env)) {
        // Said where it happens, so a run without the program shows what it did not check.
        console.log(`      (not run: ${given.needs} is not on the PATH) ${doc}: ${line}`)
        continue
      }
      const expected = typeof given === 'number' ? given : given.exit
      const {code, output} = await sh(line, work, env)
      if (code !== expected)
        outcomes.push(`${doc}: ${line}\n  exit ${code}, expected ${expected}: ${output.slice(-600)}`)
    }
    expect(outcomes, outcomes.join('\n')).to.deep.equal([])
  })

  it("README's script example prints the focused app, and the exit status arc failed with", async () => {
    const readme = await readFile(path.join(ROOT, 'README.md'), 'utf8')
    const block = /```sh\n([^`]*screen-state failed with exit[^`]*)```/.exec(readme)?.[1]
    if (!block) expect.fail('README.md has no ```sh block saying "screen-state failed with exit"')
    const {work, env} = await workspace('readme-script')
    // A serial no device has: arc exits 4 (DEVICE_NOT_FOUND), and the script must say so, not the status of a `!`.
    const missing = await sh(block, work, {...env, SERIAL: 'no-such-serial'})
    expect(missing.code).to.equal(1)
    expect(missing.output).to.include('screen-state failed with exit 4\n')
    if (!onPath('jq', env)) return console.log('      (not run: jq is not on the PATH) the script on the demo device')
    const shown = await sh(block, work, env)
    expect(shown).to.deep.equal({code: 0, output: 'dev.arc.demo.groceries\n'})
  })

  it('each runnable example of docs/commands.md exits as expected, each command on a fresh demo device', async () => {
    const {work, env} = await workspace('commands-work')
    const sections = new Map<string, string[]>()
    for (const {line, section} of await examples([COMMANDS_DOC]))
      sections.set(section, [...(sections.get(section) ?? []), line])
    const outcomes: string[] = []
    for (const [section, lines] of sections) {
      const runnable = lines.filter((line) => {
        const expected = COMMANDS[line]
        if (typeof expected === 'object' && 'needs' in expected && !onPath(expected.needs, env)) {
          // Said where it happens, so a run without the program shows what it did not check.
          console.log(`      (not run: ${expected.needs} is not on the PATH) ${section}: ${line}`)
          return false
        }
        return typeof expected === 'number' || 'given' in (expected ?? {}) || 'needs' in (expected ?? {})
      })
      if (runnable.length === 0) continue
      const emu = await startEmulator({port: 0, devices: [{serial: 'arc-virtual', app: 'demo'}]})
      try {
        const device = {
          ...env,
          ADB_SERVER_SOCKET: `tcp:127.0.0.1:${emu.port}`,
          ARC_CACHE_DIR: path.join(h.dir, 'cache', section.replace(/\W+/g, '-')),
        }
        for (const line of runnable) {
          const expected = COMMANDS[line] as number | Given | Needs
          const exit = typeof expected === 'number' ? expected : expected.exit
          for (const given of typeof expected === 'number' || !('given' in expected) ? [] : expected.given) {
            const before = await sh(given, work, device)
            if (before.code !== 0)
              outcomes.push(`${section}: given ${given}\n  exit ${before.code}: ${before.output.slice(-600)}`)
          }
          const {code, output} = await sh(line, work, device)
          if (code !== exit)
            outcomes.push(`${section}: ${line}\n  exit ${code}, expected ${exit}: ${output.slice(-600)}`)
        }
      } finally {
        await emu.close()
      }
    }
    expect(outcomes, outcomes.join('\n')).to.deep.equal([])
  })
})
