/** The words of `am start` that put extras into the intent: `--es KEY VALUE`, `--ei KEY N`, `--ez KEY true|false`. */
import type {IntentExtra} from '../device-driver.js'

const FLAG: Record<IntentExtra['type'], string> = {string: '--es', int: '--ei', bool: '--ez'}

/** Keys and values are words like any other: `shellCommand` quotes them (spaces, quotes, `$`, unicode arrive intact). */
export function extraWords(extras: readonly IntentExtra[]): Array<string | number> {
  return extras.flatMap((extra) => [
    FLAG[extra.type],
    extra.key,
    extra.type === 'bool' ? String(extra.value) : extra.value,
  ])
}
