import {existsSync, readFileSync} from 'node:fs'
import path from 'node:path'

import {ROOT} from './paths.js'

/** Real `dumpsys` captures, read from ../shared beside the clone; never copied into the project. */
export const DEVICE_OUTPUT_DIR = path.resolve(ROOT, '..', 'shared', 'fixtures', 'device-output')

export const deviceOutputAvailable = existsSync(DEVICE_OUTPUT_DIR)

/**
 * One capture as text. Four files are UTF-16LE with a BOM and CRLF (a PowerShell redirect on the host), so the
 * encoding is taken from the BOM; line ends are left as they are (parsers must cope).
 */
export function readDeviceOutput(folder: string, file: string): string {
  const bytes = readFileSync(path.join(DEVICE_OUTPUT_DIR, folder, file))
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.subarray(2).toString('utf16le')
  return bytes.toString('utf8')
}
