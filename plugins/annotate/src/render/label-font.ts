import {GlobalFonts} from '@napi-rs/canvas'
import {fileURLToPath} from 'node:url'

import {InternalError} from '@arc-cli/core'

/**
 * The one font labels use: Roboto Bold, bundled in `fonts/` (OFL 1.1). It is registered under a family name no
 * system has, so Skia never substitutes a system font and labels render the same everywhere. The path is the
 * same from `src/` (dev) and `dist/` (built): both sit one level below the package folder.
 */
const LABEL_FONT_FILE = fileURLToPath(new URL('../../fonts/Roboto-Bold.ttf', import.meta.url))
const LABEL_FONT_FAMILY = 'ArcLabelRobotoBold'

let registered = false

export function ensureLabelFont(): void {
  if (registered) return
  const key = GlobalFonts.registerFromPath(LABEL_FONT_FILE, LABEL_FONT_FAMILY)
  if (!key) {
    throw new InternalError(`cannot load the label font ${LABEL_FONT_FILE}`, {
      actions: ['Reinstall arc: the file ships in @arc-cli/plugin-annotate/fonts.'],
    })
  }
  registered = true
}

export function labelFont(px: number): string {
  return `bold ${px}px ${LABEL_FONT_FAMILY}`
}
