/**
 * `npm run bench -- placement`: label placement (plugins/annotate/src/render/place-labels.ts) alone, CPU time per
 * mark at 250, 500 and 1,000 marks on a 1080x2400 screen annotated at the default --max-size 700 (315x700 image)
 * and at 2400. The boxes are a deterministic grid of list rows and icons, crowded as a long feed is, so many labels
 * fall through to the search steps. Goal: time per mark at 1,000 within 2x of that at 250 (linear or n log n).
 * Then 1,000, 2,000 and 4,000 marks on the 315x700 image, full at each count: growth per mark past the point
 * where the image fills.
 */
import {placeLabels, type LabelPlacement} from '../plugins/annotate/src/render/place-labels.js'
import {overlapArea, type Rect} from '../plugins/annotate/src/render/geometry.js'
import {fmt, median} from './stats.js'

/** `n` boxes in image pixels: rows of a list, each with a few icons, at a pseudo-random jitter (seeded). */
export function crowdedBoxes(n: number, width: number, height: number): Array<{box: Rect; text: string}> {
  let seed = 7
  const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) / 16777216
  const out: Array<{box: Rect; text: string}> = []
  const rows = Math.ceil(n / 4)
  const rowH = height / rows
  for (let i = 0; i < n; i++) {
    const row = Math.floor(i / 4)
    const col = i % 4
    const top = Math.floor(row * rowH)
    const bottom = Math.max(top + 2, Math.floor((row + 1) * rowH))
    const l = col === 0 ? 0 : Math.floor((col / 4) * width + rand() * 10)
    const r = col === 0 ? width : Math.min(width, l + Math.floor(width / 6 + rand() * 20))
    out.push({box: [l, top, r, bottom], text: String(i + 1)})
  }
  return out
}

function placementOptions(width: number, height: number) {
  const unit = Math.min(width, height) / 360
  return {
    imageWidth: width,
    imageHeight: height,
    fontPx: Math.max(9, Math.round(11 * unit)),
    minFontPx: 9,
    lineWidth: Math.max(1, Math.round(2 * unit)),
    measure: (text: string, px: number) => text.length * px * 0.6,
  }
}

const ROUNDS = 7

/**
 * CPU time of placing each count of marks, median of ROUNDS. Every count is placed WARMUP times before any is
 * timed, so each is measured with the placement code compiled: the crowded counts run the search steps (rings, the
 * free-spot search, least overlap) that 250 marks never reach, and timed cold, whichever count ran them first
 * looked slowest per mark. The counts then take turns, round by round, so a burst of load falls on all of them.
 */
function timePlacements(counts: number[], width: number, height: number): Array<{perMark: number; total: number}> {
  const options = placementOptions(width, height)
  const requests = counts.map((n) => crowdedBoxes(n, width, height))
  for (let i = 0; i < WARMUP; i++) for (const r of requests) placeLabels(r, options)
  const times = counts.map((): number[] => [])
  for (let round = 0; round < ROUNDS; round++) {
    requests.forEach((r, k) => {
      const start = process.cpuUsage()
      placeLabels(r, options)
      const used = process.cpuUsage(start)
      ;(times[k] as number[]).push((used.user + used.system) / 1000)
    })
  }
  return counts.map((n, k) => {
    const total = median(times[k] as number[])
    return {total, perMark: total / n}
  })
}

const WARMUP = 3

/**
 * How good a layout is, so a faster placement can be shown not to be a worse one: labels that overlap no other label,
 * the total area of the overlaps (each pair once), the mean font size, and the mean gap between a label and its box
 * (0 where they touch). A pairwise pass: the bench's counts are small enough.
 */
export function quality(
  requests: Array<{box: Rect}>,
  placements: LabelPlacement[]
): {clear: number; overlapArea: number; meanFontPx: number; meanGap: number} {
  const rects = placements.map((p) => p.rect)
  const overlapping = new Uint8Array(rects.length)
  let area = 0
  for (let i = 0; i < rects.length; i++) {
    for (let j = i + 1; j < rects.length; j++) {
      const a = overlapArea(rects[i] as Rect, rects[j] as Rect)
      if (a > 0) {
        area += a
        overlapping[i] = 1
        overlapping[j] = 1
      }
    }
  }
  let font = 0
  let gap = 0
  placements.forEach((p, i) => {
    const box = (requests[i] as {box: Rect}).box
    font += p.fontPx
    const dx = Math.max(0, box[0] - p.rect[2], p.rect[0] - box[2])
    const dy = Math.max(0, box[1] - p.rect[3], p.rect[1] - box[3])
    gap += Math.hypot(dx, dy)
  })
  return {
    clear: rects.length - overlapping.reduce((sum, o) => sum + o, 0),
    overlapArea: area,
    meanFontPx: font / rects.length,
    meanGap: gap / rects.length,
  }
}

export default async function bench(): Promise<void> {
  for (const [width, height] of [
    [315, 700],
    [1080, 2400],
  ] as const) {
    const counts = [250, 500, 1000]
    const results = timePlacements(counts, width, height).map((r, k) => ({n: counts[k] as number, ...r}))
    for (const {n, total, perMark} of results) {
      console.log(
        `placement ${width}x${height}, ${n} marks: ${fmt(total)} CPU, ${(perMark * 1000).toFixed(1)} us per mark (median of ${ROUNDS}, warm)`
      )
    }
    const checks = counts.map((n) => {
      const stats = {spotChecks: 0}
      placeLabels(crowdedBoxes(n, width, height), {...placementOptions(width, height), stats})
      return `${n}: ${(stats.spotChecks / n).toFixed(1)}`
    })
    console.log(`placement ${width}x${height}: spots checked per mark (steps 1-4) at ${checks.join(', ')}`)
    for (const n of counts) {
      const requests = crowdedBoxes(n, width, height)
      const q = quality(requests, placeLabels(requests, placementOptions(width, height)))
      console.log(
        `placement ${width}x${height}, ${n} marks, quality: ${q.clear} labels overlap none, overlap area ${q.overlapArea} px², mean font ${q.meanFontPx.toFixed(2)} px, mean gap to box ${q.meanGap.toFixed(2)} px`
      )
    }
    const ratio = (results[2] as {perMark: number}).perMark / (results[0] as {perMark: number}).perMark
    console.log(`placement ${width}x${height}: time per mark at 1000 / at 250 = ${ratio.toFixed(2)} (goal <= 2)`)
  }
  // On the 315x700 image, 250 marks all fit at their boxes and 1,000 fill it (40 labels overlap none): the ratio
  // above spans two regimes. Past 1,000 every count is a full image, so its growth per mark is the marks' alone.
  const full = [1000, 2000, 4000]
  const fullResults = timePlacements(full, 315, 700)
  fullResults.forEach(({total, perMark}, k) =>
    console.log(
      `placement 315x700, ${full[k]} marks (image full): ${fmt(total)} CPU, ${(perMark * 1000).toFixed(1)} us per mark (median of ${ROUNDS}, warm)`
    )
  )
  const growth = (fullResults[2] as {perMark: number}).perMark / (fullResults[0] as {perMark: number}).perMark
  console.log(`placement 315x700, image full: time per mark at 4000 / at 1000 = ${growth.toFixed(2)}`)
}
