import {adbOptions, defineTool, listAdbDevices, type DeviceSummary} from '@arc-cli/core'
import {z} from 'zod'

/** `serial<TAB>state<TAB>model`, one device a line, as `adb devices` prints them plus the model. */
function formatDevices(devices: DeviceSummary[]): string {
  return devices.map((d) => [d.serial, d.state, d.model ?? '-'].join('\t')).join('\n')
}

export const listDevices = defineTool({
  name: 'list_devices',
  cliId: 'devices',
  title: 'List the devices attached to the adb server',
  description:
    'Lists every device the adb server knows, one per line: serial, state (device, offline, unauthorized…) and model. Pass a serial to other commands with --device. The server comes from --adb-host/--adb-port, else ADB_SERVER_SOCKET, else the config, else 127.0.0.1:5037; arc never starts one.',
  kind: 'read',
  group: 'system',
  needsDevice: false,
  input: z.object({}),
  cliInput: z.object({
    adb_host: z.string().min(1).optional().describe('Host of the adb server (default: from ADB_SERVER_SOCKET, else the config, else 127.0.0.1)'),
    adb_port: z.number().int().min(1).max(65535).optional().describe('Port of the adb server (default: from ADB_SERVER_SOCKET or ANDROID_ADB_SERVER_PORT, else the config, else 5037)'),
  }),
  cli: {examples: ['<%= config.bin %> <%= command.id %>', 'ADB_SERVER_SOCKET=tcp:farm.example.com:7401 <%= config.bin %> <%= command.id %>']},
  async handler({config, adb}, input) {
    const devices = await listAdbDevices(
      adbOptions({adbHost: input.adb_host ?? adb?.host, adbPort: input.adb_port ?? adb?.port, config}),
    )
    return {text: devices.length > 0 ? formatDevices(devices) : 'No devices attached', data: {devices}}
  },
})
