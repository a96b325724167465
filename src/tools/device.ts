import {defineTool, type DeviceInfo, type RotationState, z} from '@arc-cli/core'

function infoText(info: DeviceInfo): string {
  const rows: Array<[string, string | undefined]> = [
    ['serial', info.serial],
    ['model', info.model],
    ['manufacturer', info.manufacturer],
    [
      'android',
      info.android_version === undefined ? undefined : `${info.android_version}${info.sdk ? ` (SDK ${info.sdk})` : ''}`,
    ],
    ['abi', info.abi],
    [
      'screen',
      info.screen &&
        `${info.screen.width}x${info.screen.height}${info.screen.density ? ` ${info.screen.density}dpi` : ''}`,
    ],
    [
      'battery',
      info.battery &&
        `${info.battery.level === undefined ? '' : `${info.battery.level}% `}${info.battery.status}${info.battery.plugged.length > 0 ? ` (${info.battery.plugged.join(', ')})` : ''}`,
    ],
    [
      'foreground',
      info.foreground?.package &&
        `${info.foreground.package}${info.foreground.activity ? `/${info.foreground.activity}` : ''}`,
    ],
  ]
  return rows
    .filter((row): row is [string, string] => row[1] !== undefined)
    .map(([key, value]) => `${key.padEnd(13)}${value}`)
    .join('\n')
}

export const deviceInfo = defineTool({
  name: 'device_info',
  title: 'Describe the device',
  description:
    'Model, manufacturer, Android version and SDK level, primary ABI, screen size (natural orientation) and density, and battery level and status. Also the app in front and its activity (foreground: {package, activity}). A recorded snapshot answers with what it knows (its screen, and the app its meta.json names).',
  kind: 'read',
  needs: {info: 'read'},
  group: 'system',
  input: z.object({}),
  cli: {
    id: 'device info',
    examples: ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --json'],
  },
  async handler({driver}) {
    const info = await driver.deviceInfo()
    return {text: infoText(info), data: {...info}}
  },
})

function rotationText(state: RotationState): string {
  const locked = state.user_rotation === undefined ? '' : `, locked to ${state.user_rotation}°`
  return `Rotation: ${state.rotation}° (auto-rotate ${state.auto_rotate ? 'on' : `off${locked}`})`
}

export const rotation = defineTool({
  name: 'rotation',
  title: 'Read or set the screen rotation',
  description:
    'Without a value, prints the current rotation and whether auto-rotate is on. With 0, 90, 180 or 270, turns auto-rotate off and locks the display to that rotation (settings system user_rotation); with auto, turns auto-rotate back on. Apps that fix their orientation may not follow.',
  kind: 'action',
  needs: ({set}) => (set === undefined ? {info: 'read'} : {system: 'act'}),
  group: 'system',
  input: z.object({
    set: z
      .enum(['0', '90', '180', '270', 'auto'])
      .optional()
      .describe('Rotation to lock to (0, 90, 180, 270), or auto; omit to read it'),
  }),
  cli: {
    id: 'device rotation',
    positional: ['set'],
    examples: [
      '<%= config.bin %> <%= command.id %>',
      '<%= config.bin %> <%= command.id %> 90',
      '<%= config.bin %> <%= command.id %> auto',
    ],
  },
  async handler({driver}, {set}) {
    if (set === undefined) {
      const state = await driver.rotation()
      return {text: rotationText(state), data: {...state}}
    }
    if (set === 'auto') {
      await driver.setRotation('auto')
      return {text: 'Auto-rotate turned on', data: {auto_rotate: true}}
    }
    const degrees = Number(set) as 0 | 90 | 180 | 270
    await driver.setRotation(degrees)
    return {
      text: `Rotation locked to ${degrees}° (auto-rotate off)`,
      data: {auto_rotate: false, user_rotation: degrees},
    }
  },
})

export const wake = defineTool({
  name: 'wake',
  title: 'Turn the screen on',
  description:
    'Turns the screen on (KEYCODE_WAKEUP) when it is off; does nothing when it is already on. Does not unlock: see device unlock.',
  kind: 'action',
  needs: {system: 'act'},
  group: 'system',
  input: z.object({}),
  cli: {id: 'device wake', examples: ['<%= config.bin %> <%= command.id %>']},
  async handler({driver}) {
    const before = await driver.wake()
    return {text: before.awake ? 'Screen already on' : 'Screen turned on', data: {awake: true, was_awake: before.awake}}
  },
})

export const unlock = defineTool({
  name: 'unlock',
  title: 'Wake and unlock the device',
  description:
    'Turns the screen on and dismisses a lock screen that needs no PIN (wm dismiss-keyguard, or the menu key on old devices). A lock screen that needs a PIN, pattern or password fails with UNSUPPORTED: arc does not enter credentials.',
  kind: 'action',
  needs: {system: 'act'},
  group: 'system',
  input: z.object({}),
  cli: {id: 'device unlock', examples: ['<%= config.bin %> <%= command.id %>']},
  async handler({driver}) {
    const before = await driver.unlock()
    return {
      text: before.locked
        ? 'Device unlocked'
        : before.awake
          ? 'Device was not locked'
          : 'Screen turned on; it was not locked',
      data: {unlocked: true, was_locked: before.locked, was_awake: before.awake},
    }
  },
})
