/**
 * Streamable HTTP at `POST /mcp`: stateless, JSON responses, a fresh MCP server and transport per request (the SDK
 * requires it in stateless mode). Before the MCP layer sees a request it must pass, in order: the path, the Host
 * and Origin checks (DNS rebinding), the bearer token, the method, the body size limit, and the session id (one this
 * server issued, else 404). An allowed Origin gets CORS headers, and its preflight an answer before the token check.
 */
import {randomUUID} from 'node:crypto'
import {createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse} from 'node:http'
import type {AddressInfo, Socket} from 'node:net'

import {StreamableHTTPServerTransport} from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import {ErrorCode} from '@modelcontextprotocol/sdk/types.js'

import {InvalidInputError, printableLine} from '@arc-cli/core'

import {checkBearer} from './auth.js'
import {ServerPool} from './mcp-server.js'
import {checkMessage, tooLarge} from './messages.js'
import type {ToolHost} from './tool-host.js'

export const DEFAULT_MAX_BODY = 16 * 1024 * 1024

export interface HttpOptions {
  host: ToolHost
  token: string
  port?: number
  bind?: string
  /** Browser origins allowed besides the server's own. */
  allowedOrigins?: string[]
  maxBodyBytes?: number
  /** Where the server reports internal failures (never with a token in them). */
  log?(message: string): void
  /** Connections that have not sent the token yet: how many at once, and for how long (default WAITING). */
  waiting?: WaitingLimits
}

/**
 * A connection is "waiting" from its accept until a request on it shows the token: anyone who can reach the port can
 * open one. At most `max` wait at once (past that the oldest is answered 503 and closed: a client with the token
 * sends its headers the moment it connects, so the newest connection is the likeliest to be one), each for at most
 * `ms` (then 408 and closed, however its headers trickle in: a slowloris). Node's own limits are far looser (no cap
 * on connections; headersTimeout 60 s, checked every 30 s), so a stranger could hold thousands of sockets, up to the
 * process's file limit, and the client with the token could not connect.
 */
export interface WaitingLimits {
  max: number
  ms: number
}

export const WAITING: WaitingLimits = {max: 64, ms: 10_000}

export interface RunningHttpServer {
  server: HttpServer
  url: string
  port: number
  close(): Promise<void>
}

/** On every answer to an allowed Origin: the headers a browser client may read (the SDK client reads these). */
const CORS_HEADERS = {
  vary: 'Origin',
  'access-control-expose-headers': 'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate',
}

/**
 * The answer to a CORS preflight from an allowed Origin. GET and DELETE are let through to their 405, which the SDK
 * client reads as "no stream, no session"; refused by the preflight, they would surface as network errors.
 */
const PREFLIGHT_HEADERS = {
  'access-control-allow-methods': 'POST, GET, DELETE',
  'access-control-allow-headers':
    'Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID',
  'access-control-max-age': '600',
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\./.test(host)
}

function reply(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {}
): void {
  if (res.headersSent) return
  res.writeHead(status, {'content-type': 'application/json', ...headers})
  res.end(JSON.stringify({jsonrpc: '2.0', error: {code, message}, id: null}))
}

/** A refusal before the token was shown: answered, then the connection is closed, so it holds nothing. */
function refuse(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {}
): void {
  reply(res, status, code, message, {...headers, connection: 'close'})
}

/**
 * An answer written straight to a connection whose request has not arrived whole (so there is no response object),
 * then the connection closed: the status line, Connection: close and a JSON-RPC error of id null.
 */
function answerRaw(socket: Socket, status: string, message: string, headers: string[] = []): void {
  if (socket.destroyed) return
  const body = JSON.stringify({jsonrpc: '2.0', error: {code: -32000, message}, id: null})
  const head = [
    `HTTP/1.1 ${status}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    ...headers,
  ]
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy())
  // A peer that never reads would keep the written answer, and the socket, forever.
  setTimeout(() => socket.destroy(), 1000).unref()
}

/**
 * One line for a kind of event that a stranger can repeat at will (refused connections): at most one each
 * `everyMs`, saying how many came since the last.
 */
function sparse(log: (message: string) => void, everyMs = 10_000): (message: string) => void {
  let last = -Infinity
  let since = 0
  return (message) => {
    const now = performance.now()
    if (now - last < everyMs) {
      since++
      return
    }
    log(since > 0 ? `${message} (and ${since} more since the last such line)` : message)
    last = now
    since = 0
  }
}

/**
 * Whether an `Accept` header lets the server answer `application/json`: no header at all (curl's examples in the
 * spec send none of their own, so curl sends its default), or a media range covering it (`application/json`,
 * `application/*`, `*\/*`) with a quality above 0 (RFC 9110 §12.5.1).
 */
export function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true
  return accept.split(',').some((part) => {
    const [range, ...params] = part.split(';').map((p) => p.trim().toLowerCase())
    const q = params.find((p) => p.startsWith('q='))
    if (q !== undefined && !(Number(q.slice(2)) > 0)) return false
    return range === 'application/json' || range === 'application/*' || range === '*/*'
  })
}

/**
 * The MCP SDK's transport answers 406 to a POST whose Accept lacks either `application/json` or
 * `text/event-stream`, even in JSON-response mode, where it never streams. arc always answers one JSON body, so a
 * client that accepts JSON (a plain `curl`, an HTTP library's default `*\/*`) is served: its Accept is widened to
 * what the transport checks for. A client that accepts no JSON keeps the transport's 406. The transport reads the
 * request's raw headers (@hono/node-server), so those are what change.
 */
function widenAccept(req: IncomingMessage): void {
  const accept = req.headers.accept
  if (!acceptsJson(accept) || (accept?.includes('application/json') && accept.includes('text/event-stream'))) return
  const both = 'application/json, text/event-stream'
  const raw = req.rawHeaders.filter((_, i, all) => all[i - (i % 2)]?.toLowerCase() !== 'accept')
  req.rawHeaders = [...raw, 'Accept', both]
  req.headers.accept = both
}

/**
 * Past the limit a body is still read to its end (thrown away) up to this much more, so that a client still
 * sending gets the 413 instead of a reset connection: a socket closed with unread data in it resets.
 */
const DRAIN_BYTES = 64 * 1024 * 1024

/**
 * Reads the body up to `limit` bytes; a larger one is thrown away as it arrives, and `tooLarge` gives its declared
 * size when it has one. The caller answers 413 at once; what is left of the body is read (to DRAIN_BYTES past the
 * limit, then the connection is closed) so the answer reaches the client and the connection can serve again.
 */
function readBody(req: IncomingMessage, limit: number): Promise<{body: Buffer} | {tooLarge: number | undefined}> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'])
    const chunks: Buffer[] = []
    let size = 0
    // Also after the answer: a client that goes away while its body is drained must not surface as an error.
    req.on('error', reject)
    const drain = () => {
      chunks.length = 0
      req.removeListener('data', collect)
      req.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size > limit + DRAIN_BYTES) req.socket.destroy()
      })
      req.resume()
      resolve({tooLarge: Number.isFinite(declared) ? declared : undefined})
    }
    const collect = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) drain()
      else chunks.push(chunk)
    }
    if (Number.isFinite(declared) && declared > limit) {
      drain()
      return
    }
    req.on('data', collect)
    req.once('end', () => resolve({body: Buffer.concat(chunks)}))
  })
}

/** How long a stopping server waits for its cancelled calls' answers to be written before it closes anyway. */
const ANSWER_WAIT_MS = 5000

/** The `notifications/cancelled` among the messages: the request ids they name. */
function cancelledIds(messages: unknown[]): Array<string | number> {
  return messages.flatMap((m) => {
    const {method, params} = m as {method?: unknown; params?: {requestId?: unknown}}
    const id = params?.requestId
    return method === 'notifications/cancelled' && (typeof id === 'string' || typeof id === 'number') ? [id] : []
  })
}

/**
 * The MCP sessions this server issued (an `Mcp-Session-Id` at `initialize`) and has not ended, least recently used
 * first. The MCP spec (Streamable HTTP, "Session Management") has a server answer a request carrying an id it does
 * not know, never issued or ended, with 404, after which the client starts a new session; so an id a client makes
 * up never reaches, nor creates, a session's records and baseline. Past `max` the least recently used is ended (its
 * next request gets 404); an id is some 100 bytes, so 10,000 of them weigh about 1 MB.
 */
export class IssuedSessions {
  private readonly ids = new Set<string>()

  constructor(
    private readonly onEnd: (id: string) => void,
    private readonly max = 10_000
  ) {}

  issue(): string {
    const id = randomUUID()
    this.ids.add(id)
    if (this.ids.size > this.max) this.end(this.ids.values().next().value as string)
    return id
  }

  /** Whether `id` names a live session; a live one becomes the most recently used. */
  use(id: string): boolean {
    if (!this.ids.delete(id)) return false
    this.ids.add(id)
    return true
  }

  /** Forgets the session without telling `onEnd` (its stores are gone already). */
  forget(id: string): void {
    this.ids.delete(id)
  }

  /** Ends the session: false when there was none. */
  end(id: string): boolean {
    if (!this.ids.delete(id)) return false
    this.onEnd(id)
    return true
  }
}

/** The spec's answer to an unknown session id (the SDK's own servers answer it with -32001 too). */
const SESSION_NOT_FOUND =
  'Session not found: this server never issued that Mcp-Session-Id, or the session ended; send initialize without it to start a new session'

/** A JSON-RPC `initialize` request, alone or in a batch. */
function isInitialize(message: unknown): boolean {
  if (Array.isArray(message)) return message.some(isInitialize)
  return typeof message === 'object' && message !== null && (message as {method?: unknown}).method === 'initialize'
}

/**
 * What a failed listen says: a port taken (another `arc mcp serve`, or any program) or closed to this user, or an
 * address no interface of this machine has, named as the flag (or config key) that chose it. Anything else stays
 * the system's error.
 */
function listenError(error: NodeJS.ErrnoException, port: number, bind: string): Error {
  const where = `${bind.includes(':') ? `[${bind}]` : bind}`
  if (error.code === 'EADDRINUSE')
    return new InvalidInputError(
      `--port: port ${port} on ${where} is already in use (another arc mcp serve, or another program)`,
      {
        details: {input: 'port', value: port},
        actions: ['Pick another port with --port (or mcp.port), or --port 0 for a free one.'],
      }
    )
  if (error.code === 'EACCES')
    return new InvalidInputError(
      `--port: this user may not listen on port ${port} on ${where} (ports below 1024 need privileges)`,
      {
        details: {input: 'port', value: port},
        actions: ['Pick a port from 1024 to 65535 with --port (or mcp.port), or --port 0 for a free one.'],
      }
    )
  if (
    error.code === 'EADDRNOTAVAIL' ||
    error.code === 'ENOTFOUND' ||
    error.code === 'EAI_AGAIN' ||
    error.code === 'EAI_NONAME'
  )
    return new InvalidInputError(
      `--host: ${printableLine(bind)} is not an address of this machine, so nothing can listen there`,
      {
        details: {input: 'host'},
        actions: ["Leave --host (and mcp.host) out to listen on 127.0.0.1, or give one of this machine's addresses."],
      }
    )
  return error
}

export async function startHttpServer(options: HttpOptions): Promise<RunningHttpServer> {
  const bind = options.bind ?? '127.0.0.1'
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY
  const log = options.log ?? (() => undefined)
  const pool = new ServerPool(options.host)
  const sessions = new IssuedSessions((id) => options.host.endSession(id))
  // A session whose records the host dropped (too many, or over the memory budget) is ended: 404 from its next request.
  options.host.onDrop = (id) => sessions.forget(id)
  let port = options.port ?? 7777
  const ownHosts = () => {
    const own = bind.includes(':') ? `[${bind}]` : bind
    // Its own address too: bound to 127.0.0.2, the URL it prints names that.
    const names = isLoopback(bind) ? [...new Set(['127.0.0.1', 'localhost', '[::1]', own.toLowerCase()])] : [own]
    // On port 80 a client leaves the port out of Host and Origin (RFC 9110 §7.2, RFC 6454): both forms are its own.
    return new Set(names.flatMap((n) => (port === 80 ? [`${n}:${port}`, n] : [`${n}:${port}`])))
  }
  let hosts = new Set<string>()
  const origins = () => new Set([...[...hosts].map((h) => `http://${h}`), ...(options.allowedOrigins ?? [])])
  let allowedOrigins = new Set<string>()

  /** Requests not answered yet: a server that stops answers them before it closes their connections. */
  const answering = new Set<ServerResponse>()
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    answering.add(res)
    res.once('close', () => answering.delete(res))
    const path = (req.url ?? '').split('?')[0]
    // `/mcp/` too: clients' configs often end the URL with a slash.
    if (path !== '/mcp' && path !== '/mcp/') return refuse(res, 404, -32000, 'Not found')
    // DNS rebinding: a page on another origin, or a name that resolves to this machine, gets nothing.
    if (isLoopback(bind) && !hosts.has((req.headers.host ?? '').toLowerCase()))
      return refuse(res, 403, -32000, 'Forbidden: Host not allowed')
    const origin = req.headers.origin
    if (origin !== undefined && !allowedOrigins.has(origin))
      return refuse(res, 403, -32000, 'Forbidden: Origin not allowed')
    if (origin !== undefined) {
      // An allowed browser origin (the MCP Inspector's UI in direct mode): without these headers the browser hides
      // every answer, refusals included, from the page.
      for (const [name, value] of Object.entries(CORS_HEADERS)) res.setHeader(name, value)
      res.setHeader('access-control-allow-origin', origin)
      // The preflight carries no credentials, so it is answered before the token is checked; it runs nothing.
      if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
        res.writeHead(204, {...PREFLIGHT_HEADERS, connection: 'close'}).end()
        return
      }
    }
    if (!checkBearer(req.headers.authorization, options.token)) {
      log('refused a request: 401, no valid bearer token')
      return refuse(res, 401, -32001, 'Unauthorized', {'www-authenticate': 'Bearer realm="arc"'})
    }
    // The token shown: this connection no longer waits, and may stay open as long as its client keeps it.
    admitted(req.socket)
    const header = req.headers['mcp-session-id']
    const session = Array.isArray(header) ? header.join(', ') : header
    if (req.method === 'DELETE') {
      // The spec's way for a client to end its session (the SDK client's terminateSession).
      if (session === undefined)
        return reply(res, 400, -32000, 'Bad Request: DELETE ends a session: send its Mcp-Session-Id')
      if (!sessions.end(session)) return reply(res, 404, -32001, SESSION_NOT_FOUND)
      log('a client ended its session')
      res.writeHead(200).end()
      return
    }
    if (req.method !== 'POST') return reply(res, 405, -32000, 'Method not allowed', {allow: 'POST, DELETE'})
    const read = await readBody(req, limit)
    if ('tooLarge' in read) {
      log(`refused a request body over the limit of ${limit} bytes (--max-body)`)
      return reply(res, 413, ErrorCode.InvalidRequest, tooLarge(null, read.tooLarge, limit).error.message)
    }
    let parsed: unknown
    try {
      parsed = JSON.parse(read.body.toString('utf8'))
    } catch {
      log('refused a request: its body is not JSON')
      return reply(res, 400, ErrorCode.ParseError, 'Parse error: the body is not JSON')
    }
    const messages = Array.isArray(parsed) ? parsed : [parsed]
    if (messages.length === 0) return reply(res, 400, ErrorCode.InvalidRequest, 'Invalid Request: an empty batch')
    for (const message of messages) {
      // The spec's answer to input the server cannot accept: 400, with a JSON-RPC error of id null.
      const checked = checkMessage(message)
      if ('error' in checked) {
        log(`refused a request: ${checked.error.error.message}`)
        return reply(res, 400, checked.error.error.code, checked.error.error.message)
      }
    }
    const initialize = isInitialize(parsed)
    if (session !== undefined && !initialize && !sessions.use(session)) {
      log('refused a request: 404, a session id this server does not know')
      return reply(res, 404, -32001, SESSION_NOT_FOUND)
    }
    if (initialize && session !== undefined) {
      // A client starting a new session while it still sends an old id (the spec says to leave it out): the new
      // session is its, and nothing of the request reaches the old one, known or not.
      req.rawHeaders = req.rawHeaders.filter((_, i, all) => all[i - (i % 2)]?.toLowerCase() !== 'mcp-session-id')
      delete req.headers['mcp-session-id']
    }
    if (session !== undefined && !initialize)
      for (const id of cancelledIds(messages))
        if (pool.calls.cancel(session, id))
          log(`cancelled call ${typeof id === 'number' ? id : JSON.stringify(id.slice(0, 40))} of a session`)
    widenAccept(req)
    // Stateless, yet sessions: `initialize` gets an Mcp-Session-Id, which a client sends with every later request
    // (the SDK's does). Nothing is kept per session but what a caller must not share: its element records and the
    // `changes` baseline.
    if (initialize) res.setHeader('mcp-session-id', sessions.issue())
    const server = pool.take()
    const transport = new StreamableHTTPServerTransport({sessionIdGenerator: undefined, enableJsonResponse: true})
    res.once('close', () => {
      // Closing the server aborts the calls still running: a client that disconnects cancels them.
      const gone = !res.writableFinished
      void server.close().then(() => {
        if (gone) log('a client closed its connection before the answer: its calls are cancelled')
        pool.give(server)
      })
    })
    await server.connect(transport)
    await transport.handleRequest(req, res, parsed)
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(`internal error: ${error instanceof Error ? error.message : String(error)}`)
      reply(res, 500, -32603, 'Internal server error')
    })
  })

  // Connections that have not shown the token yet, oldest first, each with the timer that ends its wait.
  const limits = options.waiting ?? WAITING
  const waiting = new Map<Socket, NodeJS.Timeout>()
  const logRefused = sparse(log)
  const admitted = (socket: Socket) => {
    clearTimeout(waiting.get(socket))
    waiting.delete(socket)
  }
  server.on('connection', (socket: Socket) => {
    waiting.set(
      socket,
      setTimeout(() => {
        if (!waiting.has(socket)) return
        admitted(socket)
        logRefused(`closed a connection: 408, no request with the token within ${limits.ms} ms`)
        answerRaw(socket, '408 Request Timeout', `Request Timeout: no whole request within ${limits.ms} ms`)
      }, limits.ms)
    )
    socket.once('close', () => admitted(socket))
    if (waiting.size > limits.max) {
      const oldest = waiting.keys().next().value as Socket
      admitted(oldest)
      logRefused(`closed a connection: 503, over ${limits.max} connections waiting to send a request with the token`)
      answerRaw(
        oldest,
        '503 Service Unavailable',
        `Service Unavailable: over ${limits.max} connections are waiting to send a request; try again`,
        ['Retry-After: 1']
      )
    }
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(listenError(error, port, bind)))
    server.listen(port, bind, () => {
      server.off('error', reject)
      resolve()
    })
  })
  port = (server.address() as AddressInfo).port
  hosts = ownHosts()
  allowedOrigins = origins()
  const shownHost = bind.includes(':') ? `[${bind}]` : bind
  return {
    server,
    port,
    url: `http://${shownHost}:${port}/mcp`,
    close: async () => {
      // No new connection from here (idle ones close); every call running ends CANCELLED, as a client's cancellation
      // ends it (its device work cut off and undone), and is answered; then what is left is closed.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      await options.host.cancelAll()
      let timer: NodeJS.Timeout | undefined
      const answered = Promise.all(
        [...answering].map(
          (res) => new Promise<void>((resolve) => (res.closed ? resolve() : res.once('close', resolve)))
        )
      )
      await Promise.race([answered, new Promise<void>((resolve) => (timer = setTimeout(resolve, ANSWER_WAIT_MS)))])
      clearTimeout(timer)
      server.closeAllConnections()
      await closed
    },
  }
}
