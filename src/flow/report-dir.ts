/**
 * What `arc test` owns in a `--report-dir` the user may reuse (docs/flows.md, "The report"): junit.xml, summary.md,
 * and the failure folders it made, each marked by a file of its own. A later run into the same folder removes what an
 * earlier one left there before any flow runs, so the report folder shows this run's failures only; it removes only
 * the files arc test writes, by name and kind, never following a link, and keeps anything else (and the folder that
 * holds it), saying so.
 */
import {lstat, mkdir, readdir, readFile, rmdir, unlink, writeFile} from 'node:fs/promises'
import path from 'node:path'

import {SNAPSHOT_META, SNAPSHOT_PNG, SNAPSHOT_XML} from '@arc-cli/core'

/** The marker in each failure folder arc test made: the next run into the report folder clears the folder. */
export const FAILURE_MARKER = '.arc-test-failure.json'

/** The report's own files, rewritten by every run: an earlier run's is removed first, so a run that ends early never leaves it standing as its own. */
export const REPORT_FILES = ['junit.xml', 'summary.md']

/** What arc test writes in a failure folder: files (and writeOutputFile's side files of a killed write)… */
const FAILURE_FILE = /^(screen\.jpg|device\.log|\.(screen\.jpg|device\.log)\.\d+\.tmp)$/
/** …and the snapshot folder (and `arc snapshot save`'s side folders of a killed save), holding these files. */
const SNAPSHOT_FOLDER = /^(snapshot|\.snapshot\.\d+\.(tmp|old))$/
const SNAPSHOT_FILES = new Set([SNAPSHOT_XML, SNAPSHOT_PNG, SNAPSHOT_META])

/** How many names a failure folder tries (`login-emu`, `login-emu-2`, …) before its pictures are given up. */
export const FOLDER_TRIES = 100

const isFile = async (file: string) => (await lstat(file).catch(() => undefined))?.isFile() === true
const isFolder = async (file: string) => (await lstat(file).catch(() => undefined))?.isDirectory() === true

/** Removes `file` where it is a regular file (never a link, a folder or what a link names). */
async function removeFile(file: string): Promise<void> {
  if (await isFile(file)) await unlink(file).catch(() => undefined)
}

/** The marker's text: which run made the folder. */
function markerText(): string {
  return `${JSON.stringify({by: 'arc test', pid: process.pid, made: new Date().toISOString()})}\n`
}

async function isMarked(folder: string): Promise<boolean> {
  const marker = path.join(folder, FAILURE_MARKER)
  if (!(await isFile(marker))) return false
  const text = await readFile(marker, 'utf8').catch(() => '')
  try {
    return (JSON.parse(text) as {by?: unknown}).by === 'arc test'
  } catch {
    return false
  }
}

export interface ClearedReport {
  /** Failure folders of earlier runs, removed. */
  removed: string[]
  /** Failure folders of earlier runs kept, each with what it holds that arc test did not write there. */
  kept: Array<{folder: string; others: string[]}>
}

/**
 * Clears what earlier runs wrote in `dir`: junit.xml and summary.md (regular files only), and each failure folder
 * holding arc test's marker, emptied of what arc test writes there and removed; a folder holding anything else keeps
 * it, its marker too (a later run tries again), and is named in `kept`.
 */
export async function clearEarlierRun(dir: string): Promise<ClearedReport> {
  for (const name of REPORT_FILES) await removeFile(path.join(dir, name))
  const cleared: ClearedReport = {removed: [], kept: []}
  for (const name of (await readdir(dir).catch(() => [] as string[])).sort()) {
    const folder = path.join(dir, name)
    if (!(await isFolder(folder)) || !(await isMarked(folder))) continue
    for (const entry of await readdir(folder).catch(() => [] as string[])) {
      const full = path.join(folder, entry)
      if (FAILURE_FILE.test(entry)) await removeFile(full)
      else if (SNAPSHOT_FOLDER.test(entry) && (await isFolder(full))) {
        for (const file of await readdir(full).catch(() => [] as string[]))
          if (SNAPSHOT_FILES.has(file)) await removeFile(path.join(full, file))
        await rmdir(full).catch(() => undefined)
      }
    }
    const others = (await readdir(folder).catch(() => [] as string[])).filter((e) => e !== FAILURE_MARKER).sort()
    if (others.length > 0) {
      cleared.kept.push({folder: name, others})
      continue
    }
    await removeFile(path.join(folder, FAILURE_MARKER))
    await rmdir(folder).then(
      () => cleared.removed.push(name),
      () => cleared.kept.push({folder: name, others: []})
    )
  }
  return cleared
}

/** Removes a failure folder this run made and left empty (its marker aside); one holding anything else stays. */
export async function removeFailureFolder(folder: string): Promise<void> {
  const entries = await readdir(folder).catch(() => [] as string[])
  if (entries.some((e) => e !== FAILURE_MARKER)) return
  await removeFile(path.join(folder, FAILURE_MARKER))
  await rmdir(folder).catch(() => undefined)
}

/**
 * Makes a failure folder of this run in `dir`: a new one, never a folder already there (an earlier run's that was
 * kept, one of the user's, another device's of this run: each `mkdir` takes a name or fails, so parallel runs never
 * share one), marked as arc test's. The first free name of `word`, `word-2`, … (FOLDER_TRIES in all).
 */
export async function makeFailureFolder(dir: string, word: string, taken: Set<string>): Promise<string> {
  let last: unknown
  for (let n = 1; n <= FOLDER_TRIES; n++) {
    const name = n === 1 ? word : `${word}-${n}`
    if (taken.has(name)) continue
    try {
      await mkdir(path.join(dir, name))
    } catch (error) {
      last = error
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue
      throw error
    }
    taken.add(name)
    await writeFile(path.join(dir, name, FAILURE_MARKER), markerText())
    return name
  }
  throw new Error(
    `${word} and the ${FOLDER_TRIES - 1} names after it (${word}-2, …) are all taken${last ? '' : ' by this run'}`
  )
}
