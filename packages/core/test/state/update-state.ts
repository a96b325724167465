/**
 * A process that adds `count` numbers to the list kept under one key of a device's store, one update each
 * (element-records-race.test.ts beside it): `node --import tsx update-state.ts CACHE_DIR FIRST COUNT`. Prints `done`.
 */
import {FileDeviceState} from '../../src/state/device-state.js'

const [dir = '', first = '0', count = '0'] = process.argv.slice(2)
const state = new FileDeviceState('emu-1', dir)
const isList = (value: unknown): value is number[] => Array.isArray(value)
for (let i = 0; i < Number(count); i++) await state.update('list', isList, (list = []) => [...list, Number(first) + i])
process.stdout.write('done\n')
