/**
 * The live device driver: an adb device reached through an adb server (local, remote, an STF farm's or
 * `arc emulate`). Each capability lives in its own module; this class holds the per-device state and puts every
 * input action through the device's queue.
 */
import type {AppFilter, AppInfo, CapabilityReport, DeviceDriver, FileEntry, FileStat, GestureMethod, GesturePoint, LogQuery, LogResult, Point, ScreenCapture} from '../device-driver.js'
import type {AdbServer} from './adb-client.js'
import * as apps from './apps.js'
import {DeviceShell} from './device-shell.js'
import * as clipboard from './clipboard.js'
import {probe} from './doctor.js'
import * as files from './files.js'
import {gesture} from './gesture.js'
import * as input from './input.js'
import {serialise} from './input-queue.js'
import {readLogs} from './logs.js'
import * as screen from './screen.js'

export class AdbDriver implements DeviceDriver {
  readonly kind = 'adb' as const
  readonly serial: string
  readonly shell: DeviceShell
  private readonly dumpState: screen.DumpState = {windowsFlag: true, tty: true}

  constructor(
    readonly server: AdbServer,
    serial: string,
  ) {
    this.serial = serial
    this.shell = new DeviceShell(server, serial)
  }

  private act<T>(action: (dev: DeviceShell) => Promise<T>): Promise<T> {
    return serialise(this.shell.key, () => action(this.shell))
  }

  captureScreen(): Promise<ScreenCapture> {
    return screen.captureScreen(this.shell, this.dumpState)
  }

  screenshot(): Promise<Buffer> {
    return screen.screenshot(this.shell)
  }

  /** Screen size in the current orientation (wm size with overrides, turned by the rotation). */
  screenSize(): Promise<{width: number; height: number}> {
    return screen.screenInfo(this.shell)
  }

  tap(point: Point): Promise<void> {
    return this.act((dev) => input.tap(dev, point))
  }

  longPress(point: Point, durationMs: number): Promise<void> {
    return this.act((dev) => input.longPress(dev, point, durationMs))
  }

  doubleTap(point: Point): Promise<void> {
    return this.act((dev) => input.doubleTap(dev, point))
  }

  swipe(from: Point, to: Point, durationMs: number): Promise<void> {
    return this.act((dev) => input.swipe(dev, from, to, durationMs))
  }

  gesture(paths: GesturePoint[][]): Promise<GestureMethod> {
    return this.act((dev) => gesture(dev, paths))
  }

  pressKey(key: string | number): Promise<void> {
    return this.act((dev) => input.pressKey(dev, key))
  }

  pressKeys(keys: Array<string | number>): Promise<void> {
    return this.act((dev) => input.pressKeys(dev, keys))
  }

  inputText(text: string): Promise<void> {
    return this.act((dev) => input.inputText(dev, text))
  }

  openNotifications(): Promise<void> {
    return this.act((dev) => input.openNotifications(dev))
  }

  openQuickSettings(): Promise<void> {
    return this.act((dev) => input.openQuickSettings(dev))
  }

  listApps(filter: AppFilter): Promise<AppInfo[]> {
    return apps.listApps(this.shell, filter)
  }

  openApp(packageId: string): Promise<void> {
    return this.act((dev) => apps.openApp(dev, packageId))
  }

  closeApp(packageId: string): Promise<void> {
    return this.act((dev) => apps.closeApp(dev, packageId))
  }

  logs(query: LogQuery): Promise<LogResult> {
    return readLogs(this.shell, query)
  }

  getClipboard(): Promise<string | null> {
    return clipboard.getClipboard(this.shell)
  }

  setClipboard(_text: string): Promise<void> {
    return clipboard.setClipboard(this.shell)
  }

  statFile(path: string): Promise<FileStat | undefined> {
    return files.statFile(this.shell, path)
  }

  listDir(path: string): Promise<FileEntry[]> {
    return files.listDir(this.shell, path)
  }

  readFile(path: string): Promise<Buffer> {
    return files.readFile(this.shell, path)
  }

  realPath(path: string): Promise<string | undefined> {
    return files.realPath(this.shell, path)
  }

  freeBytes(path: string): Promise<number | undefined> {
    return files.freeBytes(this.shell, path)
  }

  makeDirs(path: string): Promise<void> {
    return files.makeDirs(this.shell, path)
  }

  writeFile(path: string, data: Buffer): Promise<void> {
    return files.writeFile(this.shell, path, data)
  }

  deleteFile(path: string): Promise<void> {
    return files.deleteFile(this.shell, path)
  }

  probeCapabilities(): Promise<CapabilityReport> {
    return probe(this.shell, () => this.captureScreen())
  }

  async close(): Promise<void> {
    this.server.close()
  }
}
