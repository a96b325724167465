import {pathToFileURL} from 'node:url'

import {ConfigError} from '../errors/arc-error.js'

/** How long a code config (arc.config.js, .arcrc.mjs, ...) may take to load before arc gives up on it. */
export const CODE_CONFIG_TIMEOUT_MS = 5000

// Runs in the child: imports the file and prints its export as JSON. Config is data: functions are dropped.
const LOADER = `
const url = process.argv[1]
const m = await import(url)
const value = m.default ?? m
process.stdout.write(JSON.stringify(value === undefined ? null : value))
`

/**
 * Loads a JavaScript config in a child process with a time limit, so neither an endless loop nor a crash can
 * hang or break arc: a syntax error, a throw, or no answer within CODE_CONFIG_TIMEOUT_MS is an INVALID_CONFIG
 * naming the file and Node's first line about it. A cosmiconfig loader (filepath, content).
 */
export function loadCodeConfig(filepath: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    // Loaded here, not at the top: the core's bundle runs this module at every start-up, and child_process (with
    // dgram) costs some 2 ms of CPU to load, for the rare config written as code.
    process.getBuiltinModule('node:child_process').execFile(
      process.execPath,
      ['--input-type=module', '--eval', LOADER, pathToFileURL(filepath).href],
      {
        timeout: CODE_CONFIG_TIMEOUT_MS,
        killSignal: 'SIGKILL',
        maxBuffer: 16 * 1024 * 1024,
        env: {...process.env, NODE_OPTIONS: ''},
      },
      (error, stdout, stderr) => {
        if (error) {
          const timedOut = error.killed || error.signal === 'SIGKILL'
          const line = stderr
            .split('\n')
            .map((l) => l.trim())
            .find((l) => /^[A-Za-z]*Error\b|^Error:/.test(l))
          const why = timedOut
            ? `it did not finish loading within ${CODE_CONFIG_TIMEOUT_MS / 1000} s (an endless loop?)`
            : (line ?? `it failed to load (exit ${error.code})`)
          reject(
            new ConfigError(`cannot load config ${filepath}: ${why}`, {
              cause: error,
              details: {file: filepath},
              actions: [
                'Fix the file, or use a JSON or YAML config (.arcrc.json, .arcrc.yaml), which cannot run code.',
              ],
            })
          )
          return
        }
        try {
          resolve(JSON.parse(stdout))
        } catch {
          reject(
            new ConfigError(`cannot load config ${filepath}: its export is not plain data`, {details: {file: filepath}})
          )
        }
      }
    )
  })
}
