import {Chalk} from 'chalk'

import {onCi} from '../ci.js'
import type {ArcError} from '../errors/arc-error.js'
import {formatError} from '../errors/format-error.js'

/**
 * Colour only when the stream is a terminal and NO_COLOR is unset; FORCE_COLOR forces it as chalk reads it (a level,
 * `true`, or `false`). Worked out per call from the environment and the stream as they are now, never from chalk's
 * reading of this process's stdout at start-up: in `arc server` each command's streams and environment are its
 * client's. On a terminal at least 16 colours, more where the terminal says so (tty getColorDepth).
 */
export function colorsFor(stream: NodeJS.WriteStream): InstanceType<typeof Chalk> {
  if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '') return new Chalk({level: 0})
  const forced = process.env.FORCE_COLOR
  if (forced !== undefined) return new Chalk({level: forcedLevel(forced)})
  if (!stream.isTTY) return new Chalk({level: 0})
  const depth = typeof stream.getColorDepth === 'function' ? stream.getColorDepth() : 4
  return new Chalk({level: depth >= 24 ? 3 : depth >= 8 ? 2 : 1})
}

/** FORCE_COLOR as chalk's supports-color reads it: `true` or empty 1, `false` 0, else the number, at most 3. */
function forcedLevel(value: string): 0 | 1 | 2 | 3 {
  if (value === 'true' || value === '') return 1
  if (value === 'false') return 0
  const n = Number.parseInt(value, 10)
  return (Number.isNaN(n) ? 0 : Math.max(0, Math.min(3, n))) as 0 | 1 | 2 | 3
}

/**
 * An error as the CLI prints it on `stream` (formatError's lines): coloured on a terminal, and with the stack when
 * DEBUG names arc (`DEBUG=arc*`), for every code alike. ArcCommand and the unknown-command hook both print this.
 */
export function cliErrorText(error: ArcError, stream: NodeJS.WriteStream): string {
  const c = colorsFor(stream)
  const debug = /(^|,)\s*arc/.test(process.env.DEBUG ?? '')
  const style = {
    label: (t: string) => c.red.bold(t),
    code: (t: string) => c.dim(t),
    action: (t: string) => c.cyan(t),
    stack: (t: string) => c.dim(t),
  }
  return formatError(error, {style, stack: debug})
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏']

const TERMINAL_ONLY = Symbol.for('arc.terminal-only-write')
type TerminalOnly = {[TERMINAL_ONLY]?: (text: string) => boolean}

/**
 * Writes what belongs on the terminal alone (a spinner's frames and its clearing), past anything that keeps a copy
 * of the stream's output: `arc test` keeps a step's stderr for its report (junit.xml, summary.md), where a frame's
 * carriage return and escape codes have no place.
 */
export function writeToTerminal(stream: NodeJS.WriteStream, text: string): boolean {
  const direct = (stream as TerminalOnly)[TERMINAL_ONLY]
  return direct ? direct(text) : stream.write(text)
}

type TerminalWrite = ((text: string) => boolean) | undefined

/**
 * Says (a write function) or unsays (undefined) where writeToTerminal's text goes while something keeps a copy of
 * `stream`'s writes: the stream's own write for a copy that passes the output on, a no-op for one that hides it.
 * Returns what was said before, to be said again when the copy ends (copies nest).
 */
export function terminalOnlyWrites(stream: NodeJS.WriteStream, write: TerminalWrite): TerminalWrite {
  const before = (stream as TerminalOnly)[TERMINAL_ONLY]
  if (write) (stream as TerminalOnly)[TERMINAL_ONLY] = write
  else delete (stream as TerminalOnly)[TERMINAL_ONLY]
  return before
}

/**
 * A spinner on stderr for long waits, shown only on a TTY (never in pipes, CI logs or --json runs).
 */
export class Spinner {
  private timer?: NodeJS.Timeout
  private frame = 0
  private text = ''

  constructor(private readonly stream: NodeJS.WriteStream = process.stderr) {}

  get enabled(): boolean {
    return Boolean(this.stream.isTTY) && !onCi()
  }

  update(text: string): void {
    this.text = text
    if (!this.enabled) return
    if (!this.timer) {
      this.timer = setInterval(() => this.render(), 80)
      this.timer.unref()
    }
    this.render()
  }

  private render(): void {
    const frame = FRAMES[this.frame++ % FRAMES.length]
    writeToTerminal(this.stream, `\r\u001B[2K${frame} ${this.text}`)
  }

  stop(): void {
    if (this.timer) {
      clearInterval(this.timer)
      this.timer = undefined
      writeToTerminal(this.stream, '\r\u001B[2K')
    }
  }
}
