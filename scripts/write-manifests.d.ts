import type {Interfaces} from '@oclif/core'

/** The root package and the arc plugins it lists (see write-manifests.js). */
export function packageRoots(): string[]

/** The manifest of the package at `root` as the build writes it (see write-manifests.js). */
export function buildManifest(root: string): Promise<Interfaces.Manifest>
