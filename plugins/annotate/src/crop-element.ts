/**
 * `arc screenshot --element`: the screenshot cut to the visible part of one element, its bounds mapped onto the
 * image the way annotate maps its marks (screen-mapping.ts), so a screenshot of another scale or a swapped
 * orientation crops the same place. Loaded only with --element: it brings the canvas library.
 */
import {createCanvas} from '@napi-rs/canvas'

import {InvalidInputError, type Rect, type ScreenModel} from '@arc-cli/core'

import {screenMapping, toImageRect} from './render/screen-mapping.js'
import {checkAgainstScreen, decodeScreenshot, releasePixels} from './screenshot-image.js'

export interface Crop {
  data: Buffer
  width: number
  height: number
}

/** `rect` (screen pixels) cut out of `screenshot` as PNG, or JPEG at `quality`. */
export async function cropScreenshot(
  screenshot: Buffer,
  model: ScreenModel,
  rect: Rect,
  options: {format: 'png' | 'jpeg'; quality: number; source: string; elementId: string}
): Promise<Crop> {
  // A crop sees only part of the frame, so the pixel data is checked whole first.
  const image = await decodeScreenshot(screenshot, options.source, {verify: true})
  checkAgainstScreen(image, model.screen, options.source)
  const size = {width: image.width, height: image.height}
  const box = toImageRect(rect, screenMapping(model.screen, size, size))
  if (!box) {
    throw new InvalidInputError(
      `element ${options.elementId} covers no whole pixel of the ${image.width}x${image.height} screenshot`,
      {
        details: {input: '--element', element_id: options.elementId},
      }
    )
  }
  const [left, top, right, bottom] = box
  const width = right - left
  const height = bottom - top
  const canvas = createCanvas(width, height)
  canvas.getContext('2d').drawImage(image, left, top, width, height, 0, 0, width, height)
  releasePixels(image)
  const data = options.format === 'png' ? await canvas.encode('png') : await canvas.encode('jpeg', options.quality)
  return {data, width, height}
}
