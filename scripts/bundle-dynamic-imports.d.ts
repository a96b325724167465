/** Types of bundle-dynamic-imports.js (plain JavaScript, run by `npm run build`), for the tests that import it. */
import type {Plugin} from 'esbuild'

export declare function dynamicImportsViaLoader(external: string[]): Plugin
export declare function checkNoDynamicImport(code: string, file: string, allowedBefore: number): void
