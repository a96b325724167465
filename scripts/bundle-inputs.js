/**
 * What a bundle was made from: `inputs.json` beside it holds the sha256 of every file that went in (paths relative to
 * the repository), so a build or a test can tell a bundle made from other files (scripts/bundle-core.js for the core,
 * scripts/bundle-plugins.js for a plugin's).
 */
import {createHash} from 'node:crypto'
import {readFileSync, writeFileSync} from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

const sha256 = (name) =>
  createHash('sha256')
    .update(readFileSync(path.join(ROOT, name)))
    .digest('hex')

/** Writes the sha256 of each of `names` (relative to the repository) into `file`. */
export function writeInputs(file, names) {
  const inputs = {}
  for (const name of [...names].sort()) inputs[name] = sha256(name)
  writeFileSync(file, `${JSON.stringify({inputs}, null, 1)}\n`)
}

/** Why the files `file` records no longer are what went into `bundle` (a name for messages), or undefined. */
export function inputsStaleness(file, bundle) {
  let recorded
  try {
    recorded = JSON.parse(readFileSync(file, 'utf8')).inputs
  } catch (error) {
    return `no readable ${path.relative(ROOT, file)} (${error.message})`
  }
  for (const [name, hash] of Object.entries(recorded)) {
    let now
    try {
      now = sha256(name)
    } catch {
      return `${name}, bundled into ${bundle}, is gone`
    }
    if (now !== hash) return `${name} changed since ${bundle} was made`
  }
  return undefined
}
