/**
 * Prints the WIDE table of packages/core/src/tools/display-width.ts from Unicode's EastAsianWidth.txt
 * (apt-get install unicode-data, or ARC_EAW_FILE=path): `node --import tsx scripts/east-asian-wide.ts`.
 */
import {eawAvailable, EAW_FILE, readEastAsianWidth, wideRanges} from '@arc-cli/test-support/east-asian-width'

if (!eawAvailable) {
  console.error(`${EAW_FILE} is absent: apt-get install unicode-data, or set ARC_EAW_FILE`)
  process.exit(1)
}
const data = readEastAsianWidth()
const hex = (n: number) => `0x${n.toString(16)}`
const pairs = wideRanges(data).map(([a, b]) => `${hex(a)}, ${hex(b)},`)
const lines: string[] = []
for (let i = 0; i < pairs.length; i += 6) lines.push(`  ${pairs.slice(i, i + 6).join(' ')}`)
console.log(`// Unicode ${data.version}, EastAsianWidth.txt: W and F (scripts/east-asian-wide.ts)`)
console.log(`export const EAW_VERSION = '${data.version}'\nconst WIDE: readonly number[] = [\n${lines.join('\n')}\n]`)
