import {mkdtemp, rm, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

import {DEMO_DIR, type ScreenCapture} from '@arc-cli/core'
import {startEmulator, type Emulator, type EmulatorOptions, type VirtualDevice} from '@arc-cli/emulator'

import {AdbDriver, AdbServer, connectAdbDriver} from '@arc-cli/core/testing'

import {dumpXml, type NodeSpec} from './dump.js'

export {DEMO_DIR}

export interface EmuHarness {
  emu: Emulator
  /** A driver for `serial` through the real adbkit client (device selection included). */
  driver(serial?: string, timeoutMs?: number): Promise<AdbDriver>
  server(timeoutMs?: number): AdbServer
  /** One screen read of `serial` (default emu-1) through a driver opened and closed for it. */
  capture(serial?: string): Promise<ScreenCapture>
  /** Argv of every device program run since `from` (a length of emu.commands), without arc's own trailers. */
  argvSince(from: number): string[][]
  /** For a spawned arc: the emulator's address, and a cache folder of the suite's own (the ids a run remembers). */
  env: NodeJS.ProcessEnv
  /** A temporary folder of the suite's own (screens it writes, outputs), deleted after it. */
  dir: string
}

/**
 * Starts `arc emulate` in process for a mocha suite and stops it after. `options` may be a function of the suite's
 * folder, for scenarios whose screens the suite writes there first.
 */
export function useEmulator(
  options: Partial<EmulatorOptions> | ((dir: string) => Promise<Partial<EmulatorOptions>>) = {}
): EmuHarness {
  const harness = {} as EmuHarness
  before(async () => {
    harness.dir = await mkdtemp(path.join(os.tmpdir(), 'arc-emu-suite-'))
    const chosen = typeof options === 'function' ? await options(harness.dir) : options
    const emu = await startEmulator({port: 0, devices: [{serial: 'emu-1', snapshot: DEMO_DIR}], ...chosen})
    harness.emu = emu
    harness.env = {ADB_SERVER_SOCKET: `tcp:127.0.0.1:${emu.port}`, ARC_CACHE_DIR: path.join(harness.dir, 'cache')}
    harness.server = (timeoutMs = 10_000) =>
      new AdbServer({host: '127.0.0.1', port: emu.port, hostSource: 'test', portSource: 'test'}, timeoutMs)
    harness.driver = (serial?: string, timeoutMs = 10_000) =>
      connectAdbDriver({serial, port: emu.port, host: '127.0.0.1', timeoutMs, env: {}})
    harness.argvSince = (from: number) => emu.commands.slice(from).map((c) => c.argv)
    harness.capture = async (serial = 'emu-1') => {
      const driver = await harness.driver(serial)
      try {
        return await driver.captureScreen()
      } finally {
        await driver.close()
      }
    }
  })
  after(async () => {
    await harness.emu?.close()
    if (harness.dir) await rm(harness.dir, {recursive: true, force: true})
  })
  return harness
}

type DeviceSetup = NonNullable<Exclude<EmulatorOptions['scenario'], string | undefined>['devices']>[string]

/**
 * `useEmulator` with one device, `emu-1`, whose screens are one per case named in `cases`, each the screen `nodes`
 * (a case shows its own with `device.showScreen(name)`, fresh: nothing typed or tapped in it yet), with what `device`
 * adds (field rules…).
 */
export function useScreenCases(
  nodes: NodeSpec[],
  cases: readonly string[],
  device: Omit<DeviceSetup, 'screens' | 'snapshot'> = {}
): EmuHarness {
  return useEmulator(async (dir) => {
    const file = path.join(dir, 'cases.xml')
    await writeFile(file, dumpXml(nodes))
    return {
      devices: [],
      scenario: {devices: {'emu-1': {...device, screens: Object.fromEntries(cases.map((name) => [name, file]))}}},
    }
  })
}

/** `useEmulator` with one device, `emu-1`, showing the demo screen, with what `device` adds (packages, logcat…). */
export function useDemoDevice(device: Omit<DeviceSetup, 'snapshot'>): EmuHarness {
  return useEmulator({devices: [], scenario: {devices: {'emu-1': {snapshot: DEMO_DIR, ...device}}}})
}

/**
 * Lets `device` serve `n` dumps of the screen as it is, each held at its end until the test has seen it, then runs
 * `change` before the last one is let go: a waiting caller's next read after that is read n + 1. The count of reads
 * is the device's, whatever the machine's load.
 */
/**
 * What the field with resource-id `res` on the device's current screen holds, as the device keeps it (a dump may not
 * show it: a password field before API 26, a field showing its hint).
 */
export function fieldHolds(device: VirtualDevice, res: string): string {
  const node = device.screen.dump.nodes.find((n) => n.resourceId === res)
  if (!node) throw new Error(`no node with resource-id ${res} on screen ${device.screenName}`)
  return device.fields.textOf(device.screen, node.index)
}

export async function afterDumps(device: VirtualDevice, n: number, change: () => void): Promise<void> {
  let hold = device.holdNext('uiautomator', 'after')
  for (let i = 1; i < n; i++) {
    await hold.arrived
    const next = device.holdNext('uiautomator', 'after')
    hold.release()
    hold = next
  }
  await hold.arrived
  change()
  hold.release()
}
