/**
 * What `arc mcp serve` prints at start-up (when it generated the token) for pasting into agent clients, each in the
 * form that client documents (docs/mcp.md, "Client configs", cites them):
 *
 * - VS Code, `.vscode/mcp.json`: a `servers` map; an HTTP server is `{type: "http", url, headers}`.
 * - Cursor, `~/.cursor/mcp.json`: an `mcpServers` map; a remote server is `{url, headers}`.
 * - Claude Code: `claude mcp add --transport http NAME URL --header "…"`.
 * - Claude Desktop, `claude_desktop_config.json`: `mcpServers` entries that it starts itself, `{command, args, env}`
 *   over stdio. It does not connect to remote servers written in that file (they go through its Connectors
 *   settings, which reach servers from Anthropic's side, not a loopback URL), so it gets the stdio form of this
 *   server: the same node and arc script, the same device and tool selection, and `--stdio`.
 */
import {existsSync} from 'node:fs'
import path from 'node:path'

/** How to start this same server over stdio: the program and its arguments. */
export interface StdioCommand {
  command: string
  args: string[]
  env?: Record<string, string>
}

export interface ClientConfigs {
  vscode: {servers: {arc: {type: 'http'; url: string; headers: {Authorization: string}}}}
  cursor: {mcpServers: {arc: {url: string; headers: {Authorization: string}}}}
  claudeCode: string
  claudeDesktop: {mcpServers: {arc: StdioCommand}}
}

export function clientConfigs(url: string, token: string, stdio: StdioCommand): ClientConfigs {
  const headers = {Authorization: `Bearer ${token}`}
  return {
    vscode: {servers: {arc: {type: 'http', url, headers}}},
    cursor: {mcpServers: {arc: {url, headers}}},
    claudeCode: `claude mcp add --transport http arc ${url} --header "Authorization: Bearer ${token}"`,
    claudeDesktop: {mcpServers: {arc: stdio}},
  }
}

/** The lines printed on stderr: a label, then the config on one line of JSON. */
export function clientConfigText(configs: ClientConfigs): string {
  return [
    'Client configs (see docs/mcp.md, "Client configs"):',
    'VS Code (.vscode/mcp.json):',
    JSON.stringify(configs.vscode),
    'Cursor (~/.cursor/mcp.json):',
    JSON.stringify(configs.cursor),
    `Claude Code: ${configs.claudeCode}`,
    'Claude Desktop (claude_desktop_config.json; it starts arc itself over stdio, no token):',
    JSON.stringify(configs.claudeDesktop),
  ].join('\n')
}

/** The `arc mcp serve` flags that choose what is served, as given (values are the parsed flags). */
export interface ServedFlags {
  device?: string[]
  slug?: string
  'slug-names'?: boolean
  detail?: string
  tools?: string[]
  'read-only'?: boolean
  'apk-folder'?: string
  'max-body'?: number
  'adb-host'?: string
  'adb-port'?: number
}

/** A `--device` value a client started elsewhere still finds: a snapshot folder given relative becomes absolute. */
function deviceValue(value: string, cwd: string): string {
  const at = /^([A-Za-z0-9_]{0,20})=(.+)$/.exec(value)
  const device = at ? (at[2] as string) : value
  if (path.isAbsolute(device) || !existsSync(path.resolve(cwd, device))) return value
  const absolute = path.resolve(cwd, device)
  return at ? `${at[1]}=${absolute}` : absolute
}

/**
 * This server over stdio: the node running arc with its options and arc's own script (`process.argv[1]`), so it works where the
 * client's PATH has no `arc` (Claude Desktop starts servers with a minimal PATH), and the selection flags it was
 * given; the adb server, device, config file and helper mode from the environment ride along in `env`.
 */
export function stdioCommand(
  flags: ServedFlags,
  run: {execPath: string; execArgv: string[]; script: string; cwd: string; env: NodeJS.ProcessEnv}
): StdioCommand {
  const args = [...run.execArgv, run.script, 'mcp', 'serve', '--stdio']
  for (const device of flags.device ?? []) args.push('--device', deviceValue(device, run.cwd))
  if (flags.slug !== undefined) args.push('--slug', flags.slug)
  if (flags['slug-names']) args.push('--slug-names')
  if (flags.detail !== undefined) args.push('--detail', flags.detail)
  for (const tools of flags.tools ?? []) args.push('--tools', tools)
  if (flags['read-only']) args.push('--read-only')
  if (flags['apk-folder'] !== undefined) args.push('--apk-folder', path.resolve(run.cwd, flags['apk-folder']))
  if (flags['max-body'] !== undefined) args.push('--max-body', String(flags['max-body']))
  if (flags['adb-host'] !== undefined) args.push('--adb-host', flags['adb-host'])
  if (flags['adb-port'] !== undefined) args.push('--adb-port', String(flags['adb-port']))
  const env: Record<string, string> = {}
  for (const name of [
    'ADB_SERVER_SOCKET',
    'ANDROID_ADB_SERVER_ADDRESS',
    'ANDROID_ADB_SERVER_PORT',
    'ANDROID_SERIAL',
    'ARC_CONFIG',
    'ARC_HELPER',
    'ARC_HELPER_HOLD_MS',
  ]) {
    const value = run.env[name]
    // The config file named relative to this folder: the client starts arc in another.
    if (value) env[name] = name === 'ARC_CONFIG' ? path.resolve(run.cwd, value) : value
  }
  return {command: run.execPath, args, ...(Object.keys(env).length > 0 ? {env} : {})}
}
