import {spawn, type ChildProcess} from 'node:child_process'
import {createHash} from 'node:crypto'
import {createReadStream, rmSync} from 'node:fs'
import {mkdtemp, readFile, realpath, rename, rm, stat, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

import {
  Args,
  cliConfig,
  claimNamed,
  cliErrorText,
  colorsFor,
  confineHostPaths,
  environmentText,
  exitCodeFor,
  Flags,
  flowStepsHost,
  flowWord,
  HostInterrupts,
  hostInterrupts,
  InvalidInputError,
  makeFolders,
  OutputError,
  outputError,
  outputReason,
  printableLine,
  resolveServerAddress,
  serialSetBy,
  terminalOnlyWrites,
  toArcError,
} from '@arc-cli/core'

import {parseFlow, stepWords, uniqueFlowNames, valueAt, type Flow} from '../flow/flow-file.js'
import {KeptOutput} from '../flow/kept-output.js'
import {failed, junitXml, markdownSummary, tally, type FlowResult, type StepResult} from '../flow/report.js'
import {clearEarlierRun, makeFailureFolder, removeFailureFolder, REPORT_FILES} from '../flow/report-dir.js'
import {readScript} from '../read-script.js'
import {exitStatus, ScriptCommand} from '../script-command.js'
import {checkOutputFile, writeOutputFile} from '../tools/write-output.js'

type Write = typeof process.stdout.write

/**
 * Runs `work` with what it writes to `stream` also kept (`keep`), or only kept (`quiet`): a step's error message
 * goes to the terminal as usual and into the report; the commands that save failure pictures print nothing.
 */
async function capturing<T>(
  stream: NodeJS.WriteStream,
  mode: 'keep' | 'quiet',
  work: () => Promise<T>
): Promise<{value?: T; error?: unknown; text: string}> {
  const original = stream.write.bind(stream) as Write
  // A spinner's frames go to the terminal (or, quiet, nowhere), never into the report's copy.
  const outer = terminalOnlyWrites(stream, mode === 'keep' ? (chunk) => original(chunk) : () => true)
  // The copy is for files: bounded, and plain text where the terminal got colours (kept-output.ts).
  const kept = new KeptOutput()
  stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    kept.add(chunk)
    if (mode === 'keep') return (original as (...a: unknown[]) => boolean)(chunk, ...rest)
    const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined
    done?.()
    return true
  }) as Write
  try {
    return {value: await work(), text: kept.text()}
  } catch (error) {
    return {error, text: kept.text()}
  } finally {
    stream.write = original
    terminalOnlyWrites(stream, outer)
  }
}

/**
 * Makes the report folder (one level at a time: a recursive mkdir never settles under /proc) and checks that the
 * report's files can go there, before any flow acts on a device: a report that cannot be written is OUTPUT_FAILED
 * naming --report-dir now, not an error after every flow ran.
 */
async function prepareReportDir(dir: string, clear: boolean): Promise<(() => void) | undefined> {
  const target = {path: dir, input: '--report-dir'}
  const found = await stat(dir).catch(() => undefined)
  if (found && !found.isDirectory()) throw outputError(target, 'it is a file, not a folder')
  await makeFolders(dir).catch((error: NodeJS.ErrnoException) => {
    const why = error.code === 'ENOENT' ? 'the file system refuses to create it' : outputReason(error)
    throw outputError(target, `cannot make the folder ${error.path ?? dir}: ${why}`, error)
  })
  for (const name of REPORT_FILES) await checkOutputFile(path.join(dir, name), '--report-dir')
  if (!clear) return undefined
  // One run at a time per report folder: a second run would clear the first's failure folders from under its report,
  // and the two would then write junit.xml and summary.md over each other, one run's report lost. Held until the run
  // ends (the kernel frees it with the process, however it ends); the children of a run on several devices write into
  // their parent's folder under its claim.
  const real = await realpath(dir).catch(() => dir)
  const claim = await claimNamed(`report:${real}`).catch(() => undefined)
  if (claim && 'heldBy' in claim)
    throw new OutputError(
      `--report-dir: cannot write ${dir}: another arc test${claim.heldBy === undefined ? '' : ` (pid ${claim.heldBy})`} writes its report there, and a run clears an earlier run's report and failure folders before its first flow`,
      {
        details: {input: '--report-dir', path: dir, ...(claim.heldBy === undefined ? {} : {pid: claim.heldBy})},
        actions: ['Give this run a report folder of its own, or run it once the other has ended.'],
      }
    )
  // Where no claim can be made at all (a socket file under a cache folder that cannot be written, off Linux), the run
  // goes on without one, as before.
  const release = claim ? () => claim.release() : () => undefined
  // A folder reused run after run showed the failures of every earlier run beside this one's (report-dir.ts).
  const {removed, kept} = await clearEarlierRun(dir).catch((error: unknown) => {
    release()
    throw error
  })
  if (removed.length > 0)
    process.stderr.write(
      `report: removed ${removed.length} failure folder(s) an earlier arc test left in ${printableLine(dir)}\n`
    )
  for (const {folder, others} of kept)
    process.stderr.write(
      `report: kept ${printableLine(path.join(dir, folder))}, an earlier run's failure folder: it holds what arc test did not write there${others.length ? ` (${printableLine(others.join(', '))})` : ''}\n`
    )
  return release
}

/** The exit status of a run a signal stopped: 130 for SIGINT (CANCELLED, as every arc command), else 128 + its number. */
const signalStatus = (signal: NodeJS.Signals) =>
  signal === 'SIGINT' ? exitCodeFor('CANCELLED') : 128 + (os.constants.signals[signal] ?? os.constants.signals.SIGTERM)

/** The environment variables a run sets for its steps (--device, --adb-host/--adb-port), put back when it ends. */
const HANDED_TO_STEPS = ['ANDROID_SERIAL', 'ADB_SERVER_SOCKET'] as const

/** Set in the environment of the child `arc test`s of a run on several devices: they listen on their IPC channel. */
const CHILD_ENV = 'ARC_TEST_CHILD'

/**
 * An environment variable's value for a flow's `${NAME}` (empty when unset); INVALID_INPUT where its bytes were not
 * UTF-8 (core's cli/argv-text.ts): the device would get U+FFFD's bytes for them.
 */
const envText = (name: string): string => environmentText(name, process.env[name] ?? '')

/** Marks, in an echoed word, where a variable stands whose value is not shown (NUL: no flow line holds one). */
const HIDDEN = '\u0000'

/**
 * A word of an echoed step holding variables whose values are not shown: in "…" with each such variable as
 * `${NAME}`, which a flow reads back as that variable (every other `"`, `\\`, `$` and backquote escaped); any other
 * word as flowWord writes it.
 */
function echoWord(word: string): string {
  if (!word.includes(HIDDEN)) return flowWord(word)
  const parts = word.split(HIDDEN)
  const inner = parts.map((part, i) => (i % 2 === 1 ? `\${${part}}` : part.replace(/[\\"$`]/g, '\\$&'))).join('')
  return `"${inner}"`
}

/** What a parent `arc test` (several devices) sends a child over IPC to stop it as a signal would. */
interface StopMessage {
  arcTestStop: NodeJS.Signals
}

/** A child's results, written whole (a temporary file renamed over it): the parent never reads half of them. */
async function writeResults(file: string, results: FlowResult[]): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`
  await writeFile(temp, JSON.stringify(results))
  await rename(temp, file)
}

/**
 * A failure folder's name within what a file system takes (255 bytes a name): a long flow name with a device's made
 * one past it (mkdir: ENAMETOOLONG), and the failure's pictures were lost. Cut to 200 (room for `-100`), with a
 * hash of the whole so that two long names cut alike stay apart. fileWord's words are ASCII: a character, a byte.
 */
function folderWord(word: string): string {
  if (word.length <= 200) return word
  return `${word.slice(0, 191)}-${createHash('sha256').update(word).digest('hex').slice(0, 8)}`
}

/** A file-name word for a flow or device (`emulator-5554`, `login`). */
const fileWord = (s: string) => s.replace(/[^A-Za-z0-9.-]+/g, '_').replace(/^[._]+/, '') || 'x'

export default class Test extends ScriptCommand {
  static override summary = 'Run flow files: arc command lines with variables, checked first, echoed, reported as JUnit'
  static override description = [
    'A flow is a text file of arc command lines (as `arc batch` reads them) plus `set NAME VALUE` and',
    "`capture NAME PATH COMMAND…` (a value from the command's JSON result, e.g. `capture ID elements.0.id find text Submit`);",
    '${NAME} expands a variable, else the environment. Every file is checked whole before any step runs (unknown commands,',
    'unset variables). Each step is echoed on stderr with its file and line; the first failing step fails the flow,',
    'which runs again up to --retries times. With --report-dir, a JUnit XML report (junit.xml), a Markdown summary and, for',
    'each failure, the screen (snapshot folder), an annotated screenshot and the device log are saved there. Several',
    '--device flags run every flow on each device in parallel (or split the flows between them with --shard), in one report.',
    "Exit status: 0 when every flow passed, else the first failure's. See docs/flows.md.",
  ].join(' ')
  static override examples = [
    '<%= config.bin %> <%= command.id %> flows/login.flow',
    '<%= config.bin %> <%= command.id %> flows/*.flow --retries 1 --report-dir report',
    '<%= config.bin %> <%= command.id %> flows/*.flow -d emulator-5554 -d emulator-5556 --shard --report-dir report',
  ]
  static override enableJsonFlag = false
  static override strict = false
  static override args = {
    flows: Args.string({description: 'Flow files to run, in order.', required: true}),
  }
  static override flags = {
    device: Flags.string({
      char: 'd',
      multiple: true,
      summary: 'Device to run on (repeat for several, run in parallel). Default: as every command picks one.',
    }),
    retries: Flags.integer({
      min: 0,
      max: 10,
      default: 0,
      summary: 'Run a failed flow again up to this many times (0-10).',
    }),
    'report-dir': Flags.string({
      summary: 'Folder for junit.xml, summary.md and what failed flows leave (created if missing).',
    }),
    shard: Flags.boolean({
      summary: 'With several devices: split the flows between them instead of running each on all.',
    }),
    'adb-host': Flags.string({
      summary:
        'Host of the adb server (default: from ADB_SERVER_SOCKET or ANDROID_ADB_SERVER_ADDRESS, else the config, else 127.0.0.1).',
    }),
    'adb-port': Flags.integer({
      min: 1,
      max: 65535,
      summary:
        'Port of the adb server (default: from ADB_SERVER_SOCKET or ANDROID_ADB_SERVER_PORT, else the config, else 5037).',
    }),
    // How a parent `arc test` with several devices collects each child's results.
    results: Flags.string({hidden: true}),
  }

  /** The signal that stopped the run (SIGINT, SIGTERM), once one did: nothing more is started. */
  private stopped: NodeJS.Signals | undefined
  /** The failure folders this run has made in the report folder. */
  private readonly failureFolders = new Set<string>()
  /** What else stops with the run: the children of a run on several devices. */
  private readonly onStop = new Set<(signal: NodeJS.Signals) => void>()

  async run(): Promise<void> {
    const unlisten = this.listenForStop()
    const outer = flowStepsHost.active()
    flowStepsHost(true)
    // The run hands its --device and --adb-host/--adb-port to its steps through this process's environment; a run
    // that is a line of a batch (or of a batch under arc server) gives them back, or the batch's later lines would act
    // on this run's device or adb server instead of the batch's own.
    const handed = Object.fromEntries(HANDED_TO_STEPS.map((name) => [name, process.env[name]]))
    try {
      await this.runTest()
    } finally {
      for (const [name, value] of Object.entries(handed)) {
        if (value === undefined) delete process.env[name]
        else process.env[name] = value
      }
      flowStepsHost(outer)
      unlisten()
    }
  }

  /**
   * SIGINT or SIGTERM (Ctrl-C, a CI runner cancelling the job or ending it at its timeout) stops the run: the step
   * running is cancelled as Ctrl-C cancels one command (its device calls cut off), no later step, retry or flow
   * starts, the report is written with the flows not run marked so, and the exit status is the signal's (130, 143),
   * never a pass. A second signal ends the process at once. A child `arc test` (several devices) is stopped by its
   * parent over IPC, and stops the same way when its parent is gone (killed outright), rather than act unwatched.
   */
  private listenForStop(): () => void {
    const interrupts = new HostInterrupts()
    // A run inside another host (an `arc test` line of a batch under arc server) stops with it too.
    const previous = hostInterrupts(interrupts)
    const stop = (signal: NodeJS.Signals) => {
      if (this.stopped) return
      this.stopped = signal
      process.stderr.write(
        `arc test: ${signal}: stopping; the step running is cancelled and nothing more runs (again to end at once)\n`
      )
      interrupts.interrupt()
      for (const listener of this.onStop) listener(signal)
    }
    const unchain = previous?.listen(() => stop('SIGINT'))
    let signalled = false
    const onSignal = (signal: NodeJS.Signals) => {
      // The second signal this process got (a parent's IPC word is not one: a terminal's Ctrl-C reaches the children
      // too, and the parent's word follows it).
      if (signalled) process.exit(signalStatus(this.stopped ?? signal))
      signalled = true
      stop(signal)
    }
    const onMessage = (message: unknown) => {
      const signal = (message as Partial<StopMessage> | null)?.arcTestStop
      if (typeof signal === 'string') stop(signal)
    }
    const orphaned = () => stop('SIGTERM')
    process.on('SIGINT', onSignal)
    process.on('SIGTERM', onSignal)
    // Only a child run its parent `arc test` started (CHILD_ENV in its environment, which only the parent sets: a
    // --results flag alone is no proof, every-command.test.ts gives every flag) listens to its IPC channel: an `arc
    // test` run in a process that has a channel of its own (a test runner's worker) must neither take that channel's
    // messages nor unref it, which let such a worker exit under its runner.
    const child = process.send !== undefined && process.env[CHILD_ENV] === '1'
    if (child) {
      process.on('message', onMessage)
      process.on('disconnect', orphaned)
      // The channel must not keep this process alive once its run ends.
      process.channel?.unref()
    }
    return () => {
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
      process.off('message', onMessage)
      process.off('disconnect', orphaned)
      unchain?.()
      hostInterrupts(previous)
    }
  }

  private async runTest(): Promise<void> {
    const {flags, raw} = await this.parse(Test)
    // In the order given: oclif's argv moves a word given twice next to its first (`a b a` ran a, a, b).
    const files = raw.flatMap((token) => (token.type === 'arg' ? [token.input] : []))
    if (files.length === 0)
      throw new InvalidInputError('arc test needs at least one flow file', {actions: ['arc test flows/login.flow']})
    if (flags['adb-host'] !== undefined || flags['adb-port'] !== undefined) {
      // Every step picks the server the way any command does; the flag is said once for them all. The part a flag
      // leaves out comes from where a command's would (ADB_SERVER_SOCKET, ANDROID_ADB_SERVER_*, the config), not
      // from the defaults: `--adb-host H` alone keeps the port of ADB_SERVER_SOCKET.
      const {config} = await cliConfig(this.config, process.cwd())
      const {host, port} = resolveServerAddress({
        host: flags['adb-host'],
        port: flags['adb-port'],
        configured: config.adb,
        env: process.env,
      })
      process.env.ADB_SERVER_SOCKET = `tcp:${host.includes(':') ? `[${host}]` : host}:${port}`
    }
    // Every file is read and checked before anything touches a device.
    const flows: Flow[] = []
    for (const file of files) {
      let text: string
      try {
        text = await readScript(createReadStream(file), `flow file ${file}`, 'Split the flow into several files.')
      } catch (error) {
        if (error instanceof InvalidInputError) throw error
        throw new InvalidInputError(`cannot read flow file ${file}: ${(error as Error).message}`, {
          details: {file},
          cause: error,
        })
      }
      flows.push(parseFlow(file, text, (words) => this.findCommandId(words), process.env))
    }
    for (const [i, name] of uniqueFlowNames(files).entries()) flows[i]!.name = name
    const devices = [...new Set(flags.device ?? [])]
    // `-` is stdout to every other output flag; a report is a folder of files, and a folder named - was made unsaid.
    if (flags['report-dir'] === '-')
      throw new InvalidInputError(
        '--report-dir cannot be - (the report is a folder of files): name a folder, or ./- for one named -',
        {
          details: {input: 'report-dir', path: '-'},
        }
      )
    const reportDir = flags['report-dir'] === undefined ? undefined : path.resolve(flags['report-dir'])
    // The run's own process clears what earlier runs left; its children (several devices) write into that folder.
    const releaseReport = reportDir ? await prepareReportDir(reportDir, flags.results === undefined) : undefined
    try {
      await this.runAndReport(flows, files, devices, flags, reportDir)
    } finally {
      releaseReport?.()
    }
  }

  /** Runs the flows, prints the tally, writes the report, and exits with the run's status. */
  private async runAndReport(
    flows: Flow[],
    files: string[],
    devices: string[],
    flags: {retries: number; shard: boolean; results?: string},
    reportDir: string | undefined
  ): Promise<void> {
    const started = new Date()
    const results =
      devices.length > 1
        ? await this.runOnDevices(files, devices, flags.shard, flags.retries, reportDir)
        : await this.asResidentHost(() =>
            this.runHere(flows, devices[0], flags.retries, reportDir, flags.results).finally(() =>
              serialSetBy(undefined)
            )
          )
    if (flags.results) await writeResults(flags.results, results)
    else {
      const c = colorsFor(process.stderr)
      for (const r of results.filter(failed))
        process.stderr.write(
          `${c.red('FAILED')} ${printableLine(r.file)} on ${printableLine(r.device)}, line ${r.failure?.line}\n`
        )
      process.stderr.write(`${tally(results)}\n`)
      if (reportDir) {
        const junit = path.join(reportDir, 'junit.xml')
        const summary = path.join(reportDir, 'summary.md')
        await writeOutputFile(
          junit,
          Buffer.from(junitXml(results, started, Date.now() - started.getTime())),
          '--report-dir'
        )
        await writeOutputFile(summary, Buffer.from(markdownSummary(results)), '--report-dir')
        process.stderr.write(`report: ${junit}\nsummary: ${summary}\n`)
      }
    }
    if (this.stopped) this.exit(signalStatus(this.stopped))
    const first = results.find(failed)
    if (first) this.exit(first.failure?.status || exitCodeFor('INTERNAL'))
    // A flow a child never ran (the child was stopped on its own, between flows) is no pass: the signal's status.
    const notRun = results.find((r) => r.notRun !== undefined)
    if (notRun) this.exit(signalStatus(notRun.notRun as NodeJS.Signals))
  }

  /** The flows one after the other in this process, on one device (`undefined`: as any command picks it). */
  private async runHere(
    flows: Flow[],
    device: string | undefined,
    retries: number,
    reportDir: string | undefined,
    resultsFile?: string
  ): Promise<FlowResult[]> {
    if (device !== undefined) {
      process.env.ANDROID_SERIAL = device
      // A device that is not attached is then this flag's, not the user's environment's (resolve-device.ts).
      serialSetBy({
        serial: device,
        where: 'arc test --device',
        action: 'Name an attached device with arc test --device (arc devices lists them).',
      })
    }
    const deviceName = device ?? process.env.ANDROID_SERIAL ?? 'default'
    const results: FlowResult[] = []
    for (const flow of flows) {
      if (this.stopped) {
        results.push(this.notRun(flow.file, flow.name, deviceName, this.stopped))
        continue
      }
      // Every attempt's outcome goes into the report: a flow that failed, then passed, is flaky, not clean.
      const tries: FlowResult[] = []
      for (let attempt = 1; attempt <= retries + 1; attempt++) {
        if (attempt > 1 && this.stopped) break
        if (attempt > 1)
          process.stderr.write(`retrying ${printableLine(flow.file)} (attempt ${attempt} of ${retries + 1})\n`)
        const outcome = await this.runFlow(flow, deviceName, attempt)
        tries.push(outcome)
        if (outcome.passed) break
      }
      const result = tries.at(-1)!
      if (tries.length > 1) {
        result.earlier = tries.slice(0, -1).map((t) => ({failure: t.failure!, steps: t.steps, ms: t.ms}))
        result.ms = tries.reduce((sum, t) => sum + t.ms, 0)
      }
      result.of = retries + 1
      // Once stopped, nothing more is sent to the device, the failure pictures too.
      if (!result.passed && reportDir && !this.stopped)
        result.artifacts = await this.saveFailure(result, reportDir, device)
      results.push(result)
      // A child of a run on several devices: each flow's result is kept as it ends, so a child that dies later
      // (killed, out of memory) loses only the flow it was running.
      if (resultsFile) await writeResults(resultsFile, results)
    }
    return results
  }

  private async runFlow(flow: Flow, device: string, attempts: number): Promise<FlowResult> {
    const c = colorsFor(process.stderr)
    const vars = new Map<string, string>()
    // Variables whose value came from the environment: echoed by name, never by value.
    const hidden = new Set<string>()
    const steps: StepResult[] = []
    const start = Date.now()
    const result = (failure?: FlowResult['failure']): FlowResult => ({
      flow: flow.name,
      file: flow.file,
      device,
      passed: failure === undefined,
      attempts,
      ms: Date.now() - start,
      steps,
      ...(failure ? {failure} : {}),
      artifacts: [],
    })
    for (const step of flow.steps) {
      if (this.stopped)
        return result({
          line: step.line,
          text: step.text,
          status: signalStatus(this.stopped),
          code: 'CANCELLED',
          message: `${flow.file}:${step.line}: not run: arc test was stopped by ${this.stopped}`,
        })
      const stepStart = Date.now()
      let words: string[]
      // Whether a value of the environment went into this step (directly, or through a variable set from one).
      let fromEnvironment = false
      try {
        words = stepWords(flow.file, step.line, step.text, (name) => {
          if (!vars.has(name) || hidden.has(name)) fromEnvironment = true
          return vars.get(name) ?? envText(name)
        })
      } catch (error) {
        this.say(error)
        return result({
          line: step.line,
          text: step.text,
          status: exitCodeFor('INVALID_INPUT'),
          code: 'INVALID_INPUT',
          message: (error as Error).message,
        })
      }
      // Each word as the flow would read it back: a value with a space, or an empty one, quoted. A value from the
      // environment is not shown (CI secrets come that way, and a CI log keeps what a step echoes): its variable is,
      // as `"${NAME}"`, which the flow reads back as that variable.
      const shown = fromEnvironment
        ? stepWords(flow.file, step.line, step.text, (name) =>
            vars.has(name) && !hidden.has(name) ? (vars.get(name) as string) : `${HIDDEN}${name}${HIDDEN}`
          ).map(echoWord)
        : words.map(flowWord)
      process.stderr.write(`${c.dim(`${printableLine(flow.file)}:${step.line}`)} ${printableLine(shown.join(' '))}\n`)
      if (step.kind === 'set') {
        vars.set(step.name, words[2] as string)
        if (fromEnvironment) hidden.add(step.name)
        else hidden.delete(step.name)
        steps.push({line: step.line, text: step.text, status: 0, ms: 0})
        continue
      }
      const commandWords = step.kind === 'capture' ? words.slice(3) : words
      const id = this.findCommandId(commandWords) as string
      // Its stdout is kept too: a step that fails by its exit status alone (a wait that ran out, a find with no match)
      // says why there, not on stderr.
      // A flow may come from a repository its user never read: the files its step names on this machine stay within
      // the folder arc test runs in and the flow's own folder (core's host-paths.ts), lifted again for arc test's own
      // writes (the report, what a failure leaves).
      await confineHostPaths([process.cwd(), path.dirname(path.resolve(flow.file))])
      const printed = await capturing(process.stdout, 'keep', () =>
        capturing(process.stderr, 'keep', () => this.runLine(id, commandWords.slice(id.split(':').length)))
      ).finally(() => confineHostPaths(undefined))
      const run = printed.value as Awaited<ReturnType<typeof capturing<unknown>>>
      const status =
        run.error === undefined
          ? 0
          : (exitStatus(run.error) ?? (await this.statusOf(run.error).catch(() => exitCodeFor('INTERNAL'))))
      steps.push({line: step.line, text: step.text, status, ms: Date.now() - stepStart})
      if (status !== 0) {
        const message =
          run.text
            .trim()
            .split('\n')
            .filter((l) => l.startsWith('Error') || l.startsWith('Try:'))
            .join('\n') ||
          run.text.trim() ||
          printed.text.trim().split('\n').slice(0, 3).join('\n') ||
          `exit ${status}`
        const code = /^Error \[([A-Z_]+)\]/m.exec(message)?.[1]
        return result({line: step.line, text: step.text, status, ...(code ? {code} : {}), message})
      }
      if (step.kind === 'capture') {
        try {
          vars.set(step.name, valueAt(flow.file, step.line, run.value, step.path))
        } catch (error) {
          this.say(error)
          steps[steps.length - 1]!.status = exitCodeFor('INVALID_INPUT')
          return result({
            line: step.line,
            text: step.text,
            status: exitCodeFor('INVALID_INPUT'),
            code: 'INVALID_INPUT',
            message: (error as Error).message,
          })
        }
      }
    }
    return result()
  }

  /** A step's failure that arc test found itself (a capture's path, a variable): said on stderr as a command's is. */
  private say(error: unknown): void {
    process.stderr.write(`${cliErrorText(toArcError(error), process.stderr)}\n`)
  }

  /** A flow the run was stopped before. */
  private notRun(file: string, flow: string, device: string, signal: NodeJS.Signals): FlowResult {
    return {flow, file, device, passed: false, notRun: signal, attempts: 0, ms: 0, steps: [], artifacts: []}
  }

  /** What a failed flow leaves for a person: the screen as a snapshot, an annotated screenshot, the device log. */
  private async saveFailure(result: FlowResult, reportDir: string, device: string | undefined): Promise<string[]> {
    // Each failure a folder of its own, also where two names make one file word (`a b`, `a_b`).
    const word = folderWord(`${fileWord(result.flow)}-${fileWord(result.device)}`)
    // What cannot be saved is said, and the run goes on: the flow's failure and the report matter more than its pictures.
    const unsaved = (where: string, error: unknown) =>
      process.stderr.write(
        `cannot save what ${printableLine(path.basename(result.file))} left on ${printableLine(result.device)} in ${printableLine(where)}: ${printableLine(error instanceof OutputError ? error.message : outputReason(error))}\n`
      )
    // A new folder, marked as this run's, never one already there: an earlier run's failures, or a user's files.
    let folder: string
    try {
      folder = await makeFailureFolder(reportDir, word, this.failureFolders)
    } catch (error) {
      unsaved(path.join(reportDir, word), error)
      return []
    }
    const dir = path.join(reportDir, folder)
    const saved: string[] = []
    const deviceArgs = device === undefined ? [] : ['--device', device]
    const quietly = (id: string, args: string[]) =>
      capturing(process.stdout, 'quiet', () =>
        capturing(process.stderr, 'quiet', () => this.runLine(id, [...args, ...deviceArgs]))
      )
    const snapshot = await quietly('snapshot:save', [path.join(dir, 'snapshot')])
    if (snapshot.value?.error === undefined) saved.push(`${folder}/snapshot`)
    const shot = await quietly('annotate', ['-o', path.join(dir, 'screen.jpg')])
    if (shot.value?.error === undefined) saved.push(`${folder}/screen.jpg`)
    const logs = await quietly('logs', ['--last-lines', '500'])
    // get_device_logs' result: {logs, line_count, truncated}.
    const text = (logs.value?.value as {logs?: unknown} | undefined)?.logs
    if (logs.value?.error === undefined && typeof text === 'string') {
      const log = Buffer.from(text.endsWith('\n') || text === '' ? text : `${text}\n`)
      await writeOutputFile(path.join(dir, 'device.log'), log, 'device.log').then(
        () => saved.push(`${folder}/device.log`),
        (error: unknown) => unsaved(dir, error)
      )
    }
    for (const file of saved) process.stderr.write(`saved: ${path.join(reportDir, file)}\n`)
    // Nothing could be had (a device that is not attached): no folder that only looks like a failure's pictures.
    if (saved.length === 0) await removeFailureFolder(dir)
    return saved
  }

  /**
   * Several devices: one child `arc test` per device, in parallel, each with its own device and its share of the
   * flows (all of them, or every n-th with --shard); their results come back as JSON and make one report.
   */
  private async runOnDevices(
    files: string[],
    devices: string[],
    shard: boolean,
    retries: number,
    reportDir: string | undefined
  ): Promise<FlowResult[]> {
    // Where the children write their results: a temporary folder that cannot be made is said as such, not a bug.
    const scratch = await mkdtemp(path.join(os.tmpdir(), 'arc-test-')).catch((error: NodeJS.ErrnoException) => {
      throw outputError(
        {path: os.tmpdir(), input: 'TMPDIR'},
        `cannot make a temporary folder there for the devices' results: ${outputReason(error)}`,
        error
      )
    })
    const children = new Set<ChildProcess>()
    // This process ended at once (bin/main.js on a stdout whose reader went away, a second Ctrl-C): the children, each
    // acting on its device, end with it rather than run on unwatched, and the scratch folder goes too.
    const ended = () => {
      for (const child of children) child.kill()
      rmSync(scratch, {recursive: true, force: true})
    }
    process.on('exit', ended)
    // Stopped by a signal: each child stops the same way (the signal reaches this process alone when a CI runner sends
    // it), writes its results, and the report is made of them.
    const stopChildren = (signal: NodeJS.Signals) => {
      for (const child of children) if (child.connected) child.send({arcTestStop: signal} satisfies StopMessage)
    }
    this.onStop.add(stopChildren)
    try {
      const runs = devices.map(async (device, i) => {
        const mine = shard ? files.filter((_, k) => k % devices.length === i) : files
        if (mine.length === 0) return []
        // Named as the child names them: among its own files.
        const names = uniqueFlowNames(mine)
        if (this.stopped) return mine.map((file, k) => this.notRun(file, names[k]!, device, this.stopped!))
        const resultsFile = path.join(scratch, `${i}.json`)
        const args = [
          ...process.execArgv,
          process.argv[1] as string,
          'test',
          ...mine,
          '--device',
          device,
          '--retries',
          String(retries),
          '--results',
          resultsFile,
        ]
        if (reportDir) args.push('--report-dir', reportDir)
        const prefix = `[${printableLine(device)}] `
        const ended = await new Promise<{code: number | null; signal: NodeJS.Signals | null}>((resolve, reject) => {
          // An IPC channel: how this process stops the child (stopChildren), and how the child knows this one is gone.
          const child = spawn(process.execPath, args, {
            stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
            env: {...process.env, [CHILD_ENV]: '1'},
          })
          children.add(child)
          if (this.stopped) child.send({arcTestStop: this.stopped} satisfies StopMessage)
          child.on('exit', () => children.delete(child))
          const relay = (from: NodeJS.ReadableStream, to: NodeJS.WriteStream) => {
            let rest = ''
            from.on('data', (chunk: Buffer) => {
              const text = rest + chunk.toString('utf8')
              const lines = text.split('\n')
              rest = lines.pop() ?? ''
              for (const line of lines) to.write(`${prefix}${line}\n`)
            })
            from.on('end', () => rest && to.write(`${prefix}${rest}\n`))
          }
          relay(child.stdout!, process.stdout)
          relay(child.stderr!, process.stderr)
          child.on('error', reject)
          child.on('close', (code, signal) => resolve({code, signal}))
        })
        // What the child wrote as each flow ended; a child that died keeps those, and each flow it did not finish is a
        // failure saying how it ended (what it printed went out above).
        const done = await readFile(resultsFile, 'utf8').then(
          (text) => JSON.parse(text) as FlowResult[],
          () => []
        )
        const how = ended.signal ? `was killed by ${ended.signal}` : `ended with exit status ${ended.code}`
        const status = ended.signal
          ? 128 + (os.constants.signals[ended.signal] ?? 0)
          : ended.code || exitCodeFor('INTERNAL')
        return [
          ...done,
          ...mine.slice(done.length).map((file, k): FlowResult => ({
            flow: names[done.length + k]!,
            file,
            device,
            passed: false,
            attempts: 0,
            ms: 0,
            steps: [],
            failure: {
              line: 0,
              text: '',
              status,
              message: `the arc test on ${device} ${how} before it ${k === 0 ? 'finished' : 'ran'} this flow`,
            },
            artifacts: [],
          })),
        ]
      })
      return (await Promise.all(runs)).flat()
    } finally {
      this.onStop.delete(stopChildren)
      process.off('exit', ended)
      await rm(scratch, {recursive: true, force: true})
    }
  }
}
