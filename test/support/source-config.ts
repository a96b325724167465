import type {Interfaces} from '@oclif/core'

import {sourceLoadOptions} from '../../bin/source-load-options.js'
import {ROOT} from './paths.js'

let loaded: Promise<Interfaces.Options> | undefined

/**
 * oclif load options for arc as its sources define it (what bin/dev.js runs), never a manifest a build left: pass
 * them to `Config.load` or `@oclif/test`'s `runCommand` instead of `{root: ROOT}`. Loaded once per process.
 */
export function sourceOptions(): Promise<Interfaces.Options> {
  loaded ??= (async () => {
    const previous = process.env.NODE_ENV
    process.env.NODE_ENV = 'development'
    try {
      return await sourceLoadOptions(ROOT)
    } finally {
      if (previous === undefined) delete process.env.NODE_ENV
      else process.env.NODE_ENV = previous
    }
  })()
  return loaded
}
