import {mkdtempSync, rmSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/** A temp folder removed by the returned cleanup. */
export function tempDir(): {dir: string; cleanup: () => void} {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'arc-emu-test-'))
  return {dir, cleanup: () => rmSync(dir, {recursive: true, force: true})}
}
