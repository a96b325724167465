/**
 * `arc server status` and `arc server stop`: one question to this installation's server, if one answers.
 */
import {connect} from 'node:net'

import {frame, FrameReader, PROTOCOL, socketExists, type ServerStatus} from './protocol.js'

/**
 * Sends `kind` to the server on `socket`; its status (for `status`), `{}` once it said yes (for `stop`), or
 * undefined where no server answers (no socket, or one nobody listens on).
 */
export function ask(socket: string, root: string, kind: 'status' | 'stop'): Promise<ServerStatus | object | undefined> {
  if (!socketExists(socket)) return Promise.resolve(undefined)
  return new Promise((resolve) => {
    const conn = connect(socket)
    const reader = new FrameReader()
    let output = ''
    let answer: ServerStatus | object | undefined
    conn.on('connect', () => conn.write(frame('R', JSON.stringify({protocol: PROTOCOL, kind, root}))))
    conn.on('data', (chunk: Buffer) => {
      let frames
      try {
        frames = reader.push(chunk)
      } catch {
        conn.destroy()
        return
      }
      for (const {type, body} of frames) {
        if (type === 'O') output += body.toString()
        if (type === 'X') answer = output ? (JSON.parse(output) as ServerStatus) : {}
      }
    })
    conn.on('error', () => undefined)
    conn.on('close', () => resolve(answer))
  })
}
