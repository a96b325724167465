import {BLACK_LEVEL, InvalidInputError} from '@arc-cli/core'
import {createCanvas, loadImage} from '@napi-rs/canvas'

import {releasePixels} from './screenshot-image.js'

/** Re-encodes a device PNG as JPEG at `quality` (1-100), same size. */
export async function pngToJpeg(png: Buffer, quality: number, source: string): Promise<Buffer> {
  let image
  try {
    image = await loadImage(png)
  } catch (error) {
    throw new InvalidInputError(`the screenshot from ${source} is not a readable PNG`, {cause: error})
  }
  const canvas = createCanvas(image.width, image.height)
  canvas.getContext('2d').drawImage(image, 0, 0)
  releasePixels(image)
  return canvas.encode('jpeg', quality)
}

/**
 * Whether every pixel of a JPEG is black (each colour channel at most BLACK_LEVEL, as pngLooksBlack judges a PNG):
 * the black-capture check for an image the device already encoded as JPEG. Undefined where it cannot be decoded.
 */
export async function jpegLooksBlack(jpeg: Buffer): Promise<boolean | undefined> {
  let image
  try {
    image = await loadImage(jpeg)
  } catch {
    return undefined
  }
  const canvas = createCanvas(image.width, image.height)
  const ctx = canvas.getContext('2d')
  const {width, height} = image
  ctx.drawImage(image, 0, 0)
  releasePixels(image)
  const pixels = ctx.getImageData(0, 0, width, height).data
  for (let i = 0; i < pixels.length; i += 4) {
    if ((pixels[i] as number) > BLACK_LEVEL || (pixels[i + 1] as number) > BLACK_LEVEL) return false
    if ((pixels[i + 2] as number) > BLACK_LEVEL) return false
  }
  return true
}
