/**
 * `--record FILE` (`arc batch`, `arc mcp serve`): the session's successful actions written as a flow file that
 * `arc test` runs (docs/flows.md, "Recording a session"). One line per call that acted (a tool whose kind is not
 * `read`) and succeeded, the command line that does it again: the tool's command and its inputs as flags. An
 * element acted on by id is named by a selector where one matches it alone on the screen it was resolved on
 * (`click --res-id dev.example:id/save --exact-match`); an id is written only where it would hold in another
 * process (a content id, never an ordinal id counted among look-alikes); where neither can be, the line says so as
 * a comment and the step is left out. The file is rewritten whole after every recorded step, so a session stopped
 * any way leaves what it did.
 */
import {renameSync, rmSync, writeFileSync} from 'node:fs'
import {lstat, stat} from 'node:fs/promises'
import path from 'node:path'

import {flagName, schemaFields} from '../cli/schema-fields.js'
import {InvalidInputError, OutputError} from '../errors/arc-error.js'
import {makeFolders, outputKind, outputReason} from '../output-files.js'
import {printableLine} from '../printable.js'
import {sideStem} from '../side-name.js'
import {claimRecordFile} from './record-claim.js'
import type {ActedElement, AnyTool} from '../tools/define-tool.js'
import type {CallWatcher, ToolObserver} from '../tools/run-tool.js'

/** A word as the flow reader splits it back: bare when plain, else in single quotes (literal: no `${…}` there). */
export function flowWord(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word
  return `'${word.replaceAll("'", `'\\''`)}'`
}

const plain = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value))

/** A failed expression of a step, as a comment (never a step that would act elsewhere). */
export interface RecordedStep {
  line: string
  /** Left out: `line` is a comment saying why. */
  skipped?: boolean
}

/**
 * The command line for one call: the tool's command words, positionals in order, other inputs as flags (the
 * caller's own values, not the defaults filled in), and a selector in place of `element_id` where the target has
 * one. Never a device or adb server: a flow runs on the device `arc test` picks (FlowRecorder keeps a session's
 * steps to one device).
 */
export function stepFor(tool: AnyTool, input: unknown, cliInput: unknown, target?: ActedElement): RecordedStep {
  const given = {...(input as Record<string, unknown>), ...(cliInput as Record<string, unknown> | undefined)}
  const positional = tool.cli.positional ?? []
  const fields = new Map(
    [...schemaFields(tool.input), ...(tool.cli.input ? schemaFields(tool.cli.input) : [])].map((f) => [f.name, f])
  )
  const words = tool.cli.id.split(' ')
  const flags: string[] = []
  if (typeof given.element_id === 'string') {
    // A selector only where the command takes one (click, type…; not scroll's --element-id): they all have --exact-match.
    if (target?.selector && fields.has('exact_match')) {
      // The selector stands where the id stood: right after the command, as `arc type append --res-id X text`.
      delete given.element_id
      for (const [flag, value] of target.selector) words.push(flag, value)
      words.push('--exact-match')
    } else if (target?.ordinal) {
      return {
        skipped: true,
        line: `# left out: ${tool.cli.id} on ${target.id}, one of several look-alikes ${target.selector ? `(${tool.cli.id} takes no selector)` : 'that no text, description or resource id names alone on that screen'} (its id holds only in the session that read it)`,
      }
    }
  }
  const positionals: string[] = []
  let arrayPositional = false
  for (const name of positional) {
    const value = given[name]
    if (value === undefined) continue
    if (Array.isArray(value)) {
      arrayPositional = true
      positionals.push(...value.map(plain))
    } else positionals.push(plain(value))
  }
  for (const [name, value] of Object.entries(given)) {
    if (positional.includes(name) || value === undefined || value === null) continue
    const flag = `--${flagName(name)}`
    const field = fields.get(name)
    if (typeof value === 'boolean') {
      if (value) flags.push(flag)
      else if (field?.default === true) flags.push(`--no-${flagName(name)}`)
    } else if (Array.isArray(value) && field?.items !== 'array' && field?.items !== 'object')
      for (const item of value) flags.push(flag, plain(item))
    else flags.push(flag, plain(value))
  }
  // An array positional, or a value that starts with `-` (which the parser would take for a flag), goes after `--`,
  // at the end of the line, flags before it.
  const afterDashes = arrayPositional || positionals.some((p) => p.startsWith('-'))
  const all = afterDashes ? [...words, ...flags, '--', ...positionals] : [...words, ...positionals, ...flags]
  // A flow has one step a line and no escape for a line break: such a value cannot be written, so the step is left out.
  if (all.some((word) => /[\r\n]/.test(word))) {
    return {
      skipped: true,
      line: `# left out: ${tool.cli.id} with a value holding a line break, which a flow line cannot carry (one step a line, no escape for it)`,
    }
  }
  return {line: all.map(flowWord).join(' ')}
}

export interface FlowRecorderOptions {
  /** The flow file to write (its folder is created). */
  file: string
  /** How the file is announced and headed: `arc batch --record`, `arc mcp serve --record`. */
  by: string
  /** Called each time the file is written (the surface announces it). */
  wrote?(file: string, steps: number, skipped: number): void
  /** Called once, at the first step left out for acting on another device than the flow's (the surface says it). */
  warn?(message: string): void
  /**
   * Replace a file that already holds something (`--overwrite`). Without it such a file is refused at the start:
   * a recording rewrites its whole file, and the file named may be a flow someone wrote or edited by hand.
   */
  overwrite?: boolean
}

/** The device a call acted on: its serial, and the adb server where the command line named one. */
interface ActedDevice {
  key: string
  /** As said in comments and messages: `emu-2`, or `emu-2 on farm:5038`. */
  name: string
}

/**
 * The flow is rewritten whole after every step, a temporary file renamed over it: only a regular file (or nothing)
 * can be the target. Renamed over a FIFO, or (as root) over a device node such as `/dev/null`, it would replace the
 * node with a regular file; a folder would fail only at the rename.
 */
async function refuseNonFile(file: string): Promise<void> {
  const kind = await outputKind(file)
  const found = await stat(file).catch(() => undefined)
  // A regular file under /dev or /proc (/dev/shm/x.flow) is one, but a link there (/dev/stdout) is a stream's name.
  const plainFile = (await lstat(file).catch(() => undefined))?.isFile()
  const what = found?.isDirectory()
    ? 'it is a folder'
    : kind === 'stream' && !plainFile
      ? `it is ${found?.isFIFO() ? 'a FIFO' : found?.isCharacterDevice() ? 'a character device' : 'a link to a stream'}`
      : typeof kind === 'object'
        ? kind.refuse
        : undefined
  if (what) throw new Error(`${what}: the recording is rewritten whole after every step, so it needs a regular file`)
}

/**
 * A recording starts a new flow and rewrites its whole file at once, before the session's first step: a file that
 * already holds something (a flow written or edited by hand, an earlier session's recording) would be lost without a
 * word. So it is refused unless the caller said to replace it (as asciinema's `rec` refuses an existing file without
 * `--overwrite` or `--append`). An empty file (made by `touch` or `mktemp`) holds nothing to lose.
 */
async function refuseExisting(file: string): Promise<void> {
  const found = await stat(file).catch(() => undefined)
  if (found?.isFile() && found.size > 0)
    throw new Error(
      `it already exists (${found.size} bytes), and a recording replaces the whole file at its start: pass --overwrite to replace it, or name a new file`
    )
}

/**
 * Refuses `--overwrite` without `--record` (arc batch, arc mcp serve): the flag only says what a recording may do to
 * its file, so without one it would be dropped unseen.
 */
export function refuseOverwriteWithoutRecord(record: string | undefined, overwrite: boolean | undefined): void {
  if (overwrite && record === undefined)
    throw new InvalidInputError(
      '--overwrite is for --record FILE (it lets a recording replace that file): add --record, or drop --overwrite',
      {details: {inputs: ['overwrite', 'record']}}
    )
}

function actedDevice(serial: string | undefined, host?: string, port?: number): ActedDevice | undefined {
  if (serial === undefined) return undefined
  const server =
    host === undefined && port === undefined ? '' : ` on ${host ?? 'the default host'}:${port ?? 'the default port'}`
  return {key: JSON.stringify([serial, host ?? null, port ?? null]), name: printableLine(`${serial}${server}`)}
}

/**
 * Records the successful actions of a session into a flow file. A flow names no device: `arc test` picks the one
 * (or the several) it runs on. So a session's steps are kept to the first device it acted on; a step that acted on
 * another (a batch line's own `--device`, an MCP call naming another served device) is left out with a comment, and
 * said at once (options.warn), rather than replayed on the device the run picked as if it were the same.
 */
export class FlowRecorder {
  private readonly steps: RecordedStep[] = []
  /** The device the session's first recorded action ran on: the flow's. */
  private device?: ActedDevice
  private warned = false
  private writing: Promise<void> = Promise.resolve()
  /** Writes queued and not yet done. */
  private queued = 0
  /** The file's folder exists (a write made it): a step is written at once, before its call's output goes out. */
  private folderMade = false
  private failed?: Error
  /** This recording's claim on its file (record-claim.ts), from its first write to release(). */
  private claim?: {release(): void}
  readonly file: string

  constructor(private readonly options: FlowRecorderOptions) {
    this.file = path.resolve(options.file)
  }

  /** The observer to hand to runTool (RunDeps.observe). */
  readonly observe: ToolObserver = ({tool, input, cliInput, device, adbHost, adbPort}) => {
    if (tool.kind === 'read') return undefined
    let target: ActedElement | undefined
    const watcher: CallWatcher = {
      target: (t) => (target = t),
      succeeded: (serial) => {
        const on = actedDevice(serial ?? device, adbHost, adbPort)
        this.device ??= on
        this.steps.push(
          on && this.device && on.key !== this.device.key
            ? this.otherDevice(tool, on, this.device)
            : stepFor(tool, input, cliInput, target)
        )
        // On disk before the call's output is printed: a process that ends at that output (its reader gone: bin/main.js
        // ends it with OUTPUT_FAILED a few ticks later) still leaves every step that acted.
        if (this.folderMade && this.queued === 0) this.writeNow(this.text(), [this.recorded, this.skipped])
        else void this.write()
      },
    }
    return watcher
  }

  /** A step that acted on another device than the flow's: left out, and said once. */
  private otherDevice(tool: AnyTool, on: ActedDevice, flows: ActedDevice): RecordedStep {
    if (!this.warned) {
      this.warned = true
      this.options.warn?.(
        `--record: ${tool.cli.id} acted on ${on.name}, not ${flows.name}, the device of the steps before it: a flow runs on the one device arc test picks, so steps on another device are left out of ${this.file} (see its comments); record each device's session to a flow of its own`
      )
    }
    return {
      skipped: true,
      line: `# left out: ${tool.cli.id} on ${on.name}, not ${flows.name} (a flow runs on the one device arc test picks)`,
    }
  }

  get recorded(): number {
    return this.steps.filter((s) => !s.skipped).length
  }

  get skipped(): number {
    return this.steps.filter((s) => s.skipped).length
  }

  /** The flow's text now. */
  text(): string {
    const head = [
      `# Recorded by ${this.options.by}: ${this.recorded} step(s)${this.skipped ? `, ${this.skipped} left out (see the comments)` : ''}.`,
      ...(this.device
        ? [`# Recorded on ${this.device.name}; its steps name no device: arc test runs them on the one it picks.`]
        : []),
      '# Run it with: arc test FILE --device SERIAL (docs/flows.md)',
    ]
    return [...head, ...this.steps.map((s) => s.line), ''].join('\n')
  }

  /** Writes the file whole (a temporary name, then a rename); writes queue, so the last one holds every step. */
  write(): Promise<void> {
    const text = this.text()
    const counts = [this.recorded, this.skipped] as const
    this.queued++
    this.writing = this.writing.then(async () => {
      try {
        if (!this.folderMade) {
          await refuseNonFile(this.file)
          // Before the first write replaces the file: it may be another session's recording, still going.
          this.claim ??= await claimRecordFile(this.file)
          if (!this.options.overwrite) await refuseExisting(this.file)
        }
        // One level at a time: a recursive mkdir never settles where the OS refuses a folder (/proc/nope).
        await makeFolders(path.dirname(this.file))
        this.folderMade = true
      } catch (error) {
        this.failed ??= error as Error
        return
      } finally {
        this.queued--
      }
      this.writeNow(text, counts)
    })
    return this.writing
  }

  /** Writes `text` whole now, synchronously (a temporary name, then a rename); a failure is kept for flush(). */
  private writeNow(text: string, counts: readonly [number, number]): void {
    const temp = path.join(path.dirname(this.file), `${sideStem(path.basename(this.file))}.${process.pid}.tmp`)
    try {
      // The user's alone (0600, as ssh and netrc files): a flow holds the text typed, a password too.
      writeFileSync(temp, text, {mode: 0o600})
      renameSync(temp, this.file)
    } catch (error) {
      try {
        rmSync(temp, {force: true})
      } catch {
        // The temporary file could not be removed either: the write's own error is the one said.
      }
      this.failed ??= error as Error
      return
    }
    this.options.wrote?.(this.file, ...counts)
  }

  /** Lets the file go for another recording (once the last write was flushed); the process's end does too. */
  release(): void {
    this.claim?.release()
    this.claim = undefined
  }

  /** Waits for the writes queued so far; OUTPUT_FAILED when one could not be written. */
  async flush(): Promise<void> {
    await this.writing
    if (this.failed) {
      throw new OutputError(`--record: cannot write ${this.file}: ${outputReason(this.failed)}`, {
        details: {input: 'record', path: this.file},
        cause: this.failed,
      })
    }
  }
}
