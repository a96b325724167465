/**
 * Which display `screencap` captures. Without `-d`, screencap takes the first physical display SurfaceFlinger
 * lists; where there are several (foldables: Pixel Fold, Galaxy Z Fold, Oppo Find N; emulators with extra
 * displays) it says so on stderr (`[Warning] Multiple displays were found…`, Android 14+) and the first may be the
 * screen that is off, so the image is black or of another size. The screen arc reads (uiautomator, input, `wm`) is
 * logical display 0, whose physical id `dumpsys display` gives in display 0's viewport (`uniqueId='local:ID'`);
 * `screencap -d ID` captures that one. The id is read each time: folding moves display 0 to the other panel.
 */
import {PNG_SIGNATURE} from '../../png.js'

const SEVERAL_DISPLAYS = /Multiple displays were found/
const DISPLAY_ZERO_VIEWPORT = /DisplayViewport\{[^}]*?\bdisplayId=0,[^}]*?\buniqueId='local:(\d+)'/

/** True when screencap's output, ahead of its image, warns that it chose among several displays. */
export function warnsOfSeveralDisplays(output: Buffer): boolean {
  const at = output.subarray(0, 4096).indexOf(PNG_SIGNATURE)
  return SEVERAL_DISPLAYS.test(output.subarray(0, at === -1 ? 4096 : at).toString('latin1'))
}

/** Display 0's physical id from `dumpsys display` (its viewport's `uniqueId='local:ID'`), or undefined. */
export function displayZeroPhysicalId(dumpsysDisplay: string): string | undefined {
  return DISPLAY_ZERO_VIEWPORT.exec(dumpsysDisplay)?.[1]
}

/** Devices (adb server and serial) whose screencap warned of several displays, for the life of this process. */
export const severalDisplays = new Set<string>()
