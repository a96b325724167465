/**
 * `arc server`, `arc server status` and `arc server stop`: one question to this installation's server, if one is
 * there.
 */
import {connect} from 'node:net'
import {realpathSync} from 'node:fs'

import {frame, HANDSHAKE_MS, onFrames, PROTOCOL, serverSocketPath, socketExists, type ServerStatus} from './protocol.js'

/**
 * The installation at `root`'s server, as `arc server status` and `stop` first ask: its socket (undefined where
 * there can be none: Windows) and its answer to `status` (see `ask`).
 */
export async function serverAt(
  root: string
): Promise<{root: string; socket: string | undefined; answer: ServerStatus | 'silent' | undefined}> {
  const real = realpathSync(root)
  const socket = serverSocketPath(real)
  const answer = socket ? ((await ask(socket, real, 'status')) as ServerStatus | 'silent' | undefined) : undefined
  return {root: real, socket, answer}
}

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
    onFrames(conn, (type, body) => {
      if (type === 'O') output += body.toString()
      if (type === 'X') {
        clearTimeout(timer)
        answer = output ? (JSON.parse(output) as ServerStatus) : {}
      }
    })
    conn.on('error', () => undefined)
    conn.on('close', () => {
      clearTimeout(timer)
      resolve(answer)
    })
  })
}
