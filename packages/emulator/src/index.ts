/**
 * @arc-cli/emulator — `arc emulate`: an ADB server with virtual Android devices that speaks the real wire
 * protocol, so the real adbkit client and the real `adb` CLI drive it like a phone.
 *
 * ```ts
 * import {startEmulator} from '@arc-cli/emulator'
 * const emu = await startEmulator({port: 0, devices: [{serial: 'emu-1', snapshot: DEMO_DIR}]})
 * const client = Adb.createClient({host: '127.0.0.1', port: emu.port, bin: '/bin/false'})
 * await Adb.util.readAll(await client.getDevice('emu-1').shell("input tap 10 20"))
 * emu.commands.map((c) => c.argv)          // [['input', 'tap', '10', '20']]
 * emu.device('emu-1').inputEvents          // [{type: 'tap', x: 10, y: 20}]
 * await emu.close()
 * ```
 *
 * Host services: version (41), devices, devices-l, track-devices, features, host-features, get-state/-serialno/
 * -devpath/-product, transport*, tport*, wait-for-*. Device services: `shell:` (v1), `shell,v2,…:` (exit
 * codes), `exec:`, `sync:` (STAT, LIST, RECV, SEND, QUIT). A command line runs in a real `/bin/sh -c`, with only
 * the emulated programs on PATH (see `COMMANDS`), so quoting is exactly POSIX and `emu.commands[i].argv` is
 * the argv the program received. `close()` kills every shell and removes the temporary files.
 *
 * Stable API: `startEmulator`, `EmulatorOptions`, `EmulatedDeviceSpec`, `Emulator`, `ReceivedCommand`,
 * `VirtualDevice`, `InputEvent`, `Scenario`. docs/emulate.md describes the scenario format and each command.
 */
export {startEmulator, type EmulatedDeviceSpec, type Emulator, type EmulatorOptions} from './emulator.js'
export type {ProgramHelper} from './program-helper.js'
export type {ReceivedCommand, ReceivedRequest} from './command-log.js'
export {
  VirtualDevice,
  LAUNCHER_PACKAGE,
  type AdbState,
  type InputEvent,
  type InstalledPackage,
} from './virtual-device.js'
export {loadScenarioFile, parseScenario, scenarioSchema, FAULT_KINDS, type Scenario} from './scenario.js'
export {COMMANDS} from './commands/index.js'
export type {CommandContext, DeviceCommand} from './commands/types.js'
export type {LoadedScreen} from './snapshot-screen.js'
export {ADB_SERVER_VERSION, DEVICE_FEATURES} from './host-protocol.js'
export {IDLE_STATE_ERROR, NULL_ROOT_ERROR} from './faults.js'
