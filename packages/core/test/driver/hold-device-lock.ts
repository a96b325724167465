/**
 * A process that takes a device's machine-wide lock and holds it until it is killed (device-lock.test.ts beside it):
 * `node --import tsx hold-device-lock.ts KEY [SOCKET_DIR]`. Prints `held` once it holds the lock.
 */
import {useSocketFiles, withDeviceLock} from '../../src/driver/device-lock.js'

const [key = 'test', dir] = process.argv.slice(2)
if (dir) useSocketFiles(dir)
await withDeviceLock(key, async () => {
  process.stdout.write('held\n')
  await new Promise<never>(() => setInterval(() => undefined, 1 << 30))
})
