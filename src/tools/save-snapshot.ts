import path from 'node:path'

import {
  checkHostPath,
  defineTool,
  fileRecord,
  SNAPSHOT_META,
  SNAPSHOT_PNG,
  SNAPSHOT_XML,
  UnsupportedError,
  type ScreenCapture,
  type SnapshotMeta,
  z,
} from '@arc-cli/core'

import {writeSnapshotFolder} from './snapshot-folder-writer.js'

/** meta.json for a capture: what the dump cannot say, in the snapshot format's schema. */
function snapshotMeta(capture: ScreenCapture, serial: string, capturedAt: Date): SnapshotMeta {
  const meta: SnapshotMeta = {
    format: 'arc-snapshot/1',
    serial,
    width: capture.screen.width,
    height: capture.screen.height,
    rotation: capture.screen.rotation,
    allWindows: capture.allWindows,
    capturedAt: capturedAt.toISOString(),
  }
  if (capture.screen.density !== undefined) meta.density = capture.screen.density
  if (capture.foreground.package !== undefined) meta.package = capture.foreground.package
  if (capture.foreground.activity !== undefined) meta.activity = capture.foreground.activity
  if (capture.windowManager) {
    // The visible windows are what a later read of the snapshot matches against; hidden ones only cost bytes.
    const windows = capture.windowManager.windows.filter((w) => w.visible)
    meta.windowManager =
      capture.windowManager.focus === undefined ? {windows} : {windows, focus: capture.windowManager.focus}
  }
  return meta
}

export const saveSnapshot = defineTool({
  name: 'save_snapshot',
  title: 'Record the screen as a snapshot folder',
  description: `Writes the current screen to a folder, replacing it whole (a folder holding other files is refused): ${SNAPSHOT_XML} (the uiautomator dump), ${SNAPSHOT_PNG} (a screenshot of the same moment) and ${SNAPSHOT_META} (size, density, rotation, foreground app, the window manager's window list). Any command reads it back with --device DIR.`,
  kind: 'read',
  needs: {screen: 'read'},
  group: 'screen',
  input: z.object({
    dir: z
      .string()
      .min(1)
      // `-` is stdout to every other output flag; a snapshot is a folder of files (a folder named - is `./-`).
      .refine((p) => p !== '-', 'cannot be - (a snapshot is a folder of files): name a folder, or ./- for one named -')
      .describe('Folder to write the snapshot to (created if missing)'),
  }),
  cli: {
    id: 'snapshot save',
    // A CLI job, not an agent's.
    only: 'it writes a folder on the machine arc runs on, at a path the caller picks',
    positional: ['dir'],
    examples: ['<%= config.bin %> <%= command.id %> ./snapshots/login'],
  },
  async handler({driver, cwd, warn}, {dir}) {
    const target = path.resolve(cwd, dir)
    // Before the device is read: a folder arc test's confinement refuses costs nothing.
    await checkHostPath(target, 'dir')
    const capture = await driver.captureScreen()
    let png: Buffer | undefined
    try {
      png = await driver.screenshot()
    } catch (error) {
      if (!(error instanceof UnsupportedError)) throw error
      warn(`no ${SNAPSHOT_PNG}: ${error.message}`)
    }
    const meta = snapshotMeta(capture, driver.serial, new Date())
    const xml = Buffer.from(capture.xml, 'utf8')
    // meta.json records the parts it belongs with, so a reader can refuse a mix of two saves.
    meta.files = {[SNAPSHOT_XML]: fileRecord(xml), ...(png ? {[SNAPSHOT_PNG]: fileRecord(png)} : {})}
    const files = [SNAPSHOT_XML, ...(png ? [SNAPSHOT_PNG] : []), SNAPSHOT_META]
    await writeSnapshotFolder(target, [
      {name: SNAPSHOT_XML, data: xml},
      ...(png ? [{name: SNAPSHOT_PNG, data: png}] : []),
      {name: SNAPSHOT_META, data: `${JSON.stringify(meta, null, 2)}\n`},
    ])
    return {text: `Snapshot saved to ${dir} (${files.join(', ')})`, data: {dir: target, files, meta}}
  },
})
