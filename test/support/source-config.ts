import type {Interfaces} from '@oclif/core'

import {sourceLoadOptions} from '../../bin/source-load-options.js'
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
 * them to `Config.load` or `@oclif/test`'s `runCommand` instead of `{root: ROOT}`. Loaded once per process.
 */
export function sourceOptions(): Promise<Interfaces.Options> {
  loaded ??= inDevelopment(() => sourceLoadOptions(ROOT))
  return loaded
}
