/**
 * `@arc-cli/emulator/demo-app`: the demo app's screens, for scripts/make-demo.ts (the bundled `demo` snapshot is
 * the app as it starts) and tests. It starts nothing: no server, no process.
 */
export {demoXml, demoMeta} from './demo-xml.js'
export {
  demoWindows,
  initialDemoState,
  WIDTH as DEMO_WIDTH,
  HEIGHT as DEMO_HEIGHT,
  type Box as DemoBox,
  type DemoItem,
  type DemoNode,
  type DemoState,
} from './demo-screen.js'
