import {InvalidInputError} from '@arc-cli/core'
import {createCanvas, loadImage} from '@napi-rs/canvas'

import {outputSize} from './render/screen-mapping.js'
import {releasePixels} from './screenshot-image.js'

/**
 * An image (PNG or JPEG) scaled so its longest side is at most `maxSize` pixels (never upscaled; 0: as it is) and
 * encoded as `format`: a valid PNG or JPEG whatever came in. Returns the bytes and the size they have.
 */
export async function fitImage(
  image: Buffer,
  options: {maxSize: number; format: 'png' | 'jpeg'; quality: number; source: string}
): Promise<{data: Buffer; width: number; height: number}> {
  let decoded
  try {
    decoded = await loadImage(image)
  } catch (error) {
    throw new InvalidInputError(`the screenshot from ${options.source} is not a readable image`, {cause: error})
  }
  const size =
    options.maxSize > 0 ? outputSize(decoded, options.maxSize) : {width: decoded.width, height: decoded.height}
  const canvas = createCanvas(size.width, size.height)
  const ctx = canvas.getContext('2d')
  ctx.imageSmoothingEnabled = true
  ctx.imageSmoothingQuality = 'high'
  ctx.drawImage(decoded, 0, 0, size.width, size.height)
  releasePixels(decoded)
  const data = options.format === 'png' ? await canvas.encode('png') : await canvas.encode('jpeg', options.quality)
  return {data, ...size}
}
