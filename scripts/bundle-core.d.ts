/** Types of bundle-core.js (plain JavaScript, run by `npm run build`), for the tests that import it. */
import type {Plugin} from 'esbuild'

export const CORE: string
export const BUNDLE: string
export const BUNDLE_FILE: string
export const INPUTS_FILE: string
export declare function bundleCore(): Promise<void>
export declare function bundleStaleness(): string | undefined
/** The esbuild plugin that patches oclif's command sort; the build fails where it was not applied. */
export declare const commandOrderWithoutIcu: Plugin
/** The esbuild plugin that defers what the start-up requires for rare paths; the build fails where one missed. */
export declare const lazyStartupRequires: Plugin
