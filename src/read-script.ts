import type {Readable} from 'node:stream'

import {InvalidInputError} from '@arc-cli/core'

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
  return Buffer.concat(chunks).toString('utf8')
}
