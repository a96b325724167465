/**
 * `arc server`, `arc server status` and `arc server stop`: one question to this installation's server, if one is
 * there.
 */
import {connect} from 'node:net'

import {frame, FrameReader, HANDSHAKE_MS, PROTOCOL, socketExists, type ServerStatus} from './protocol.js'

/**
 * Sends `kind` to the server on `socket`: its status (for `status`), `{}` once it said yes (for `stop`), `'silent'`
 * when something listens there but does not answer within HANDSHAKE_MS (a server stopped with Ctrl-Z or SIGSTOP),
 * or undefined where nothing listens (no socket, or one left by a server that was killed).
 */
export function ask(
  socket: string,
  root: string,
  kind: 'status' | 'stop'
): Promise<ServerStatus | object | 'silent' | undefined> {
  if (!socketExists(socket)) return Promise.resolve(undefined)
  return new Promise((resolve) => {
    const conn = connect(socket)
    const reader = new FrameReader()
    let output = ''
    let answer: ServerStatus | object | 'silent' | undefined
    let timer: NodeJS.Timeout | undefined
    conn.on('connect', () => {
      conn.write(frame('R', JSON.stringify({protocol: PROTOCOL, kind, root})))
      timer = setTimeout(() => {
        answer = 'silent'
        conn.destroy()
      }, HANDSHAKE_MS)
    })
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
        if (type === 'X') {
          clearTimeout(timer)
          answer = output ? (JSON.parse(output) as ServerStatus) : {}
        }
      }
    })
    conn.on('error', () => undefined)
    conn.on('close', () => {
      clearTimeout(timer)
      resolve(answer)
    })
  })
}
