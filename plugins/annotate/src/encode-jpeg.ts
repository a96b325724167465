import {InvalidInputError} from '@arc-cli/core'
import {createCanvas, loadImage} from '@napi-rs/canvas'

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
  return canvas.encode('jpeg', quality)
}
