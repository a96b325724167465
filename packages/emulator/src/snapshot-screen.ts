import {readFile, stat} from 'node:fs/promises'
import path from 'node:path'

import {DeviceNotFoundError, InvalidInputError} from '@arc-cli/core'

import {solidPng} from './png.js'
import {dumpExtent, readScreenDump, type Bounds, type ScreenDump} from './screen-dump.js'

/** A window the window manager listed when the snapshot was recorded (meta.json `windowManager.windows`). */
export interface RecordedWindow {
  title: string
  package?: string
  /** The window manager's type name: BASE_APPLICATION, INPUT_METHOD, STATUS_BAR… */
  type: string
  /** Position in the list, 0 = topmost. */
  z: number
  layer: number
  displayId: number
  visible: boolean
  frame?: Bounds
  /**
   * False for a window with FLAG_NOT_TOUCHABLE (a blue-light filter, a toast): touches pass through it to the windows
   * beneath (touch.ts). Absent: it takes them.
   */
  touchable?: boolean
}

export interface RecordedWindowList {
  windows: RecordedWindow[]
  focus?: string
}

/** One screen a virtual device can show: a recorded snapshot, loaded once. */
export interface LoadedScreen {
  /** The scenario's name for it (`main` when the device has a single snapshot). */
  name: string
  /** Where it came from: a snapshot folder or `.xml` file. */
  source: string
  /** The uiautomator XML exactly as recorded. */
  xml: string
  /** The device's own reading of it (screen-dump.ts). */
  dump: ScreenDump
  /** Width and height in the current orientation. */
  width: number
  height: number
  density: number
  rotation: 0 | 1 | 2 | 3
  /** The foreground app the snapshot (or the scenario) names; undefined when unknown. */
  package?: string
  activity?: string
  /** The window list the snapshot recorded (meta.json `windowManager`); undefined: derived from the dump. */
  windowManager?: RecordedWindowList
  /** screen.png, or a blank PNG of the screen's size when the snapshot has none. */
  png(): Promise<Buffer>
}

const DEFAULT_DENSITY = 420

interface Meta {
  width?: number
  height?: number
  density?: number
  rotation?: number
  package?: string
  activity?: string
  windowManager?: RecordedWindowList
}

/** A PNG's width and height from its IHDR chunk; undefined when the bytes are no PNG. */
function pngSize(png: Buffer): {width: number; height: number} | undefined {
  if (png.length < 24 || png.readUInt32BE(0) !== 0x89504e47 || png.toString('latin1', 12, 16) !== 'IHDR')
    return undefined
  return {width: png.readUInt32BE(16), height: png.readUInt32BE(20)}
}

const isFile = async (p: string) => (await stat(p).catch(() => undefined))?.isFile() ?? false

/**
 * Reads a snapshot the way a recording is laid out (a folder with window_dump.xml, and optionally meta.json and
 * screen.png, or a bare `.xml` dump): size, rotation and foreground from meta.json, else the size from screen.png,
 * else from the dump's extent, and the rotation from the dump. Density defaults to 420. The dump is read by the
 * device's own reader (screen-dump.ts), never arc's.
 */
export async function loadScreen(
  name: string,
  source: string,
  overrides: {package?: string; activity?: string} = {}
): Promise<LoadedScreen> {
  const info = await stat(source).catch(() => undefined)
  if (!info) {
    throw new DeviceNotFoundError(`no snapshot at ${source}: the path does not exist`, {
      details: {device: source},
      actions: ['Pass a folder holding window_dump.xml, or a .xml dump file.'],
    })
  }
  const folder = info.isFile() ? undefined : source
  const xmlPath = folder ? path.join(folder, 'window_dump.xml') : source
  if (folder && !(await isFile(xmlPath))) {
    throw new DeviceNotFoundError(`no snapshot at ${source}: the folder has no window_dump.xml`, {
      details: {device: source},
      actions: ['A snapshot folder holds window_dump.xml, and optionally screen.png and meta.json.'],
    })
  }
  const xml = await readFile(xmlPath, 'utf8')
  let dump: ScreenDump
  try {
    dump = readScreenDump(xml)
  } catch (error) {
    throw new InvalidInputError(`UI dump ${xmlPath} cannot be read: ${(error as Error).message}`, {
      details: {path: xmlPath},
    })
  }
  let meta: Meta = {}
  const metaPath = folder && path.join(folder, 'meta.json')
  if (metaPath && (await isFile(metaPath))) {
    try {
      meta = JSON.parse(await readFile(metaPath, 'utf8')) as Meta
    } catch (error) {
      throw new InvalidInputError(`snapshot meta ${metaPath} is not valid JSON: ${(error as Error).message}`, {
        details: {path: metaPath},
      })
    }
  }
  const pngPath = folder && path.join(folder, 'screen.png')
  const recorded = pngPath && (await isFile(pngPath)) ? await readFile(pngPath) : undefined
  const size =
    meta.width !== undefined && meta.height !== undefined
      ? {width: meta.width, height: meta.height}
      : ((recorded && pngSize(recorded)) ?? dumpExtent(dump))
  const rotation =
    meta.rotation === 1 || meta.rotation === 2 || meta.rotation === 3 || meta.rotation === 0
      ? meta.rotation
      : dump.rotation
  let png: Buffer | undefined
  return {
    name,
    source,
    xml,
    dump,
    width: size.width,
    height: size.height,
    density: meta.density ?? DEFAULT_DENSITY,
    rotation,
    package: overrides.package ?? meta.package,
    activity: overrides.activity ?? meta.activity,
    ...(meta.windowManager ? {windowManager: meta.windowManager} : {}),
    async png() {
      png ??= recorded ?? solidPng(size.width, size.height)
      return png
    },
  }
}

/** Every package named in a dump, most frequent first (used to seed the installed-package list). */
export function packagesInDump(dump: ScreenDump): string[] {
  const counts = new Map<string, number>()
  for (const node of dump.nodes) {
    if (node.package) counts.set(node.package, (counts.get(node.package) ?? 0) + 1)
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([p]) => p)
}

/**
 * The screen as the app lays it out on a display of another size (`wm size`): on a phone the app lays out again at
 * the size in force, uiautomator reports bounds in that space and `input` reads touches in it (AOSP
 * InputDispatcher hit-tests the display's logical coordinates; `wm size` sets the logical size,
 * WindowManagerService.setForcedDisplaySize). A still snapshot cannot lay out again, so its bounds (every
 * `bounds="[l,t][r,b]"` of the dump, and the recorded window frames) are scaled to the size in force, rounded to
 * whole pixels; the screenshot stays the panel's pixels.
 */
export function laidOutAt(screen: LoadedScreen, size: {width: number; height: number}): LoadedScreen {
  const sx = size.width / screen.width
  const sy = size.height / screen.height
  const scale = (b: Bounds): Bounds => [
    Math.round(b[0] * sx),
    Math.round(b[1] * sy),
    Math.round(b[2] * sx),
    Math.round(b[3] * sy),
  ]
  const xml = screen.xml.replace(
    /\bbounds="\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]"/g,
    (_all, l: string, t: string, r: string, b: string) => {
      const [L, T, R, B] = scale([Number(l), Number(t), Number(r), Number(b)])
      return `bounds="[${L},${T}][${R},${B}]"`
    }
  )
  const windowManager = screen.windowManager && {
    ...screen.windowManager,
    windows: screen.windowManager.windows.map((w) => (w.frame ? {...w, frame: scale(w.frame)} : w)),
  }
  return {
    ...screen,
    xml,
    dump: readScreenDump(xml),
    width: size.width,
    height: size.height,
    ...(windowManager ? {windowManager} : {}),
  }
}
