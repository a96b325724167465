/**
 * A project folder whose config counts its reads: `.arcrc.mjs` (beside a package.json, so the search stops there)
 * runs in a Node.js of its own each time arc reads it, and appends a line to a log; `reads()` counts the lines.
 */
import {mkdtemp, readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'

export async function countedConfig(
  parent: string,
  config: object = {adb: {timeoutMs: 19000}}
): Promise<{dir: string; reads: () => Promise<number>}> {
  const dir = await mkdtemp(path.join(parent, 'arc-counted-config-'))
  const log = path.join(dir, 'reads.log')
  await writeFile(path.join(dir, 'package.json'), '{}\n')
  await writeFile(
    path.join(dir, '.arcrc.mjs'),
    `import {appendFileSync} from 'node:fs'\nappendFileSync(${JSON.stringify(log)}, 'read\\n')\n` +
      `export default ${JSON.stringify(config)}\n`
  )
  const reads = async () => (await readFile(log, 'utf8').catch(() => '')).split('\n').filter(Boolean).length
  return {dir, reads}
}
