import type {Readable} from 'node:stream'

import {InvalidInputError, isUtf8} from '@arc-cli/core'

/** The most a script (a batch, a flow file) may hold: far more lines than any runs, far less than fills memory. */
export const MAX_SCRIPT_BYTES = 16 * 1024 * 1024

/**
 * A script's text, read until its end or until it passes MAX_SCRIPT_BYTES, then refused at once (INVALID_INPUT
 * naming `what`): a file that never ends (a character device such as /dev/zero, `yes | arc batch`) must not be read
 * until memory runs out.
 */
export async function readScript(stream: Readable, what: string, instead: string): Promise<string> {
  const chunks: Buffer[] = []
  let bytes = 0
  for await (const chunk of stream) {
    bytes += (chunk as Buffer).length
    if (bytes > MAX_SCRIPT_BYTES) {
      stream.destroy()
      throw new InvalidInputError(
        `${what} is over ${MAX_SCRIPT_BYTES / 1024 / 1024} MiB: a script is one command a line`,
        {
          actions: [instead],
        }
      )
    }
    chunks.push(chunk as Buffer)
  }
  return scriptText(Buffer.concat(chunks), what)
}

/**
 * A script's bytes as text, refused (INVALID_INPUT naming `what` and the line) where they are not UTF-8: decoded
 * leniently, each such sequence would become U+FFFD, and the device would get those bytes for the ones written
 * (another command, another text typed, another file). A UTF-8 sequence never holds a line feed, so the first
 * line that does not decode alone is the one to name.
 */
export function scriptText(bytes: Buffer, what: string): string {
  if (isUtf8(bytes)) return bytes.toString('utf8')
  let line = 1
  for (let start = 0; ; line++) {
    const end = bytes.indexOf(0x0a, start)
    if (!isUtf8(bytes.subarray(start, end === -1 ? bytes.length : end)) || end === -1) break
    start = end + 1
  }
  throw new InvalidInputError(
    `${what}, line ${line}, holds bytes that are not UTF-8: arc reads a script as UTF-8 and would send the device other bytes than those written; nothing was run`,
    {
      details: {line},
      actions: ['Save the script as UTF-8 (for example: iconv -f latin1 -t utf-8 FILE > FILE.utf8).'],
    }
  )
}
