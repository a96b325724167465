import chalk, {Chalk} from 'chalk'

/**
 * Colour only when the stream is a terminal and NO_COLOR is unset (chalk already honours NO_COLOR and
 * FORCE_COLOR; this also turns colour off for pipes and files on stderr).
 */
export function colorsFor(stream: NodeJS.WriteStream): InstanceType<typeof Chalk> {
  if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '') return new Chalk({level: 0})
  if (process.env.FORCE_COLOR) return chalk
  return new Chalk({level: stream.isTTY ? chalk.level || 1 : 0})
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
