import type {Interfaces} from '@oclif/core'

import {sourceLoadOptions} from '../../../bin/source-load-options.js'
import {ROOT} from './paths.js'

let loaded: Promise<Interfaces.Options> | undefined

/**
 * Runs `work` with NODE_ENV=development (oclif then loads commands and hooks from src/ through tsx, as bin/dev.js
 * does), and puts NODE_ENV back as it was, unset included.
 */
export async function inDevelopment<T>(work: () => Promise<T> | T): Promise<T> {
  const previous = process.env.NODE_ENV
  process.env.NODE_ENV = 'development'
  try {
    return await work()
  } finally {
    if (previous === undefined) delete process.env.NODE_ENV
    else process.env.NODE_ENV = previous
  }
}

/**
 * oclif load options for arc as its sources define it (what bin/dev.js runs), never a manifest a build left: pass
 * them to `Config.load` or `@oclif/test`'s `runCommand` instead of `{root: ROOT}`. Loaded once per process; each
 * call gets its own command entries.
 */
export async function sourceOptions(): Promise<Interfaces.Options> {
  loaded ??= inDevelopment(() => sourceLoadOptions(ROOT))
  const options = await loaded
  // Each caller gets its own copies of the plugins' command entries: oclif's help rewrites the id of the command it
  // shows in place (`files:write` becomes `files write`), and a later Config.load over the same entries then found
  // no `files:write` (a test that ran `--help` broke the next one in the same process).
  const plugins = new Map([...(options.plugins ?? new Map())].map(([name, plugin]) => [name, ownCommands(plugin)]))
  return {...options, plugins}
}

function ownCommands<P extends {commands: object[]}>(plugin: P): P {
  const copy = Object.assign(Object.create(Object.getPrototypeOf(plugin) as object) as P, plugin)
  copy.commands = plugin.commands.map((command) => ({...command}))
  return copy
}
