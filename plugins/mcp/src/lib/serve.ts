/** Starts `arc mcp serve` from settings (flags merged with the config): HTTP or stdio, the tool set, the token. */
import {statSync} from 'node:fs'
import path from 'node:path'
import type {Writable} from 'node:stream'

import {
  ConfigError,
  exitCodeFor,
  InvalidInputError,
  printableLine,
  setOffThreadWork,
  type AnyTool,
  type ArcConfig,
  type ToolObserver,
} from '@arc-cli/core'

import {generateToken} from './auth.js'
import {DEFAULT_MAX_BODY, startHttpServer, type RunningHttpServer, type WaitingLimits} from './http-server.js'
import {createMcpServer} from './mcp-server.js'
import {LineTransport} from './stdio-transport.js'
import {ToolHost} from './tool-host.js'
import {parseTargets, selectTools, type ToolSelection} from './tool-set.js'

export interface ServeSettings {
  tools: AnyTool[]
  config: ArcConfig
  configFile?: string
  cwd?: string
  devices?: string[]
  slug?: string
  /** The spec's per-device tool names (android_<slug>_<name>); default: true when `slug` is given, else false. */
  slugNames?: boolean
  toolPatterns?: string[]
  readOnly?: boolean
  /** The host folder install_app takes APKs from (`--apk-folder`); default: apps.apkFolder; none: not served. */
  apkFolder?: string
  /** No line per tool call on stderr (`--quiet`). */
  quiet?: boolean
  /** get_screen_state's default detail (`--detail`); default: mcp.detail, else full. */
  detail?: 'full' | 'compact'
  adbHost?: string
  adbPort?: number
  /** A session recorder (`--record`): every call is reported to it. */
  observe?: ToolObserver
  /** Largest message: an HTTP request body, a line over stdio (--max-body, else mcp.maxBodyBytes, else 16 MiB). */
  maxBodyBytes?: number
  /** The memory the MCP sessions' own stores may take in all (default ToolHost.MAX_SESSION_BYTES). */
  sessionBytes?: number
}

export interface HttpSettings extends ServeSettings {
  token?: string
  port?: number
  host?: string
  allowedOrigins?: string[]
  log?(message: string): void
  /** Connections that have not sent the token yet: how many at once, and for how long (tests give less). */
  waiting?: WaitingLimits
}

/**
 * The tools a server lists: `selectTools`, less install_app without an APK folder (it takes host paths: served only
 * with a folder its APKs must be in, so an agent picks no other path).
 */
export function servedTools(all: AnyTool[], selection: ToolSelection & {apkFolder?: boolean}): AnyTool[] {
  return selectTools(all, selection).filter((tool) => tool.name !== 'install_app' || selection.apkFolder === true)
}

/**
 * The config the tools get, with `--apk-folder` (an existing folder, made absolute) as apps.apkFolder, and the folder
 * in force, if any.
 */
function withApkFolder(settings: ServeSettings): {config: ArcConfig; apkFolder?: string} {
  const {config} = settings
  if (settings.apkFolder === undefined) return {config, apkFolder: config.apps?.apkFolder}
  const folder = path.resolve(settings.cwd ?? process.cwd(), settings.apkFolder)
  if (!statSync(folder, {throwIfNoEntry: false})?.isDirectory()) {
    throw new InvalidInputError(`--apk-folder: ${folder} is not a folder`, {details: {input: '--apk-folder'}})
  }
  return {config: {...config, apps: {...config.apps, apkFolder: folder}}, apkFolder: folder}
}

/** The ToolHost for a set of settings (validates slugs, devices and --tools). */
export function buildHost(settings: ServeSettings & {log?(message: string): void}): ToolHost {
  const slugNames = settings.slugNames ?? settings.slug !== undefined
  const targets = parseTargets(settings.devices ?? [], settings.slug, slugNames)
  const {config, apkFolder} = withApkFolder(settings)
  const tools = servedTools(settings.tools, {
    tools: settings.toolPatterns,
    readOnly: settings.readOnly,
    apkFolder: apkFolder !== undefined,
  })
  if (tools.length === 0)
    throw new InvalidInputError('--tools: no tool matches; see docs/mcp.md for the names and groups')
  const adb =
    settings.adbHost !== undefined || settings.adbPort !== undefined
      ? {host: settings.adbHost, port: settings.adbPort}
      : undefined
  // A server answers many requests: an annotated screenshot's CPU work goes to a worker thread, off its event loop.
  setOffThreadWork(true)
  return new ToolHost({
    tools,
    targets,
    config,
    configFile: settings.configFile,
    cwd: settings.cwd ?? process.cwd(),
    adb,
    log: settings.log,
    quiet: settings.quiet,
    slugNames,
    detail: settings.detail ?? settings.config.mcp?.detail,
    ...(settings.observe ? {observe: settings.observe} : {}),
    ...(settings.sessionBytes === undefined ? {} : {sessionBytes: settings.sessionBytes}),
  })
}

export interface StartedHttp extends RunningHttpServer {
  token: string
  /** True when the token was generated for this run (print it once). */
  generated: boolean
  host: ToolHost
}

/**
 * An allowed origin as a browser sends it in `Origin` (RFC 6454: scheme, host and a port other than the scheme's
 * default, lower case, no path), or undefined for what no browser sends: `*` and `null` (sandboxed pages, file://
 * documents) included, which would read as "any page". A trailing slash and capitals are forgiven: kept as given,
 * they matched no request, and the page got 403 with no word why.
 */
export function browserOrigin(given: string): string | undefined {
  let url: URL
  try {
    url = new URL(given)
  } catch {
    return undefined
  }
  const bare = url.username === '' && url.password === '' && url.search === '' && url.hash === ''
  if ((url.protocol === 'http:' || url.protocol === 'https:') && bare && url.pathname === '/' && !given.includes('?'))
    return url.origin
  // Other schemes (an editor's webview: vscode-webview://ID) are serialised as written, scheme in lower case.
  const other = /^([a-z][a-z0-9+.-]*):\/\/([^/?#@\s]+)\/?$/i.exec(given)
  if (other && !/^https?$/i.test(other[1] as string)) return `${(other[1] as string).toLowerCase()}://${other[2]}`
  return undefined
}

/**
 * A warning where `mcp.token` sits in a config file other users of the machine may read: each of them can reach a
 * loopback port, and the token is all that stands between them and the device.
 */
function warnReadableToken(settings: HttpSettings): void {
  const file = settings.configFile
  if (file === undefined || typeof process.getuid !== 'function') return
  const mode = statSync(file, {throwIfNoEntry: false})?.mode
  if (mode === undefined || (mode & 0o044) === 0) return
  settings.log?.(
    `warning: the token comes from mcp.token in ${printableLine(file)}, which other users of this machine may read (mode ${(mode & 0o777).toString(8)}): any of them could drive the device. chmod go-r ${printableLine(file)}, or give the token in ARC_MCP_TOKEN`
  )
}

/** Allowed origins from `--allow-origin` and `mcp.allowedOrigins`, as browsers send them; anything else refused. */
function allowedOrigins(settings: HttpSettings): string[] {
  const check = (given: string, name: string, error: (message: string) => Error) => {
    const origin = browserOrigin(given)
    if (origin !== undefined) return origin
    throw error(
      `${name}: ${printableLine(JSON.stringify(given))} is no browser origin: write scheme://host[:port] as a browser sends it in its Origin header (http://localhost:6274), without a path; * and null are never allowed`
    )
  }
  const fromConfig = (settings.config.mcp?.allowedOrigins ?? []).map((given, i) =>
    check(
      given,
      `mcp.allowedOrigins[${i}]`,
      (message) => new ConfigError(message, {details: {key: `mcp.allowedOrigins[${i}]`}})
    )
  )
  const fromFlag = (settings.allowedOrigins ?? []).map((given) =>
    check(given, '--allow-origin', (message) => new InvalidInputError(message, {details: {input: 'allow-origin'}}))
  )
  return [...fromConfig, ...fromFlag]
}

export async function serveHttp(settings: HttpSettings): Promise<StartedHttp> {
  const mcp = settings.config.mcp
  const given = settings.token ?? mcp?.token
  if (given !== undefined && given.trim().length < 16) {
    // Never echo the token itself: the message names only where it came from.
    throw new InvalidInputError(
      `--token: the token (from ${settings.token === undefined ? 'mcp.token' : '--token or ARC_MCP_TOKEN'}) is shorter than 16 characters`,
      {
        actions: ['Use a long random token (openssl rand -base64 32), or give none and let arc generate one.'],
      }
    )
  }
  if (given !== undefined && !/^[\x21-\x7e]+$/.test(given)) {
    // A space ends the token in `Authorization: Bearer …`, and clients send other characters as different bytes
    // (UTF-8 or Latin-1): every request would get 401, from some clients or all.
    throw new InvalidInputError(
      `--token: the token (from ${settings.token === undefined ? 'mcp.token' : '--token or ARC_MCP_TOKEN'}) has spaces or characters outside printable ASCII, which an Authorization header cannot carry as given`,
      {actions: ['Use letters, digits and -._~+/= (openssl rand -base64 32), or give none and let arc generate one.']}
    )
  }
  const token = given ?? generateToken()
  if (settings.token === undefined && mcp?.token !== undefined) warnReadableToken(settings)
  const origins = allowedOrigins(settings)
  const host = buildHost(settings)
  const running = await startHttpServer({
    host,
    token,
    port: settings.port ?? mcp?.port ?? 7777,
    bind: settings.host ?? mcp?.host ?? '127.0.0.1',
    allowedOrigins: origins,
    maxBodyBytes: settings.maxBodyBytes ?? mcp?.maxBodyBytes,
    log: settings.log,
    ...(settings.waiting ? {waiting: settings.waiting} : {}),
  })
  return {...running, token, generated: given === undefined, host}
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/**
 * Serves the tools on stdin/stdout until stdin ends, and resolves once every request read before the end has its
 * answer: a client may write its requests and close stdin at once (`printf … | arc mcp serve --stdio`).
 */
export async function serveStdio(settings: ServeSettings & {log?(message: string): void}): Promise<void> {
  const host = buildHost(settings)
  // A stdio server has one client: one MCP session for its life.
  const server = createMcpServer(host, 'stdio')
  const transport = new LineTransport(process.stdin, protocolStdout(), {
    maxBytes: settings.maxBodyBytes ?? settings.config.mcp?.maxBodyBytes ?? DEFAULT_MAX_BODY,
    log: settings.log,
  })
  // The MCP spec's stdio shutdown: the client closes stdin, waits, then sends SIGTERM (the SDK's client after 2 s),
  // then SIGKILL. A signal cancels the calls still running, which end as a cut-off call does (their device work
  // undone) and are answered, and the server ends; a second signal ends the process at once.
  let signalled: string | undefined
  const listeners = new Map<NodeJS.Signals, () => void>()
  const closed = new Promise<'closed' | 'end' | 'signal'>((resolve) => {
    server.onclose = () => resolve('closed')
    process.stdin.once('end', () => resolve('end'))
    // SIGHUP: the terminal or SSH session it was started from went away.
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
      const listener = () => {
        if (signalled !== undefined) process.exit(exitCodeFor('CANCELLED'))
        signalled = signal
        resolve('signal')
      }
      listeners.set(signal, listener)
      process.on(signal, listener)
    }
  })
  try {
    await server.connect(transport)
    const why = await closed
    if (why === 'signal') {
      const cancelled = await host.cancelAll()
      settings.log?.(`${signalled}: stopped${cancelled > 0 ? `, ${cancelled} call(s) in flight cancelled` : ''}`)
    }
    if (why !== 'closed') {
      // The SDK hands the last messages read to their handlers on a later turn, and writes each answer on a later
      // turn than the handler's end: a turn before, the calls, then a turn after.
      await nextTurn()
      await host.idle()
      await nextTurn()
    }
    await server.close()
  } finally {
    for (const [signal, listener] of listeners) process.off(signal, listener)
  }
}

/**
 * Over stdio, stdout is the protocol's alone: one line of JSON-RPC each. Anything else the process writes there (a
 * library's console.log, a debug print in a plugin, console.dir) would be a line the client cannot parse, so from the
 * first call on, for the rest of the process, process.stdout's writes go to stderr, and the protocol writes through
 * the stream returned, the stream's own write. `arc mcp serve --stdio` calls it first thing; serveStdio again.
 */
export function protocolStdout(): Writable {
  const stdout = process.stdout as typeof process.stdout & {[PROTOCOL_WRITE]?: Writable}
  const taken = stdout[PROTOCOL_WRITE]
  if (taken) return taken
  const write = stdout.write.bind(stdout) as (text: string, done: (error?: Error | null) => void) => boolean
  const protocol = {
    write: (text: string, done: (error?: Error | null) => void) => write(text, done),
  } as unknown as Writable
  Object.defineProperty(stdout, PROTOCOL_WRITE, {value: protocol})
  Object.defineProperty(stdout, 'write', {
    configurable: true,
    writable: true,
    value: (...args: Parameters<typeof process.stderr.write>) => process.stderr.write(...args),
  })
  return protocol
}

const PROTOCOL_WRITE = Symbol.for('arc.mcp.protocol-stdout')
