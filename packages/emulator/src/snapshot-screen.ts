import {SnapshotDriver, type UiHierarchy, type WindowManagerState, walkNodes} from '@arc-cli/core'

import {solidPng} from './png.js'

/** One screen a virtual device can show: a recorded snapshot, loaded once. */
export interface LoadedScreen {
  /** The scenario's name for it (`main` when the device has a single snapshot). */
  name: string
  /** Where it came from: a snapshot folder or `.xml` file. */
  source: string
  /** The uiautomator XML exactly as recorded. */
  xml: string
  hierarchy: UiHierarchy
  /** Width and height in the current orientation. */
  width: number
  height: number
  density: number
  rotation: 0 | 1 | 2 | 3
  /** The foreground app the snapshot (or the scenario) names; undefined when unknown. */
  package?: string
  activity?: string
  /** The window list the snapshot recorded (meta.json `windowManager`); undefined: derived from the dump. */
  windowManager?: WindowManagerState
  /** screen.png, or a blank PNG of the screen's size when the snapshot has none. */
  png(): Promise<Buffer>
}

const DEFAULT_DENSITY = 420

/**
 * Reads a snapshot through core's SnapshotDriver, so size, rotation and foreground come out exactly as
 * `arc … --device <snapshot>` sees them: meta.json, else screen.png, else the dump. Density defaults to 420.
 */
export async function loadScreen(
  name: string,
  source: string,
  overrides: {package?: string; activity?: string} = {},
): Promise<LoadedScreen> {
  const driver = await SnapshotDriver.open(source, name)
  const capture = await driver.captureScreen()
  let png: Buffer | undefined
  return {
    name,
    source,
    xml: capture.xml,
    hierarchy: capture.hierarchy as UiHierarchy,
    width: capture.screen.width,
    height: capture.screen.height,
    density: capture.screen.density ?? DEFAULT_DENSITY,
    rotation: capture.screen.rotation,
    package: overrides.package ?? capture.foreground.package,
    activity: overrides.activity ?? capture.foreground.activity,
    ...(capture.windowManager ? {windowManager: capture.windowManager} : {}),
    async png() {
      png ??= driver.hasScreenshot ? await driver.screenshot() : solidPng(capture.screen.width, capture.screen.height)
      return png
    },
  }
}

/** Every package named in a dump, most frequent first (used to seed the installed-package list). */
export function packagesInDump(hierarchy: UiHierarchy): string[] {
  const counts = new Map<string, number>()
  for (const node of walkNodes(hierarchy.windows)) {
    if (node.package) counts.set(node.package, (counts.get(node.package) ?? 0) + 1)
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([p]) => p)
}

