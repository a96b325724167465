/**
 * The order `String.prototype.localeCompare` gives command ids, without ICU. oclif sorts every plugin's commands
 * with `a.id.localeCompare(b.id)` when it loads them, at every start-up, and the first localeCompare in a process
 * builds ICU's collator: 7-10 ms of CPU on this machine, more than the sort's other work, paid by every `arc`
 * command for nothing else. The core's bundle sorts with this instead (scripts/bundle-core.js puts it in oclif's
 * place).
 *
 * For ids made only of `a-z`, `0-9`, `_`, `-` and `:` (every arc command, and oclif's own), ICU's root collation
 * gives each character a primary weight of its own, in this order: `_ - :` (punctuation) before digits before
 * letters; with nothing to tell apart at the secondary or tertiary levels, comparing is comparing those weights
 * character by character, a shorter id before a longer one it begins. Any other character (an upper-case letter, a
 * plugin of someone else's) is compared by localeCompare itself. packages/core/test/cli/command-id-order.test.ts
 * checks the two agree.
 */
const ORDER = '_-:0123456789abcdefghijklmnopqrstuvwxyz'

/** Weight of each character code below 128; -1 for those compared by localeCompare. */
const WEIGHT = new Int8Array(128).fill(-1)
for (let i = 0; i < ORDER.length; i++) WEIGHT[ORDER.charCodeAt(i)] = i

const weight = (code: number): number => (code < 128 ? (WEIGHT[code] as number) : -1)

/** -1, 0 or 1, as `a.localeCompare(b)` would answer. */
export function compareCommandIds(a: string, b: string): number {
  const length = Math.min(a.length, b.length)
  for (let i = 0; i < length; i++) {
    const x = weight(a.charCodeAt(i))
    const y = weight(b.charCodeAt(i))
    if (x < 0 || y < 0) return a.localeCompare(b)
    if (x !== y) return x < y ? -1 : 1
  }
  for (let i = length; i < a.length; i++) if (weight(a.charCodeAt(i)) < 0) return a.localeCompare(b)
  for (let i = length; i < b.length; i++) if (weight(b.charCodeAt(i)) < 0) return a.localeCompare(b)
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1
}
