import {
  ArcCommand,
  cliConfig,
  CONFIG_PLACES,
  DEFAULT_ADB_TIMEOUT_MS,
  displayWidth,
  filesSettings,
  Flags,
  helperHoldMs,
  helperMode,
  padToWidth,
  printableLine,
  resolveServerAddress,
  selectedDevice,
} from '@arc-cli/core'

interface ConfigEntry {
  key: string
  value: unknown
  source: string
}

function flatten(value: unknown, prefix: string, source: string, out: ConfigEntry[]): void {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value as Record<string, unknown>)
    if (entries.length === 0) out.push({key: prefix, value: {}, source})
    for (const [k, v] of entries) flatten(v, prefix ? `${prefix}.${k}` : k, source, out)
    return
  }
  out.push({key: prefix, value, source})
}

/**
 * The config as shown: `mcp.token` replaced by a note that it is set. `arc config` output goes into bug reports and
 * CI logs, and the token is what lets anyone who reaches `arc mcp serve` drive the device (docs/mcp.md: tokens never
 * appear in logs).
 */
function withoutSecrets<T extends {mcp?: {token?: string}}>(config: T): T {
  const token = config.mcp?.token
  if (token === undefined) return config
  return {...config, mcp: {...config.mcp, token: `(set, ${token.length} characters, not shown)`}}
}

export default class Config extends ArcCommand {
  static override summary = 'Print the resolved config and where each part came from'
  static override description = [
    'Shows every setting arc will use, with its source: a config file (found from the current folder up to the',
    'nearest package.json, or named by ARC_CONFIG), the environment (ANDROID_SERIAL, ADB_SERVER_SOCKET,',
    `ANDROID_ADB_SERVER_ADDRESS, ANDROID_ADB_SERVER_PORT, ARC_HELPER, ARC_HELPER_HOLD_MS), or the built-in default; flags and the environment win over the file. Files searched: ${CONFIG_PLACES.join(', ')}.`,
  ].join(' ')
  static override examples = [
    '<%= config.bin %> config',
    '<%= config.bin %> config --json',
    'ARC_CONFIG=ci.arcrc.json <%= config.bin %> config',
  ]
  static override flags = {
    device: Flags.string({char: 'd', summary: 'Show the device a command would use with this --device.'}),
  }

  async run(): Promise<unknown> {
    const {flags} = await this.parse(Config)
    // The config every command line in force reads (in `arc batch` and `arc test`: the run's one read).
    const read = await cliConfig(this.config, process.cwd())
    const {filepath} = read
    const config = withoutSecrets(read.config)
    const entries: ConfigEntry[] = []
    flatten(config, '', filepath ?? 'default', entries)
    const others = entries.filter((e) => e.key !== '')
    // The same resolution every device command uses; `config` in a source means the file in force.
    const fromFile = (source: string) => (source === 'config' ? (filepath as string) : source)
    const device = selectedDevice({device: flags.device, config})
    const server = resolveServerAddress({configured: config.adb, env: process.env})
    const resolved: ConfigEntry[] = [
      {key: 'device', value: device.device ?? null, source: fromFile(device.source)},
      {key: 'adb.host', value: server.host, source: fromFile(server.hostSource)},
      {key: 'adb.port', value: server.port, source: fromFile(server.portSource)},
      {
        key: 'adb.timeoutMs',
        value: config.adb?.timeoutMs ?? DEFAULT_ADB_TIMEOUT_MS,
        source: config.adb?.timeoutMs === undefined ? 'default' : (filepath as string),
      },
      {
        key: 'adb.helper',
        value: helperMode(undefined, process.env, config.adb?.helper),
        source: process.env.ARC_HELPER
          ? 'env ARC_HELPER'
          : config.adb?.helper === undefined
            ? 'default'
            : (filepath as string),
      },
      {
        key: 'adb.helperHoldMs',
        value: helperHoldMs(process.env, config.adb?.helperHoldMs),
        source: process.env.ARC_HELPER_HOLD_MS
          ? 'env ARC_HELPER_HOLD_MS'
          : config.adb?.helperHoldMs === undefined
            ? 'default'
            : (filepath as string),
      },
    ]
    // The file tools' settings, defaults included, one line per key.
    const files = filesSettings(config.files)
    const fileEntries: ConfigEntry[] = []
    flatten({files}, '', 'default', fileEntries)
    for (const e of fileEntries) {
      const set = others.find((o) => o.key === e.key || e.key.startsWith(`${o.key}.`) || o.key.startsWith(`${e.key}.`))
      resolved.push({...e, source: set ? (filepath as string) : 'default'})
    }
    resolved.push(
      ...others.filter(
        (e) =>
          !['device', 'adb.host', 'adb.port', 'adb.timeoutMs', 'adb.helper', 'adb.helperHoldMs'].includes(e.key) &&
          !e.key.startsWith('files.') &&
          e.key !== 'files'
      )
    )
    if (!this.jsonEnabled()) {
      // Names the user chose (a preset, a location) and paths reach the terminal with control characters written
      // out; JSON.stringify leaves DEL and the C1 controls as they are.
      this.log(`config file: ${filepath === undefined ? '(none found)' : printableLine(filepath)}`)
      const rows = resolved.map((e) => ({
        key: printableLine(e.key),
        value: printableLine(JSON.stringify(e.value)),
        source: printableLine(e.source),
      }))
      const width = Math.max(...rows.map((e) => displayWidth(e.key)))
      for (const e of rows) this.log(`${padToWidth(e.key, width)}  ${e.value}  (${e.source})`)
    }
    return {file: filepath ?? null, config, resolved}
  }
}
