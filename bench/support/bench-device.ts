/**
 * The virtual device the ADB benchmarks measure against: `arc emulate` in process, arc's ADB driver on it, and a
 * bare adbkit client sending the same commands with no arc code around them (what the device side costs).
 */
import {DEMO_DIR} from '@arc-cli/core'
import {startEmulator, type Emulator} from '@arc-cli/emulator'
import adbkit from '@devicefarmer/adbkit'

import {type AdbDriver, connectAdbDriver} from '@arc-cli/core/testing'

type AdbClass = typeof adbkit.Adb
const Adb: AdbClass = (adbkit as {Adb?: AdbClass}).Adb ?? (adbkit as unknown as AdbClass)

/**
 * The device commands of one `captureScreen()`, as the driver sends them (in parallel, one connection each):
 * size, density and the window list come from the sections of one `dumpsys window -a`, so `wm size` / `wm density`
 * and the separate `dumpsys window displays` / `windows` are not among them.
 */
export const CAPTURE_COMMANDS = ['uiautomator dump --windows /dev/tty', 'dumpsys window -a']

export interface BenchDevice {
  emu: Emulator
  driver: AdbDriver
  /** One shell command through bare adbkit, read to the end. */
  bare(command: string): Promise<Buffer>
  /** The commands of one capture through bare adbkit, in parallel. */
  bareCapture(): Promise<Buffer[]>
}

/** Runs `work` against a fresh virtual device showing the demo screen, and closes both after. */
export async function withBenchDevice<T>(work: (device: BenchDevice) => Promise<T>): Promise<T> {
  // timeScale 0: these figures are arc's own overhead, not a phone's idle waits (android11.bench.ts has those).
  const emu = await startEmulator({port: 0, devices: [{serial: 'bench', snapshot: DEMO_DIR}], timeScale: 0})
  try {
    const driver = await connectAdbDriver({host: '127.0.0.1', port: emu.port, env: {}})
    const device = Adb.createClient({host: '127.0.0.1', port: emu.port, bin: '/bin/false'}).getDevice('bench')
    const bare = async (command: string) => Adb.util.readAll(await device.shell(command))
    try {
      return await work({emu, driver, bare, bareCapture: () => Promise.all(CAPTURE_COMMANDS.map(bare))})
    } finally {
      await driver.close()
    }
  } finally {
    await emu.close()
  }
}
