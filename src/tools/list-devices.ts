import {adbOptions, DeviceUnavailableError, defineTool, listAdbDevices, TimeoutError, type DeviceSummary, z} from '@arc-cli/core'

/** `serial<TAB>state<TAB>model`, one device a line, as `adb devices` prints them plus the model. */
function formatDevices(devices: DeviceSummary[]): string {
  return devices.map((d) => [d.serial, d.state, d.model ?? '-'].join('\t')).join('\n')
}

export const listDevices = defineTool({
  name: 'list_devices',
  cliId: 'devices',
  title: 'List the devices attached to the adb server',
  description:
    'Lists every device the adb server knows, one per line: serial, state (device, offline, unauthorized…) and model. Pass a serial to other commands with --device. The server comes from --adb-host/--adb-port, else ADB_SERVER_SOCKET (or ANDROID_ADB_SERVER_ADDRESS), else the config, else 127.0.0.1:5037; arc never starts one.',
  kind: 'read',
  group: 'system',
  needsDevice: false,
  input: z.object({
    wait: z
      .boolean()
      .default(false)
      .describe('Wait until the adb server answers and a device (or the --serial one) is ready, like adb wait-for-device'),
    serial: z.string().min(1).optional().describe('With --wait: wait for this serial to be ready (default: any device)'),
    timeout_ms: z.number().int().min(1).max(600_000).default(30_000).describe('With --wait: give up after this many ms (1-600000)'),
  }),
  cliInput: z.object({
    adb_host: z.string().min(1).optional().describe('Host of the adb server (default: from ADB_SERVER_SOCKET or ANDROID_ADB_SERVER_ADDRESS, else the config, else 127.0.0.1)'),
    adb_port: z.number().int().min(1).max(65535).optional().describe('Port of the adb server (default: from ADB_SERVER_SOCKET or ANDROID_ADB_SERVER_PORT, else the config, else 5037)'),
  }),
  cli: {examples: ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --wait --timeout-ms 10000', 'ADB_SERVER_SOCKET=tcp:farm.example.com:7401 <%= config.bin %> <%= command.id %>']},
  async handler(ctx, input) {
    const options = adbOptions({adbHost: input.adb_host ?? ctx.adb?.host, adbPort: input.adb_port ?? ctx.adb?.port, config: ctx.config})
    const devices = input.wait
      ? await waitForDevice(() => listAdbDevices(options), input.serial, input.timeout_ms, ctx.progress, ctx.signal)
      : await listAdbDevices(options)
    return {text: devices.length > 0 ? formatDevices(devices) : 'No devices attached', data: {devices}}
  },
})

const POLL_MS = 100

/**
 * Polls the server until a device (or `serial`) is in state `device`. A server that is not up yet (a script that
 * just started `arc emulate` or `adb start-server`) counts as "not ready", not as a failure; anything else fails.
 */
async function waitForDevice(
  list: () => Promise<DeviceSummary[]>,
  serial: string | undefined,
  timeoutMs: number,
  progress: (message: string) => void,
  signal?: AbortSignal,
): Promise<DeviceSummary[]> {
  const deadline = Date.now() + timeoutMs
  let last = 'the adb server has not answered'
  progress(`waiting for ${serial ?? 'a device'}`)
  for (;;) {
    try {
      const devices = await list()
      if (devices.some((d) => d.state === 'device' && (serial === undefined || d.serial === serial))) return devices
      const seen = devices.find((d) => d.serial === serial)
      last = seen ? `${serial} is ${seen.state}` : devices.length > 0 ? `attached: ${formatList(devices)}` : 'no device is attached'
    } catch (error) {
      if (!(error instanceof DeviceUnavailableError)) throw error
      last = error.message
    }
    const left = deadline - Date.now()
    if (left <= 0 || signal?.aborted) {
      throw new TimeoutError(`no ${serial ? `device ${serial}` : 'device'} was ready within ${timeoutMs} ms (${last})`, {
        details: {serial, timeoutMs},
        actions: ['Check the server and devices with `arc devices`; raise --timeout-ms for slow starts.'],
      })
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, left)))
  }
}

function formatList(devices: DeviceSummary[]): string {
  return devices.map((d) => `${d.serial} (${d.state})`).join(', ')
}
