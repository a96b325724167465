import {DEMO_DIR} from '@arc-cli/core'
import {startEmulator, type Emulator, type EmulatorOptions} from '@arc-cli/emulator'

import {AdbServer} from '../../packages/core/src/driver/adb/adb-client.js'
import {AdbDriver} from '../../packages/core/src/driver/adb/adb-driver.js'
import {connectAdbDriver} from '../../packages/core/src/driver/adb/connect.js'

export {DEMO_DIR}

export interface EmuHarness {
  emu: Emulator
  /** A driver for `serial` through the real adbkit client (device selection included). */
  driver(serial?: string, timeoutMs?: number): Promise<AdbDriver>
  server(timeoutMs?: number): AdbServer
  /** Argv of every device program run since `from` (a length of emu.commands), without arc's own trailers. */
  argvSince(from: number): string[][]
  env: NodeJS.ProcessEnv
}

/** Starts `arc emulate` in process for a mocha suite and stops it after. */
export function useEmulator(options: Partial<EmulatorOptions> = {}): EmuHarness {
  const harness = {} as EmuHarness
  before(async () => {
    const emu = await startEmulator({port: 0, devices: [{serial: 'emu-1', snapshot: DEMO_DIR}], ...options})
    harness.emu = emu
    harness.env = {ADB_SERVER_SOCKET: `tcp:127.0.0.1:${emu.port}`}
    harness.server = (timeoutMs = 10_000) => new AdbServer({host: '127.0.0.1', port: emu.port, hostSource: 'test', portSource: 'test'}, timeoutMs)
    harness.driver = (serial?: string, timeoutMs = 10_000) =>
      connectAdbDriver({serial, port: emu.port, host: '127.0.0.1', timeoutMs, env: {}})
    harness.argvSince = (from: number) => emu.commands.slice(from).map((c) => c.argv)
  })
  after(async () => {
    await harness.emu?.close()
  })
  return harness
}

type DeviceSetup = NonNullable<Exclude<EmulatorOptions['scenario'], string | undefined>['devices']>[string]

/** `useEmulator` with one device, `emu-1`, showing the demo screen, with what `device` adds (packages, logcat…). */
export function useDemoDevice(device: Omit<DeviceSetup, 'snapshot'>): EmuHarness {
  return useEmulator({devices: [], scenario: {devices: {'emu-1': {snapshot: DEMO_DIR, ...device}}}})
}
