import {readFile, stat} from 'node:fs/promises'
import path from 'node:path'

import {
  AssertionFailedError,
  checkHostPath,
  defineTool,
  foundBy,
  InvalidInputError,
  makeOutputFolders,
  onCi,
  selectorData,
  z,
  type ToolContext,
} from '@arc-cli/core'

import {writeFilesAtomically, type OutputFile} from '../write-files.js'
import {checkWaitNamesElement, elementInput, elementToCrop, namesElement} from './screenshot.js'

/**
 * Writes files whose folders may not exist yet (a first baseline in a new `baselines/` folder). The handler made
 * them before taking the device; made again here (one level at a time, never a recursive mkdir, which never
 * settles under /proc) in case one went away since. A folder that cannot be made is OUTPUT_FAILED naming it.
 */
async function writeWithFolders(files: OutputFile[]): Promise<void> {
  await makeOutputFolders(files)
  await writeFilesAtomically(files)
}

/** A mask that covers no pixel of a width x height image: refused, naming --mask (it masks nothing it was meant to). */
export function checkMasks(masks: Array<[number, number, number, number]>, width: number, height: number): void {
  for (const [left, top, right, bottom] of masks) {
    if (left >= width || top >= height) {
      throw new InvalidInputError(
        `--mask ${left},${top},${right},${bottom} lies wholly outside the ${width}x${height} image: a mask must cover some of it (LEFT below ${width}, TOP below ${height})`,
        {details: {input: 'mask', value: `${left},${top},${right},${bottom}`, width, height}}
      )
    }
  }
}

const BOX = /^(\d+),(\d+),(\d+),(\d+)$/

/** `L,T,R,B` → a box, refused when empty or malformed (naming --mask). */
export function parseMask(value: string): [number, number, number, number] {
  const m = BOX.exec(value.trim())
  const box = m ? ([Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])] as [number, number, number, number]) : []
  if (!m || box[2]! <= box[0]! || box[3]! <= box[1]!) {
    throw new InvalidInputError(
      `--mask ${JSON.stringify(value)} is not a box: give LEFT,TOP,RIGHT,BOTTOM in the image's pixels, right > left and bottom > top (e.g. 0,0,1080,63 for a status bar)`,
      {details: {input: 'mask', value}}
    )
  }
  return box as [number, number, number, number]
}

/** Where the diff and the screenshot go beside a baseline: `list.png` → `list.diff.png`, `list.actual.png`. */
export function besideBaseline(baseline: string, kind: 'diff' | 'actual'): string {
  const ext = path.extname(baseline)
  return `${baseline.slice(0, baseline.length - ext.length)}.${kind}${ext || '.png'}`
}

/**
 * The screenshot to compare, PNG: the whole screen, or cut to one element's visible part (as screenshot --element:
 * an id or a selector, resolved on a fresh read, and cut where that read places it).
 */
async function takeShot(
  ctx: ToolContext,
  input: Parameters<typeof elementToCrop>[1]
): Promise<{png: Buffer; what: string; element?: Record<string, unknown>}> {
  if (!namesElement(input)) return {png: await ctx.driver.screenshot(), what: 'the screen'}
  const {target, rect} = await elementToCrop(ctx, input, 'compare')
  const png = await ctx.driver.screenshot()
  const {cropScreenshot} = await import('../crop-element.js')
  const crop = await cropScreenshot(png, target.model, rect, {
    format: 'png',
    quality: 100,
    source: ctx.driver.serial,
    elementId: target.id,
  })
  return {
    png: crop.data,
    what: `element ${target.id}${foundBy(target)}`,
    element: {element_id: target.id, ...selectorData(target)},
  }
}

/** Both paths name one existing file (a link, `..`, another spelling). */
async function sameFile(a: string, b: string): Promise<boolean> {
  const [x, y] = await Promise.all([stat(a).catch(() => undefined), stat(b).catch(() => undefined)])
  return x !== undefined && y !== undefined && x.dev === y.dev && x.ino === y.ino
}

const percent = (ratio: number) => `${(ratio * 100).toFixed(ratio < 0.001 && ratio > 0 ? 4 : 2)}%`

export const assertScreenshot = defineTool({
  name: 'assert_screenshot',
  title: 'Compare a screenshot with a baseline',
  description:
    "Compares a screenshot (the whole screen, or --element's visible part) with a baseline PNG, pixel by pixel: it passes when at most --threshold of the compared pixels differ (a pixel differs where a channel differs by more than --tolerance; --mask boxes are not compared), else fails with ASSERTION_FAILED (exit 23) and writes a diff picture (differing pixels red) and the screenshot beside the baseline. A missing baseline is written from this screenshot, with a note, except on CI (the CI variable set) or with --require-baseline, where it fails instead; --update rewrites it.",
  kind: 'read',
  needs: {screen: 'read', info: 'read'},
  // --element or a selector waits for its element (--wait, config elements.wait) as click does: the handler runs
  // again while the element is not there, each read in the device's section (below), before anything is written.
  waitsForElement: true,
  group: 'screen',
  input: z.object({}),
  cli: {
    id: 'assert screenshot',
    only: 'it reads and writes image files on the machine arc runs on, at paths the caller picks',
    positional: ['baseline'],
    input: z.object({
      baseline: z
        .string()
        .min(1)
        .describe('The baseline PNG to compare with (written from this screenshot when missing)'),
      ...elementInput.shape,
      threshold: z
        .number()
        .min(0, 'must be 0 to 1')
        .max(1, 'must be 0 to 1')
        .default(0)
        .describe('Largest share of the compared pixels that may differ, 0 to 1 (0.01 = 1%)'),
      tolerance: z
        .number()
        .int()
        .min(0, 'must be 0 to 255')
        .max(255, 'must be 0 to 255')
        .default(0)
        .describe('How far a channel (0-255) may move before its pixel counts as differing'),
      mask: z
        .array(z.string())
        .default([])
        .describe("A box not compared, LEFT,TOP,RIGHT,BOTTOM in the image's pixels (repeatable): a clock, an ad"),
      diff: z
        .string()
        .min(1)
        .optional()
        .describe('Where the diff picture goes on failure (default: BASELINE.diff.png beside it)'),
      require_baseline: z
        .boolean()
        .default(false)
        .describe(
          'Fail (exit 23) when the baseline is missing, instead of writing it (not with --update; the default on CI)'
        ),
      update: z.boolean().default(false).describe('Write this screenshot as the baseline, whatever it held'),
    }),
    examples: [
      '<%= config.bin %> <%= command.id %> baselines/list.png --mask 0,0,1080,63',
      '<%= config.bin %> <%= command.id %> baselines/add.png --element node_s7ddgy --threshold 0.01 --tolerance 8',
      '<%= config.bin %> <%= command.id %> baselines/add.png --text ADD --exact-match --wait 30s',
      '<%= config.bin %> <%= command.id %> baselines/list.png --update',
    ],
    namesElement,
  },
  async handler(ctx, input) {
    checkWaitNamesElement(input)
    // The command line fills every default; the baseline is its required argument.
    const masks = (input.mask ?? []).map(parseMask)
    const threshold = input.threshold ?? 0
    if (input.baseline === undefined) throw new InvalidInputError('argument <baseline> is required: the baseline PNG')
    const baseline = path.resolve(ctx.cwd, input.baseline)
    if (path.extname(baseline).toLowerCase() !== '.png') {
      throw new InvalidInputError(`the baseline ${input.baseline} must be a .png file`, {
        details: {input: 'baseline', path: baseline},
      })
    }
    if (input.update && input.require_baseline) {
      throw new InvalidInputError(
        '--update and --require-baseline cannot be used together: --update writes the baseline from this screenshot, --require-baseline fails when there is none to compare with',
        {details: {inputs: ['update', 'require_baseline']}}
      )
    }
    const diffPath = input.diff === undefined ? besideBaseline(baseline, 'diff') : path.resolve(ctx.cwd, input.diff)
    const actualPath = besideBaseline(baseline, 'actual')
    // The diff must never land on what this run reads or writes besides it: the baseline would be lost.
    for (const [other, what] of [
      [baseline, 'the baseline'],
      [actualPath, 'the screenshot written beside the baseline'],
    ] as const) {
      if (diffPath === other || (await sameFile(diffPath, other))) {
        throw new InvalidInputError(
          `--diff ${input.diff} is ${what} (${other}): writing the diff there would overwrite it; give another path`,
          {details: {input: 'diff', path: diffPath}}
        )
      }
    }
    // Under arc test, the baseline (read, or written when missing) and the diff stay within the flow's folders.
    await checkHostPath(baseline, 'baseline')
    await checkHostPath(diffPath, '--diff')
    const stored = input.update
      ? undefined
      : await readFile(baseline).catch((error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return undefined
          throw new InvalidInputError(`cannot read the baseline ${baseline}: ${error.message}`, {
            details: {input: 'baseline', path: baseline},
          })
        })
    // On CI a missing baseline fails as with --require-baseline (Jest's --ci, on by default where CI is set, and
    // testthat's snapshots do the same): written in the job, from whatever the screen showed, it would be compared
    // with nothing there and lost with the job's workspace, so the step passes every run having checked nothing.
    if (stored === undefined && (input.require_baseline || (!input.update && onCi()))) {
      const why = input.require_baseline
        ? '--require-baseline'
        : `CI is set (CI=${process.env.CI ?? ''}): on CI a missing baseline fails`
      throw new AssertionFailedError(`no baseline at ${baseline} (${why}): nothing to compare with`, {
        details: {baseline, ...(input.require_baseline ? {} : {ci: true})},
        actions: [
          `Write it once from a good screen, then commit it: arc assert screenshot ${input.baseline} --update`,
          ...(input.require_baseline
            ? []
            : ['To write missing baselines in this job instead, run the step with CI=false (or --update).']),
        ],
      })
    }
    // Folders first, outside the device's section: one that cannot be made fails here, the device untouched.
    await makeOutputFolders([
      ...(stored === undefined ? [{path: baseline, input: 'baseline'}] : []),
      {path: diffPath, input: '--diff'},
    ])
    // Only the read holds the device (an --element is resolved and cut from one screen, no other caller between).
    const shot = await ctx.driver.exclusive(() => takeShot(ctx, input))
    const {compareImages, decodeImage} = await import('../compare-images.js')
    const actual = await decodeImage(shot.png, ctx.driver.serial)
    const size = {width: actual.width, height: actual.height}
    checkMasks(masks, size.width, size.height)
    if (stored === undefined) {
      await writeWithFolders([{path: baseline, data: shot.png, input: 'baseline'}])
      const why = input.update ? 'updated' : 'was missing: written'
      if (!input.update)
        ctx.warn(`baseline ${baseline} was missing: wrote it from this screenshot; nothing was compared`)
      return {
        text: `Baseline ${why} from ${shot.what}: ${baseline} (${size.width}x${size.height})`,
        data: {matched: true, baseline, written: true, compared: 0, differing: 0, ...size, ...shot.element},
      }
    }
    const expected = await decodeImage(stored, baseline)
    if (expected.width !== actual.width || expected.height !== actual.height) {
      await writeWithFolders([{path: actualPath, data: shot.png, input: 'baseline'}])
      throw new AssertionFailedError(
        `${shot.what} is ${actual.width}x${actual.height}, the baseline ${baseline} is ${expected.width}x${expected.height}: nothing compared; the screenshot: ${actualPath}`,
        {
          details: {
            baseline,
            actual: actualPath,
            size,
            baseline_size: {width: expected.width, height: expected.height},
          },
          actions: ['Compare on a device of the same screen size and rotation, or --update the baseline.'],
        }
      )
    }
    const result = compareImages(actual, expected, masks, input.tolerance ?? 0)
    if (result.compared === 0) {
      throw new InvalidInputError(
        `--mask: the masks cover the whole ${size.width}x${size.height} image: no pixel was compared, so nothing was checked`,
        {details: {input: 'mask', mask: input.mask, ...size}}
      )
    }
    const ratio = result.differing / result.compared
    const facts = {
      baseline,
      ...shot.element,
      ...size,
      compared: result.compared,
      differing: result.differing,
      ratio,
      threshold: threshold,
    }
    const counted = `${result.differing} of ${result.compared} compared pixels differ (${percent(ratio)})`
    if (ratio <= threshold) {
      return {
        text: `${shot.what} matches ${baseline}: ${counted}, within --threshold ${threshold}`,
        data: {matched: true, ...facts},
      }
    }
    await writeWithFolders([
      {path: diffPath, data: result.diff!, input: '--diff'},
      {path: actualPath, data: shot.png, input: 'baseline'},
    ])
    throw new AssertionFailedError(
      `${shot.what} differs from ${baseline}: ${counted}, more than --threshold ${threshold}; wrote the diff (red: differing) to ${diffPath} and the screenshot to ${actualPath}`,
      {
        details: {...facts, diff: diffPath, actual: actualPath},
        actions: [
          'Look at the diff; mask what changes on its own (--mask L,T,R,B), or --update the baseline if the new screen is right.',
        ],
      }
    )
  },
})
