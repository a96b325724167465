/**
 * What a phone's helper does to its capture before sending it (packages/core/helper AndroidDevice.screenshot):
 * `Bitmap.createScaledBitmap(shot, w, h, true)` then `Bitmap.compress(format, quality, out)`. Android's reference
 * for both (developer.android.com/reference/android/graphics/Bitmap): createScaledBitmap's `filter` "Whether or not
 * bilinear filtering should be used when scaling the bitmap"; compress's `quality` is a "Hint to the compressor,
 * 0-100 ... PNG which is lossless, will ignore the quality setting". The virtual device does the same with Skia
 * through @napi-rs/canvas (the engine Android's Bitmap is built on): bilinear scaling, a baseline JPEG of that
 * quality. Loaded only for a scaled or JPEG request, so `arc emulate` does not load the canvas library otherwise.
 */
import {createCanvas, loadImage} from '@napi-rs/canvas'

export async function scaleAndCompress(
  png: Buffer,
  size: {width: number; height: number},
  format: 'png' | 'jpeg',
  quality: number
): Promise<Buffer> {
  const shot = await loadImage(png)
  const canvas = createCanvas(size.width, size.height)
  const ctx = canvas.getContext('2d')
  ctx.imageSmoothingEnabled = true
  // 'low' is Skia's bilinear filter, what createScaledBitmap's filter=true asks for.
  ctx.imageSmoothingQuality = 'low'
  ctx.drawImage(shot, 0, 0, size.width, size.height)
  return format === 'png' ? await canvas.encode('png') : await canvas.encode('jpeg', quality)
}
