/**
 * `arc assert screenshot`: a screenshot against a baseline PNG, pixel by pixel. A pixel differs where any of its
 * four channels differs by more than `tolerance` (0-255); pixels inside a mask are not compared. The diff picture
 * is the screenshot faded to light grey, its differing pixels red and its masks tinted blue, so a glance shows
 * where. Loaded only by that command: it brings the canvas library.
 */
import {createCanvas, type Image} from '@napi-rs/canvas'

import {decodeScreenshot} from './screenshot-image.js'

export type Box = [left: number, top: number, right: number, bottom: number]

export interface Comparison {
  width: number
  height: number
  /** Pixels compared (outside every mask). */
  compared: number
  differing: number
  /** The diff picture (PNG): made only when some pixel differs. */
  diff?: Buffer
}

function pixels(image: Image): Uint8ClampedArray {
  const canvas = createCanvas(image.width, image.height)
  const ctx = canvas.getContext('2d')
  ctx.drawImage(image, 0, 0)
  return ctx.getImageData(0, 0, image.width, image.height).data
}

/** Decodes a PNG (checked whole first) for comparison; `source` names it in an error. */
export function decodeImage(png: Buffer, source: string): Promise<Image> {
  return decodeScreenshot(png, source, {verify: true})
}

/** Compares two decoded images of the same size. */
export function compareImages(actual: Image, baseline: Image, masks: Box[], tolerance: number): Comparison {
  const {width, height} = actual
  const a = pixels(actual)
  const b = pixels(baseline)
  const masked = new Uint8Array(width * height)
  for (const [l, t, r, bottom] of masks) {
    for (let y = Math.max(0, t); y < Math.min(height, bottom); y++)
      masked.fill(1, y * width + Math.max(0, l), y * width + Math.max(0, Math.min(width, r)))
  }
  const differs = new Uint8Array(width * height)
  let compared = 0
  let differing = 0
  for (let i = 0; i < width * height; i++) {
    if (masked[i]) continue
    compared++
    const o = i * 4
    if (
      Math.abs(a[o]! - b[o]!) > tolerance ||
      Math.abs(a[o + 1]! - b[o + 1]!) > tolerance ||
      Math.abs(a[o + 2]! - b[o + 2]!) > tolerance ||
      Math.abs(a[o + 3]! - b[o + 3]!) > tolerance
    ) {
      differs[i] = 1
      differing++
    }
  }
  if (differing === 0) return {width, height, compared, differing}
  const canvas = createCanvas(width, height)
  const ctx = canvas.getContext('2d')
  const out = ctx.createImageData(width, height)
  for (let i = 0; i < width * height; i++) {
    const o = i * 4
    if (differs[i]) out.data.set([255, 0, 0, 255], o)
    else {
      // Faded: the screen's light and shade, pale enough that red stands out.
      const grey = Math.round(180 + (0.299 * a[o]! + 0.587 * a[o + 1]! + 0.114 * a[o + 2]!) * 0.29)
      if (masked[i]) out.data.set([Math.round(grey * 0.6), Math.round(grey * 0.7), 255, 255], o)
      else out.data.set([grey, grey, grey, 255], o)
    }
  }
  ctx.putImageData(out, 0, 0)
  return {width, height, compared, differing, diff: canvas.toBuffer('image/png')}
}
