// @arc-cli/core/testing: the test-only entry. It names the ADB driver's own pieces that suites outside this package
// drive directly (a driver through a real adbkit client, the parsers they check output against). It is served only
// under the `arc-source` condition the tests, bench and scripts run with (package.json `exports`): nothing built
// or published can import it, and the public surface stays src/index.ts. Core's own tests (packages/core/test)
// import the modules themselves.
export {AdbServer} from './driver/adb/adb-client.js'
export {AdbDriver, lockKey} from './driver/adb/adb-driver.js'
export {queueState, setWaitListener, type WaitNotice} from './driver/device-lock.js'
export {ADB_KEYBOARD, adbKeyboardBound, base64Chunks, imeIds} from './driver/adb/adb-keyboard.js'
export {connectAdbDriver} from './driver/adb/connect.js'
export {findTouchscreen, parseGetevent} from './driver/adb/getevent.js'
export {toRaw} from './driver/adb/gesture.js'
export {typingMethod} from './driver/adb/input.js'
export {parseWindowManager} from './driver/adb/parse-windows.js'
export {parseWmDensity, parseWmSize} from './driver/adb/parse-wm.js'
export {forgetScreenGeometry} from './driver/adb/screen-geometry.js'
export {EAW_VERSION} from './tools/display-width.js'
export {
  closeHelperSessions,
  encodeRequest,
  HelperFailure,
  HelperSession,
  helperSession,
} from './driver/adb/helper-session.js'
export {backendUses} from './driver/adb/helper-backend.js'
