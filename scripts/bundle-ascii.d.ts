/** Types of bundle-ascii.js (plain JavaScript, run by `npm run build`), for the tests that import it. */
export interface SourceMapJson {
  mappings: string
  [key: string]: unknown
}
export declare function escapeRegExpText(text: string): string
export declare function asciiRegExps(code: string, map: SourceMapJson, file: string): {code: string; map: SourceMapJson}
