import type {ScreenInfo} from '@arc-cli/core'

import {clip, type Rect} from './geometry.js'

/**
 * How screen pixels (the dump's bounds) map onto the output image. The screen space is the capture's screen size
 * in the current orientation; the screenshot is normally that size too. When the two disagree only by a swap of
 * width and height (a driver that reported the natural orientation of a rotated device), the screenshot's
 * orientation wins, since the dump and the screenshot are both taken in the orientation on screen.
 */
export interface ScreenMapping {
  screen: {width: number; height: number}
  image: {width: number; height: number}
  scaleX: number
  scaleY: number
}

/** Output size for a source image: the long side at most `maxSize`, never upscaled. */
export function outputSize(source: {width: number; height: number}, maxSize: number): {width: number; height: number} {
  const factor = Math.min(1, maxSize / Math.max(source.width, source.height))
  return {
    width: Math.max(1, Math.round(source.width * factor)),
    height: Math.max(1, Math.round(source.height * factor)),
  }
}

export function screenMapping(
  screen: Pick<ScreenInfo, 'width' | 'height'>,
  source: {width: number; height: number},
  image: {width: number; height: number}
): ScreenMapping {
  let {width, height} = screen
  if (width <= 0 || height <= 0) ({width, height} = source)
  const sourcePortrait = source.height >= source.width
  const screenPortrait = height >= width
  if (sourcePortrait !== screenPortrait && width !== height) [width, height] = [height, width]
  return {screen: {width, height}, image, scaleX: image.width / width, scaleY: image.height / height}
}

/**
 * A screen rectangle in image pixels, rounded to whole pixels and clipped to the image; undefined when it lies
 * wholly outside (or has no area).
 */
export function toImageRect(bounds: readonly [number, number, number, number], m: ScreenMapping): Rect | undefined {
  const r: Rect = [
    Math.round(bounds[0] * m.scaleX),
    Math.round(bounds[1] * m.scaleY),
    Math.round(bounds[2] * m.scaleX),
    Math.round(bounds[3] * m.scaleY),
  ]
  return clip(r, m.image.width, m.image.height)
}
