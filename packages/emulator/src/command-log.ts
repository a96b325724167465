import {appendFileSync, writeFileSync} from 'node:fs'

/** One device command as the emulator received it. */
export interface ReceivedCommand {
  serial: string
  /** The service it came through; `sync` entries have argv like ['STAT', '/sdcard/x']. */
  service: 'shell' | 'shell,v2' | 'exec' | 'sync'
  /** For shell/exec: the exact argv the device program received (argv[0] = program name). */
  argv: string[]
  /** The service's command string as the client sent it (the whole `sh -c` line for shell/exec). */
  raw: string
  /** ISO 8601 time it was received. */
  time: string
}

/** One host-protocol request (`host:version`, `shell,v2,raw:ls`, `sync:`…) as received on the wire. */
export interface ReceivedRequest {
  /** The device the connection had selected, if any. */
  serial?: string
  raw: string
  time: string
}

/**
 * `--log FILE`: one JSON object per line, `{"kind":"command",…ReceivedCommand}` for every device program run
 * and every sync request, `{"kind":"request",…}` for every host-protocol request. The file is truncated at start.
 */
export class CommandLog {
  constructor(readonly file: string) {
    writeFileSync(file, '')
  }

  command(entry: ReceivedCommand): void {
    appendFileSync(this.file, `${JSON.stringify({kind: 'command', ...entry})}\n`)
  }

  request(entry: ReceivedRequest): void {
    appendFileSync(this.file, `${JSON.stringify({kind: 'request', ...entry})}\n`)
  }
}
