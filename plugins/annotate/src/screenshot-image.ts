/**
 * A device screenshot as pixels the canvas can draw, checked against the dump it goes with: shared by annotate
 * (marks drawn on it) and `arc screenshot --element` (cut to one element).
 */
import {loadImage, type Image} from '@napi-rs/canvas'

import {checkPngPixels, InvalidInputError, isPng} from '@arc-cli/core'

export async function decodeScreenshot(screenshot: Buffer, source: string): Promise<Image> {
  // Other formats (a JPEG screenshot) are left to the decoder; a PNG's structure is checked first.
  // Structure, declared size and pixel data, before the decoder allocates anything.
  const problem = isPng(screenshot) ? checkPngPixels(screenshot)?.problem : undefined
  let detail: string
  if (problem) {
    detail = `: ${problem}`
  } else {
    try {
      const image = await loadImage(screenshot)
      if (image.width > 0 && image.height > 0) return image
    } catch {
      // reported below with a message that names the source
    }
    detail = ' (corrupt or truncated)'
  }
  throw new InvalidInputError(`the screenshot from ${source} is not a readable PNG${detail}`, {
    details: {input: 'screenshot', source},
    actions: ['Take the screenshot again, or replace screen.png in the snapshot folder.'],
  })
}

/** Largest difference between the screenshot's and the screen's aspect ratios (scaling is fine, distortion is not). */
const MAX_ASPECT_DIFFERENCE = 0.05

/**
 * The screenshot must show the dump's screen: the same shape (either orientation, any scale). Otherwise every
 * mark would land in the wrong place, so it is refused with both sizes named.
 */
export function checkAgainstScreen(image: {width: number; height: number}, screen: {width: number; height: number}, source: string): void {
  if (screen.width <= 0 || screen.height <= 0) return
  const ratio = (w: number, h: number) => Math.max(w, h) / Math.min(w, h)
  const difference = Math.abs(ratio(image.width, image.height) / ratio(screen.width, screen.height) - 1)
  if (difference <= MAX_ASPECT_DIFFERENCE) return
  throw new InvalidInputError(
    `the screenshot from ${source} is ${image.width}x${image.height}, which is not the shape of the ${screen.width}x${screen.height} screen in the dump: the two are not of the same screen`,
    {
      details: {input: 'screenshot', source, image: [image.width, image.height], screen: [screen.width, screen.height]},
      actions: ['Take the screenshot and the dump again together (`arc snapshot save`), or fix meta.json width and height.'],
    },
  )
}
