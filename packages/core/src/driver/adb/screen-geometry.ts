/**
 * The screen's geometry (size in the current orientation, and rotation) as arc last read it from a device, kept for
 * the life of the process (an MCP server's calls, a batch's lines), one per device per adb server, so the touch
 * tools' on-screen check costs no device command when nothing can have changed it. docs/architecture.md
 * ("Screen geometry") argues when it is renewed:
 *
 * - every read that learns it anyway renews it (a capture, windowInfo, the check's own read);
 * - an action of arc's that can change it forgets it: rotation, a shell command (`wm size`, `wm density`), starting,
 *   stopping, installing or removing an app, a URL opened, wake and unlock (apps and the lock screen may force an
 *   orientation);
 * - a refusal is never made on what is remembered: the check reads the device again first (checkOnScreen).
 *
 * A reading that started before an action that forgets ended is not kept (the epoch moved meanwhile).
 */
export interface Geometry {
  width: number
  height: number
  rotation: 0 | 1 | 2 | 3
}

export class GeometryMemory {
  private value: Geometry | undefined
  /** Moves on every forget, so a reading that overlapped an action is not kept. */
  private epoch = 0

  get(): Geometry | undefined {
    return this.value ? {...this.value} : undefined
  }

  /** The epoch to hand back to `keep`, taken when a reading starts. */
  begin(): number {
    return this.epoch
  }

  /** Keeps a reading, unless something was forgotten since it began. */
  keep(started: number, geometry: Geometry): void {
    if (started !== this.epoch) return
    this.value = {width: geometry.width, height: geometry.height, rotation: geometry.rotation}
  }

  forget(): void {
    this.epoch++
    this.value = undefined
  }
}

const memories = new Map<string, GeometryMemory>()

/** The geometry memory of one device (its adb server and serial: DeviceShell.key). */
export function geometryFor(key: string): GeometryMemory {
  let memory = memories.get(key)
  if (!memory) memories.set(key, (memory = new GeometryMemory()))
  return memory
}

/** Forgets every device's geometry, as a new process starts (tests that compare a fresh CLI run with a server). */
export function forgetScreenGeometry(): void {
  for (const memory of memories.values()) memory.forget()
}
