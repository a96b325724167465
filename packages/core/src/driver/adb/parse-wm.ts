/**
 * `wm size` and `wm density`. Both print a `Physical …` line and, when overridden (`wm size 720x1600`), an
 * `Override …` line, which is what apps, uiautomator, screencap and input use, so it wins. `wm size` is always
 * in the display's natural orientation; `currentSize` turns it into the current one.
 */
import {DeviceCommandError} from '../../errors/arc-error.js'
import type {ScreenInfo} from '../device-driver.js'

export interface Size {
  width: number
  height: number
}

function unreadable(command: string, output: string): DeviceCommandError {
  const shown = output.trim().slice(0, 120) || '(nothing)'
  return new DeviceCommandError(`\`${command}\` printed something arc cannot read: ${JSON.stringify(shown)}`, {
    details: {command, output: output.slice(0, 500)},
  })
}

/** `Physical size: 1080x2400` [+ `Override size: 720x1600`] → the size in force. */
export function parseWmSize(output: string): Size {
  const read = (label: string) => {
    const m = new RegExp(`^\\s*${label} size:\\s*(\\d+)\\s*x\\s*(\\d+)\\s*$`, 'mi').exec(output)
    return m ? {width: Number(m[1]), height: Number(m[2])} : undefined
  }
  const size = read('Override') ?? read('Physical')
  if (!size || size.width <= 0 || size.height <= 0) throw unreadable('wm size', output)
  return size
}

/** `Physical density: 420` [+ `Override density: 480`] → dpi in force. */
export function parseWmDensity(output: string): number {
  const read = (label: string) => {
    const m = new RegExp(`^\\s*${label} density:\\s*(\\d+)\\s*$`, 'mi').exec(output)
    return m ? Number(m[1]) : undefined
  }
  const density = read('Override') ?? read('Physical')
  if (!density) throw unreadable('wm density', output)
  return density
}

/** The natural-orientation size turned to the current rotation: 90° and 270° swap width and height. */
export function currentSize(natural: Size, rotation: ScreenInfo['rotation']): Size {
  return rotation % 2 === 1 ? {width: natural.height, height: natural.width} : natural
}
