import chalk, {Chalk} from 'chalk'

import type {ArcError} from '../errors/arc-error.js'
import {formatError} from '../errors/format-error.js'

/**
 * Colour only when the stream is a terminal and NO_COLOR is unset (chalk already honours NO_COLOR and
 * FORCE_COLOR; this also turns colour off for pipes and files on stderr).
 */
export function colorsFor(stream: NodeJS.WriteStream): InstanceType<typeof Chalk> {
  if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '') return new Chalk({level: 0})
  if (process.env.FORCE_COLOR) return chalk
  return new Chalk({level: stream.isTTY ? chalk.level || 1 : 0})
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

/**
 * A spinner on stderr for long waits, shown only on a TTY (never in pipes, CI logs or --json runs).
 */
export class Spinner {
  private timer?: NodeJS.Timeout
  private frame = 0
  private text = ''

  constructor(private readonly stream: NodeJS.WriteStream = process.stderr) {}

  get enabled(): boolean {
    return Boolean(this.stream.isTTY) && !process.env.CI
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
    this.stream.write(`\r\u001B[2K${frame} ${this.text}`)
  }

  stop(): void {
    if (this.timer) {
      clearInterval(this.timer)
      this.timer = undefined
      this.stream.write('\r\u001B[2K')
    }
  }
}
