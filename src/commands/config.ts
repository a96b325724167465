import {ArcCommand, CONFIG_PLACES, loadConfig, selectedDevice} from '@arc-cli/core'
import {Flags} from '@oclif/core'

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

/** Parses ADB_SERVER_SOCKET=tcp:HOST:PORT, as the adb client does. */
function adbSocket(env: NodeJS.ProcessEnv): {host?: string; port?: number} {
  const m = /^tcp:(.*):(\d+)$/.exec(env.ADB_SERVER_SOCKET ?? '')
  return m ? {host: m[1] || undefined, port: Number(m[2])} : {}
}

export default class Config extends ArcCommand {
  static override summary = 'Print the resolved config and where each part came from'
  static override description = [
    'Shows every setting arc will use, with its source: a config file (found from the current folder up to the',
    'nearest package.json, or named by ARC_CONFIG), the environment (ANDROID_SERIAL, ADB_SERVER_SOCKET), or the',
    `built-in default. Files searched: ${CONFIG_PLACES.join(', ')}.`,
  ].join(' ')
  static override examples = ['<%= config.bin %> config', '<%= config.bin %> config --json', 'ARC_CONFIG=ci.arcrc.json <%= config.bin %> config']
  static override flags = {
    device: Flags.string({char: 'd', summary: 'Show the device a command would use with this --device.'}),
  }

  async run(): Promise<unknown> {
    const {flags} = await this.parse(Config)
    const {config, filepath} = await loadConfig(process.cwd())
    const entries: ConfigEntry[] = []
    flatten(config, '', filepath ?? 'default', entries)
    const fromFile = entries.filter((e) => e.key !== '')
    const env = process.env
    const device = selectedDevice({device: flags.device, config})
    const deviceSource = flags.device
      ? '--device'
      : env.ANDROID_SERIAL
        ? 'env ANDROID_SERIAL'
        : config.device
          ? (filepath ?? 'config')
          : 'default (the single attached device)'
    const socket = adbSocket(env)
    const resolved: ConfigEntry[] = [
      {key: 'device', value: device ?? null, source: deviceSource},
      {
        key: 'adb.host',
        value: config.adb?.host ?? socket.host ?? '127.0.0.1',
        source: config.adb?.host ? (filepath as string) : socket.host ? 'env ADB_SERVER_SOCKET' : 'default',
      },
      {
        key: 'adb.port',
        value: config.adb?.port ?? socket.port ?? 5037,
        source: config.adb?.port ? (filepath as string) : socket.port ? 'env ADB_SERVER_SOCKET' : 'default',
      },
      {key: 'adb.timeoutMs', value: config.adb?.timeoutMs ?? 20000, source: config.adb?.timeoutMs ? (filepath as string) : 'default'},
      ...fromFile.filter((e) => !['device', 'adb.host', 'adb.port', 'adb.timeoutMs'].includes(e.key)),
    ]
    if (!this.jsonEnabled()) {
      this.log(`config file: ${filepath ?? '(none found)'}`)
      const width = Math.max(...resolved.map((e) => e.key.length))
      for (const e of resolved) this.log(`${e.key.padEnd(width)}  ${JSON.stringify(e.value)}  (${e.source})`)
    }
    return {file: filepath ?? null, config, resolved}
  }
}
