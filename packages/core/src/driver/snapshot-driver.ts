import {open, stat} from 'node:fs/promises'
import path from 'node:path'

import {DeviceNotFoundError, InvalidInputError, ReadOnlyDeviceError, UnsupportedError} from '../errors/arc-error.js'
import {parseUiDump} from '../screen/parse-ui-dump.js'
import {buildScreenModel, screenSizeFromHierarchy} from '../screen/screen-model.js'
import type {UiHierarchy} from '../screen/ui-node.js'
import {treelessWindows} from '../screen/window-metadata.js'
import {composeDriver, type Backend} from './compose.js'
import type {
  CAPABILITY_METHODS,
  CapabilityName,
  DeviceDriver,
  DeviceInfo,
  InfoCapability,
  KeyboardState,
  RotationState,
  ScreenCapability,
  ScreenCapture,
  WindowInfo,
} from './device-driver.js'
import {keyboardWindowShown} from './keyboard-state.js'
import {checkPng, pngSize, pngSizeProblem} from '../png.js'
import {SNAPSHOT_META, SNAPSHOT_PNG, SNAPSHOT_XML, parseSnapshotMeta, type SnapshotMeta} from './snapshot-format.js'
import {
  checkListedParts,
  checkSnapshotPart,
  MAX_SNAPSHOT_PNG_BYTES,
  MAX_SNAPSHOT_XML_BYTES,
  readSnapshotFile,
  snapshotReadError,
} from './snapshot-integrity.js'

/** The first `bytes` bytes of a file (fewer if it is shorter). */
async function readHead(file: string, bytes: number): Promise<Buffer> {
  const handle = await open(file, 'r').catch((error: NodeJS.ErrnoException) => {
    throw snapshotReadError(file, error)
  })
  try {
    const {buffer, bytesRead} = await handle.read(Buffer.alloc(bytes), 0, bytes, 0)
    return buffer.subarray(0, bytesRead)
  } finally {
    await handle.close()
  }
}

type Rows = typeof CAPABILITY_METHODS
/** The capabilities with a method of this use. */
type WithUse<U> = {[C in CapabilityName]: U extends Rows[C][keyof Rows[C]] ? C : never}[CapabilityName]
type Unserved = Exclude<CapabilityName, 'screen' | 'info'>

/** What a recording cannot do, in the words of the refusal: `cannot <words> on <serial>`. */
export const READ_ONLY_ACTIONS = {
  input: 'tap, swipe, press keys or type text',
  system: 'rotate, wake or unlock the screen, or open the status bar panels',
  apps: 'open, close, install, uninstall or change apps',
  logs: 'clear the device logs',
  files: 'write or delete files',
  clipboard: 'set the clipboard',
  shell: 'run a shell command',
} as const satisfies Record<WithUse<'act'> & Unserved, string>

/** What a recording has no data for: `a recorded snapshot has no <words>`. */
export const NOT_RECORDED = {
  system: 'device to probe (arc doctor needs a live device)',
  apps: 'installed apps to list',
  logs: 'device logs',
  files: 'file system',
  clipboard: 'clipboard',
  recording: 'moving screen to record (it is a still recording)',
} as const satisfies Record<WithUse<'read'> & Unserved, string>

/**
 * A recorded device as a backend: it serves the screen and info capabilities (reads), and refuses every action
 * with DEVICE_READ_ONLY, so a script pointed at it fails loudly instead of silently doing nothing, and every other
 * read with UNSUPPORTED. Known from the device string alone, before the recording is opened.
 */
export function snapshotBackend(serial: string): Backend {
  return {
    serial,
    serves: {screen: 'read', info: 'read'},
    refuse(capability, use) {
      if (use === 'act' && capability in READ_ONLY_ACTIONS) {
        const words = READ_ONLY_ACTIONS[capability as keyof typeof READ_ONLY_ACTIONS]
        return new ReadOnlyDeviceError(`recorded device is read-only: cannot ${words} on ${serial}`, {
          actions: ['Run the command against a live device (--device SERIAL) or `arc emulate`.'],
        })
      }
      const words = NOT_RECORDED[capability as keyof typeof NOT_RECORDED] ?? `${capability} capability`
      return new UnsupportedError(`a recorded snapshot has no ${words} (${serial})`)
    },
  }
}

/** A recorded device as a whole DeviceDriver: the snapshot's screen and info, the rest refused (snapshotBackend). */
export async function openSnapshot(location: string, serial = location): Promise<DeviceDriver> {
  const snapshot = await SnapshotDriver.open(location, serial)
  const {refuse} = snapshotBackend(snapshot.serial)
  return composeDriver(snapshot.serial, {screen: snapshot, info: snapshot}, () => snapshot.close(), refuse)
}

/**
 * A recorded device: a snapshot folder, a bare `.xml` dump, or `demo`. It answers the screen and info capabilities
 * from the files; openSnapshot makes it a whole driver that refuses the rest.
 *
 * Screen size comes from meta.json, else from screen.png, else from the dump (Appium's declared size, or the
 * largest window edge). Density comes only from meta.json. Rotation from meta.json, else the dump.
 */
export class SnapshotDriver implements ScreenCapability, InfoCapability {
  readonly serial: string
  private readonly xmlPath: string
  private readonly pngPath?: string
  private readonly metaPath?: string

  private constructor(serial: string, xmlPath: string, pngPath?: string, metaPath?: string) {
    this.serial = serial
    this.xmlPath = xmlPath
    this.pngPath = pngPath
    this.metaPath = metaPath
  }

  /** A recording never changes and takes no input: nothing to share, so `work` just runs. */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    return work()
  }

  /** Opens a snapshot folder or `.xml` file; a DeviceNotFoundError names what is missing. */
  static async open(location: string, serial = location): Promise<SnapshotDriver> {
    const info = await stat(location).catch(() => undefined)
    if (!info) {
      throw new DeviceNotFoundError(`no snapshot at ${location}: the path does not exist`, {
        details: {device: location},
        actions: ['Pass a folder holding window_dump.xml, a .xml dump file, `demo`, or an adb serial.'],
      })
    }
    if (info.isFile()) return new SnapshotDriver(serial, location)
    const isFile = async (p: string) => (await stat(p).catch(() => undefined))?.isFile() ?? false
    const xmlPath = path.join(location, SNAPSHOT_XML)
    if (!(await isFile(xmlPath))) {
      throw new DeviceNotFoundError(`no snapshot at ${location}: the folder has no ${SNAPSHOT_XML}`, {
        details: {device: location},
        actions: [`A snapshot folder holds ${SNAPSHOT_XML}, and optionally ${SNAPSHOT_PNG} and ${SNAPSHOT_META}.`],
      })
    }
    const pngPath = path.join(location, SNAPSHOT_PNG)
    const metaPath = path.join(location, SNAPSHOT_META)
    return new SnapshotDriver(
      serial,
      xmlPath,
      (await isFile(pngPath)) ? pngPath : undefined,
      (await isFile(metaPath)) ? metaPath : undefined
    )
  }

  get hasScreenshot(): boolean {
    return this.pngPath !== undefined
  }

  private async meta(): Promise<SnapshotMeta | undefined> {
    if (!this.metaPath) return undefined
    const text = (await readSnapshotFile(this.metaPath, 1024 * 1024, 'meta')).toString('utf8')
    const meta = parseSnapshotMeta(text, this.metaPath)
    checkListedParts(meta, this.metaPath, [SNAPSHOT_XML, ...(this.pngPath ? [SNAPSHOT_PNG] : [])])
    return meta
  }

  /** Reads the files each time. */
  async captureScreen(): Promise<ScreenCapture> {
    const raw = await readSnapshotFile(this.xmlPath, MAX_SNAPSHOT_XML_BYTES, 'dump')
    const what = `UI dump ${this.xmlPath}`
    const meta = await this.meta()
    checkSnapshotPart(meta, this.metaPath, SNAPSHOT_XML, raw)
    const hierarchy = parseUiDump(raw, what)
    const size = await this.size(meta, hierarchy)
    const screen = {
      width: size.width,
      height: size.height,
      density: meta?.density,
      rotation: meta?.rotation ?? hierarchy.rotation,
    }
    return {
      xml: raw.toString('utf8'),
      hierarchy,
      screen,
      foreground: {package: meta?.package, activity: meta?.activity},
      allWindows:
        meta?.allWindows ??
        (hierarchy.listedWindows
          ? treelessWindows(hierarchy.listedWindows).length === 0
          : hierarchy.windows.length > 1),
      // A snapshot that recorded the window manager's list is read with it; a bare dump falls back to guessing.
      ...(meta?.windowManager ? {windowManager: meta.windowManager} : {}),
    }
  }

  async screenshot(): Promise<Buffer> {
    if (!this.pngPath) {
      throw new UnsupportedError(`snapshot ${this.serial} has no ${SNAPSHOT_PNG}, so there is no screenshot`, {
        actions: [`Add ${SNAPSHOT_PNG} to the snapshot folder, or record it again with \`arc snapshot save\`.`],
      })
    }
    const png = await readSnapshotFile(this.pngPath, MAX_SNAPSHOT_PNG_BYTES, 'screenshot')
    checkSnapshotPart(await this.meta(), this.metaPath, SNAPSHOT_PNG, png)
    if (!pngSize(png)) throw new InvalidInputError(`${this.pngPath} is not a PNG image`)
    // A snapshot without recorded hashes (or a hand-made one) can hold a cut-short PNG: the live driver refuses
    // such a screencap, so this does too, instead of passing it on to a screenshot file or a new snapshot.
    const checked = checkPng(png)
    if ('problem' in checked) {
      throw new InvalidInputError(`${this.pngPath} is not a whole PNG: ${checked.problem}`, {
        details: {path: this.pngPath},
        actions: ['Replace screen.png, or record the snapshot again with `arc snapshot save`.'],
      })
    }
    return png
  }

  async screenSize(): Promise<{width: number; height: number}> {
    return this.size(await this.meta())
  }

  /**
   * The recorded screen and window list: meta.json's, without reading the dump; a snapshot without meta.json gives
   * its screen from the files and no window list (nothing recorded one), so a caller needing the bars reads the dump.
   */
  async windowInfo(): Promise<WindowInfo> {
    const meta = await this.meta()
    if (!meta) return {screen: (await this.captureScreen()).screen}
    const {width, height, density, rotation, windowManager} = meta
    return {screen: {width, height, density, rotation}, ...(windowManager ? {windowManager} : {})}
  }

  /** A recording has no device commands to spare: windowInfo(), then a capture when asked. */
  async windowInfoOrCapture(
    needsDump: (info: WindowInfo) => boolean
  ): Promise<{info: WindowInfo; capture?: ScreenCapture}> {
    const info = await this.windowInfo()
    return needsDump(info) ? {info, capture: await this.captureScreen()} : {info}
  }

  /**
   * What the recording shows: the recorded window list's keyboard window, else a keyboard window in the dump (the
   * screen model's INPUT_METHOD). A recording has no input method service to ask.
   */
  async keyboard(): Promise<KeyboardState> {
    const recorded = keyboardWindowShown((await this.windowInfo()).windowManager)
    if (recorded !== undefined) return {windowShown: recorded}
    const model = buildScreenModel(await this.captureScreen())
    return {windowShown: model.windows.some((w) => w.type === 'INPUT_METHOD' && w.display === 0)}
  }

  /**
   * meta.json's size, else screen.png's (from its 24-byte header, not the whole file), else the dump's extent;
   * the dump is parsed only when it is needed and not already at hand.
   */
  private async size(
    meta: SnapshotMeta | undefined,
    hierarchy?: UiHierarchy
  ): Promise<{width: number; height: number}> {
    if (meta) return {width: meta.width, height: meta.height}
    const fromPng = this.pngPath && pngSize(await readHead(this.pngPath, 24))
    if (fromPng) {
      const problem = pngSizeProblem(fromPng)
      if (problem) {
        throw new InvalidInputError(`${this.pngPath} cannot give the screen size: ${problem}`, {
          details: {path: this.pngPath, width: fromPng.width, height: fromPng.height},
          actions: ['Replace screen.png, or add meta.json with the screen width and height.'],
        })
      }
      return fromPng
    }
    const raw = hierarchy ? undefined : await readSnapshotFile(this.xmlPath, MAX_SNAPSHOT_XML_BYTES, 'dump')
    return screenSizeFromHierarchy(hierarchy ?? parseUiDump(raw as Buffer, `UI dump ${this.xmlPath}`))
  }

  /** What the recording knows: its serial, the screen from meta.json or the files, and the app meta.json names. */
  async deviceInfo(): Promise<DeviceInfo> {
    const meta = await this.meta()
    const size = await this.size(meta)
    const natural = (meta?.rotation ?? 0) % 2 === 1 ? {width: size.height, height: size.width} : size
    return {
      serial: this.serial,
      screen: {...natural, ...(meta?.density === undefined ? {} : {density: meta.density})},
      ...(meta?.package === undefined
        ? {}
        : {foreground: {package: meta.package, ...(meta.activity === undefined ? {} : {activity: meta.activity})}}),
    }
  }

  /** A recording says nothing of the display's power. */
  async displayAwake(): Promise<boolean | undefined> {
    return undefined
  }

  async rotation(): Promise<RotationState> {
    const {screen} = await this.captureScreen()
    return {rotation: (screen.rotation * 90) as RotationState['rotation'], auto_rotate: false}
  }

  async close(): Promise<void> {}
}
