/**
 * When arc's last action on each device ended, for the helper's read after it (`dump SINCE_MS`: the helper waits for
 * the screen that action changed to settle; docs/devices.md, "Reads after an action").
 *
 * Kept twice. In this process (performance.now(), per device key): a batch's, an MCP server's or `arc test`'s next
 * line. And in a mark file per device in arc's cache folder (the wall clock, Date.now()): another arc process's
 * action, a one-shot `arc tap` while a script's next `arc screen-state` or an agent's MCP server reads, which this
 * process has no other way to know of. The helper counts what it injects itself, but not `input`, `am start` or
 * another process's helper; its UiAutomation, connected for the read, saw none of the events sent before.
 *
 * Best effort: a cache folder that cannot be written or read costs the other processes' actions only, never an
 * error. A mark in the future (the clock was set back) counts as an action now; the wait it brings is bounded by the
 * helper (500 ms of quiet, at most 3 s).
 */
import {createHash} from 'node:crypto'
import {readFileSync} from 'node:fs'
import {rename, writeFile} from 'node:fs/promises'
import path from 'node:path'

import {makeFolders} from '../../output-files.js'
import {arcCacheDir} from '../../state/cache-dir.js'

/** Beyond this, an action is too old to matter (the helper refuses SINCE_MS above it): nothing is sent. */
export const ACTION_MEMORY_MS = 600_000

const inProcess = new Map<string, number>()

function markFile(key: string): string {
  const digest = createHash('sha256').update(key).digest('hex').slice(0, 32)
  return path.join(arcCacheDir(), 'actions', digest)
}

/** An action on the device (`key`: DeviceShell.key) just ended, failed or not: it may have reached the app. */
export async function noteAction(key: string): Promise<void> {
  inProcess.set(key, performance.now())
  const file = markFile(key)
  // Written whole, then renamed over the mark: a reader never sees half a number.
  const part = `${file}.${process.pid}`
  const write = () => writeFile(part, String(Date.now()), {mode: 0o600})
  try {
    await write().catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error
      // makeFolders, not a recursive mkdir: that never settles under /proc (ARC_CACHE_DIR=/proc/x).
      await makeFolders(path.dirname(file))
      await write()
    })
    await rename(part, file)
  } catch {
    // A read-only or full cache: other processes will not know of this action (this one does).
  }
}

/** How many ms ago arc's last action on the device ended, in this process or another; undefined when none is known. */
export function msSinceAction(key: string): number | undefined {
  let since = Infinity
  const here = inProcess.get(key)
  if (here !== undefined) since = performance.now() - here
  let text = ''
  try {
    text = readFileSync(markFile(key), 'utf8')
  } catch {
    // No mark: no other process acted on this device (or the cache cannot be read).
  }
  if (/^\d{1,16}$/.test(text)) since = Math.min(since, Date.now() - Number(text))
  if (!(since < ACTION_MEMORY_MS)) return undefined
  return Math.max(0, Math.floor(since))
}
