import {
  adbOptions,
  DeviceUnavailableError,
  defineTool,
  findAdbDevice,
  InvalidInputError,
  listAdbDevices,
  selectedDevice,
  TimeoutError,
  unavailableState,
  unreachableSerial,
  type DeviceSummary,
  z,
} from '@arc-cli/core'

/** `serial<TAB>state<TAB>model`, one device a line, as `adb devices` prints them plus the model. */
function formatDevices(devices: DeviceSummary[]): string {
  return devices.map((d) => [d.serial, d.state, d.model ?? '-'].join('\t')).join('\n')
}

export const listDevices = defineTool({
  name: 'list_devices',
  title: 'List the devices attached to the adb server',
  description:
    'Lists every device the adb server knows, one per line: serial, state (device, offline, unauthorized…) and model. Pass a serial to other commands with --device. The server comes from --adb-host/--adb-port, else ADB_SERVER_SOCKET (or ANDROID_ADB_SERVER_ADDRESS), else the config, else 127.0.0.1:5037; arc never starts one.',
  kind: 'read',
  group: 'system',
  needsDevice: false,
  input: z
    .object({
      wait: z
        .boolean()
        .default(false)
        .describe(
          "Wait until the adb server answers and a device is ready (the --serial one, else $ANDROID_SERIAL or the config's device, else any), like adb wait-for-device"
        ),
      serial: z.string().min(1).optional().describe('With --wait: wait for this device, named as for --device'),
      timeout_ms: z
        .number()
        .int()
        .min(1)
        .max(600_000)
        .optional()
        .describe('With --wait: give up after this many ms (1-600000, default 30000)'),
    })
    .superRefine((input, ctx) => {
      // Given without a wait, they would be dropped without a word: the list is printed at once, of every device.
      for (const key of ['serial', 'timeout_ms'] as const) {
        if (input[key] !== undefined && !input.wait)
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: 'applies only to a wait for a device (--wait, or wait: true over MCP)',
          })
      }
    }),
  cli: {
    id: 'devices',
    input: z.object({
      adb_host: z
        .string()
        .min(1)
        .optional()
        .describe(
          'Host of the adb server (default: from ADB_SERVER_SOCKET or ANDROID_ADB_SERVER_ADDRESS, else the config, else 127.0.0.1)'
        ),
      adb_port: z
        .number()
        .int()
        .min(1)
        .max(65535)
        .optional()
        .describe(
          'Port of the adb server (default: from ADB_SERVER_SOCKET or ANDROID_ADB_SERVER_PORT, else the config, else 5037)'
        ),
    }),
    examples: [
      '<%= config.bin %> <%= command.id %>',
      '<%= config.bin %> <%= command.id %> --wait --timeout-ms 10000',
      '<%= config.bin %> <%= command.id %> --wait --serial 192.168.1.5 --timeout-ms 60000',
      'ADB_SERVER_SOCKET=tcp:farm.example.com:7401 <%= config.bin %> <%= command.id %>',
    ],
  },
  async handler(ctx, input) {
    const options = adbOptions({
      adbHost: input.adb_host ?? ctx.adb?.host,
      adbPort: input.adb_port ?? ctx.adb?.port,
      config: ctx.config,
    })
    const look = (name?: string) =>
      name === undefined ? listAdbDevices(options).then((all) => ({devices: all})) : findAdbDevice(options, name)
    const chosen = input.serial === undefined ? chosenSerial(ctx.config) : {serial: input.serial}
    const devices = input.wait
      ? await waitForDevice(
          look,
          chosen.serial,
          input.timeout_ms ?? DEFAULT_WAIT_MS,
          ctx.progress,
          ctx.signal,
          chosen.from
        )
      : await listAdbDevices(options)
    // The command line's JSON: snake_case, and adb's transport id as the number it is (docs/json.md).
    const cliDevices = devices.map(({transportId, ...rest}) => ({
      ...rest,
      ...(transportId === undefined ? {} : {transport_id: Number(transportId)}),
    }))
    return {
      text: devices.length > 0 ? formatDevices(devices) : 'No devices attached',
      data: {devices},
      cli: {data: {devices: cliDevices}},
    }
  },
})

const POLL_MS = 100
/** How long `devices --wait` waits when not told. */
const DEFAULT_WAIT_MS = 30_000

/**
 * The device a wait without --serial is for: the one every command picks without --device, $ANDROID_SERIAL, then
 * the config's `device`, as `adb wait-for-device` waits for $ANDROID_SERIAL; with neither, any device. One that names
 * a snapshot (`demo`, a path) is never an adb device: then any device, as before.
 */
function chosenSerial(config: Parameters<typeof selectedDevice>[0]['config']): {serial?: string; from?: string} {
  const {device, source} = selectedDevice({config})
  if (device === undefined || unreachableSerial(device)) return {}
  return {serial: device, from: source === 'env ANDROID_SERIAL' ? '$ANDROID_SERIAL' : '`device` in the config'}
}

/**
 * Polls the server until a device (or the one `serial` names) is in state `device`. `serial` is matched as
 * `--device` matches it (findAdbDevice: the exact serial listed, else what adb's server matches, such as a
 * network device's host without its port), so a wait that ends means `--device SERIAL` finds a ready device. A
 * server that is not up yet (a script that just started `arc emulate` or `adb start-server`) counts as "not
 * ready", not as a failure; so does a name nothing matches yet. A name several devices match fails at once
 * (DEVICE_AMBIGUOUS, as `--device` would), as does anything else.
 */
async function waitForDevice(
  look: (serial?: string) => Promise<{devices: DeviceSummary[]; state?: string}>,
  serial: string | undefined,
  timeoutMs: number,
  progress: (message: string) => void,
  signal?: AbortSignal,
  /** Where a serial the caller did not pass came from ($ANDROID_SERIAL, the config): said when the wait runs out. */
  from?: string
): Promise<DeviceSummary[]> {
  const unreachable = serial === undefined ? undefined : unreachableSerial(serial)
  if (unreachable) {
    throw new InvalidInputError(
      `--serial ${serial}: ${unreachable}, never an adb device, so there is nothing to wait for`,
      {
        details: {field: 'serial', value: serial},
        actions: [
          'Pass the serial of an adb device (or what `adb -s` takes: 192.168.1.5, usb:1-4); `arc devices` lists them.',
        ],
      }
    )
  }
  const deadline = Date.now() + timeoutMs
  let last: string
  /** The named device's state at the last look, where it is listed but not ready (unauthorized, offline…). */
  let lastState: string | undefined
  progress(`waiting for ${serial ?? 'a device'}`)
  for (;;) {
    try {
      const {devices, state} = await look(serial)
      if (serial === undefined ? devices.some((d) => d.state === 'device') : state === 'device') return devices
      lastState = state
      last =
        state !== undefined
          ? `${serial} is ${state}`
          : devices.length > 0
            ? `attached: ${formatList(devices)}`
            : 'no device is attached'
    } catch (error) {
      if (!(error instanceof DeviceUnavailableError)) throw error
      last = error.message
    }
    const left = deadline - Date.now()
    if (left <= 0 || signal?.aborted) {
      throw new TimeoutError(
        `no ${serial ? `device ${serial}` : 'device'} was ready within ${timeoutMs} ms (${last})${from ? `; the serial comes from ${from}` : ''}`,
        {
          details: {serial, timeout_ms: timeoutMs},
          actions: [
            // What --device on that device would say to do (accept the USB debugging prompt, reconnect…).
            ...(serial !== undefined && lastState !== undefined ? unavailableState(serial, lastState).actions : []),
            'Check the server and devices with `arc devices`; raise --timeout-ms for slow starts.',
          ],
        }
      )
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, left)))
  }
}

function formatList(devices: DeviceSummary[]): string {
  return devices.map((d) => `${d.serial} (${d.state})`).join(', ')
}
