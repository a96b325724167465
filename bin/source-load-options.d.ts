import type {Interfaces} from '@oclif/core'

/** oclif load options for arc's sources, ignoring any built oclif.manifest.json (see source-load-options.js). */
export function sourceLoadOptions(root: string): Promise<Interfaces.Options>
