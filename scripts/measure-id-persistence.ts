/**
 * How element ids survive small changes of real screens: every fixture in ../shared/fixtures/real, under each
 * perturbation of packages/test-support/src/perturb.ts. Prints ids kept, look-alikes' ordinal ids kept and refused
 * (their group changed: STALE_ELEMENT), and wrong targets (an id an action would take that names a different
 * element afterwards). `npm run measure:ids`; the figures go in docs/screen-state.md.
 */
import {buildScreenModel, SnapshotDriver} from '@arc-cli/core'

import {fixtureNames, fixturePath, fixturesAvailable} from '@arc-cli/test-support/paths'
import {emptyTally, measure, PERTURBATIONS, TALLY_KEYS} from '@arc-cli/test-support/perturb'

if (!fixturesAvailable) {
  console.error('../shared/fixtures/real is absent: nothing to measure')
  process.exit(1)
}

const models = []
for (const name of fixtureNames()) {
  const base = await (await SnapshotDriver.open(fixturePath(name))).captureScreen().catch(() => undefined)
  if (base) models.push({name, base, model: buildScreenModel(base)})
}

const elements = models.reduce((n, m) => n + m.model.elements.length, 0)
const ambiguous = models.reduce((n, m) => n + m.model.elements.filter((e) => /-\d+$/.test(e.id)).length, 0)
console.log(
  `${models.length} screens, ${elements} elements, ${ambiguous} marked ambiguous (${((ambiguous / elements) * 100).toFixed(1)}%)`
)
console.log('perturbation\tscreens\tkept\ttotal\tkept%\tlook-alikes kept\tlook-alikes\trefused\twrong targets')
const all = emptyTally()
for (const [label, perturb] of Object.entries(PERTURBATIONS)) {
  const sum = emptyTally()
  let screens = 0
  const worst: string[] = []
  for (const {name, base, model} of models) {
    const tally = measure(base, model, perturb)
    if (!tally) continue
    screens++
    for (const k of TALLY_KEYS) sum[k] += tally[k]
    if (tally.wrong > 0 || tally.kept < tally.total * 0.9)
      worst.push(`${name} ${tally.kept}/${tally.total} wrong ${tally.wrong}`)
  }
  for (const k of TALLY_KEYS) all[k] += sum[k]
  console.log(
    `${label}\t${screens}\t${sum.kept}\t${sum.total}\t${((sum.kept / sum.total) * 100).toFixed(2)}\t${sum.ordinalKept}\t${sum.ambiguous}\t${sum.refused}\t${sum.wrong}`
  )
  if (process.argv.includes('--verbose')) for (const w of worst) console.log(`  ${w}`)
}
console.log(
  `all\t-\t${all.kept}\t${all.total}\t${((all.kept / all.total) * 100).toFixed(2)}\t${all.ordinalKept}\t${all.ambiguous}\t${all.refused}\t${all.wrong}`
)
