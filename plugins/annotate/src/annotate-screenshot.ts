import {createCanvas, ImageData, type Canvas, type SKRSContext2D} from '@napi-rs/canvas'

import {isPng, pngSize, pngSizeProblem, type ScreenModel} from '@arc-cli/core'

import {boxColor, drawMarks, perRole} from './render/draw-marks.js'
import {labelFont, ensureLabelFont} from './render/label-font.js'
import {selectMarks, textBoxes, type Mark} from './render/marks.js'
import type {Rect} from './render/geometry.js'
import {countOverlaps, placeLabels, type LabelPlacement} from './render/place-labels.js'
import {outlinesWritable, writeOutlines} from './render/outline-pixels.js'
import {outputSize, screenMapping} from './render/screen-mapping.js'
import {buildMap, type AnnotationMap} from './annotation-map.js'
import {
  checkAgainstScreen,
  confirmPixels,
  decodeScreenshot,
  fitsScreen,
  frameLooks,
  releasePixels,
} from './screenshot-image.js'
import type {ImageFormat} from './style/annotate-config.js'
import type {AnnotateStyle} from './style/presets.js'
import type {ResolvedStyle} from './style/resolve-style.js'

export interface AnnotateOptions {
  style: ResolvedStyle
  format: ImageFormat
  /** JPEG quality 1..100 (ignored for PNG). */
  quality: number
  /** Longest side of the output in pixels; the screenshot is never upscaled. */
  maxSize: number
  /** Tests only (holdNextAnnotation): block the thread doing the work right after label placement. */
  hold?: Int32Array
}

/** How long a held annotation may block its thread at most: a test that forgot to release must not hang. */
const HOLD_LIMIT_MS = 5000

/**
 * Blocks this thread until the gate opens (or HOLD_LIMIT_MS), as CPU work would: the event loop of the thread that
 * makes the image does nothing meanwhile. The gate (image-work.ts holdNextAnnotation): [0] 0 held, 1 released,
 * 2 ran out; [1] 1 once the work got here. Tests use it to show where that work runs.
 */
function holdThread(gate: Int32Array): void {
  Atomics.store(gate, 1, 1)
  if (Atomics.wait(gate, 0, 0, HOLD_LIMIT_MS) === 'timed-out') Atomics.store(gate, 0, 2)
}

export interface AnnotatedImage {
  data: Buffer
  mimeType: 'image/jpeg' | 'image/png'
  format: ImageFormat
  width: number
  height: number
  map: AnnotationMap
  /** Things the person should know (secure window, large image); the image is still valid. */
  warnings: string[]
}

const LARGE_IMAGE_BYTES = 1024 * 1024

/**
 * Label text widths, kept for the process: a measureText call costs tens of microseconds (the canvas lays the text
 * out), a screen has hundreds of labels measured at one or two sizes each, and the ids on a screen mostly stay the
 * same from one look to the next, so an MCP server (its image worker) or a batch measures each label once. Each
 * font size is measured on a small context of its own whose font is set once: setting a context's font parses it
 * and looks the face up. Bounded: emptied when it holds WIDTHS_KEPT widths.
 */
const widths = new Map<string, number>()
const measurers = new Map<number, SKRSContext2D>()
const WIDTHS_KEPT = 20_000

function measure(text: string, px: number): number {
  const key = `${px}\u0000${text}`
  let w = widths.get(key)
  if (w === undefined) {
    let measurer = measurers.get(px)
    if (!measurer) {
      measurer = createCanvas(1, 1).getContext('2d')
      measurer.font = labelFont(px)
      measurers.set(px, measurer)
    }
    w = measurer.measureText(text).width
    if (widths.size >= WIDTHS_KEPT) widths.clear()
    widths.set(key, w)
  }
  return w
}

/**
 * Transparent pixels of this size to write box outlines into, for putImageData (which copies them): the same
 * buffer from one annotation to the next (cleared), instead of a new ImageData each time, whose ~1 MB of memory
 * outside the JavaScript heap (315x700) counts towards what makes V8 collect garbage. The annotation takes,
 * writes and puts it in one synchronous stretch, so no two use it at once. Kept only up to KEPT_PIXELS_BYTES.
 */
let keptPixels: ImageData | undefined
const KEPT_PIXELS_BYTES = 4 * 1024 * 1024

function emptyPixels(width: number, height: number): ImageData {
  if (keptPixels && keptPixels.width === width && keptPixels.height === height) {
    keptPixels.data.fill(0)
    return keptPixels
  }
  const pixels = new ImageData(width, height)
  if (width * height * 4 <= KEPT_PIXELS_BYTES) keptPixels = pixels
  return pixels
}

/** The reference width of spec 000: one dp is the image's short side / 360. */
const REFERENCE_DP = 360

/** What an annotation's layout depends on besides the screenshot's size. */
interface LayoutInput {
  model: ScreenModel
  style: AnnotateStyle
  maxSize: number
}

/** An annotation laid out for a screenshot of a given size. */
interface Layout {
  pixels: {width: number; height: number}
  size: {width: number; height: number}
  mapping: ReturnType<typeof screenMapping>
  lineWidth: number
  dash: number[]
  selection: ReturnType<typeof selectMarks>
  placements: LabelPlacement[]
}

/**
 * The output size, the mapping onto it, the marks and their labels' places, for a screenshot of this size.
 *
 * This and marksLayer are module functions, not closures made inside annotateScreenshot, and make no callbacks:
 * V8 optimises a closure for the closure it saw, so closures made afresh by every annotation were compiled again
 * in the background (and finished on this thread) annotation after annotation (node --trace-opt).
 */
function layout({model, style, maxSize}: LayoutInput, pixels: {width: number; height: number}): Layout {
  const size = outputSize(pixels, maxSize)
  const mapping = screenMapping(model.screen, pixels, size)
  const unit = Math.min(size.width, size.height) / REFERENCE_DP
  const lineWidth = Math.max(1, Math.round(style.lineWidth * unit))
  const dash = new Array<number>(style.dash.length)
  for (let i = 0; i < dash.length; i++) dash[i] = Math.max(1, Math.round((style.dash[i] as number) * unit))
  // Never below minFontSize: the one place the label font is clamped (placeLabels starts from it).
  const fontPx = Math.max(style.minFontSize, Math.round(style.fontSize * unit * 2) / 2)
  const selection = selectMarks(model, style, mapping)
  const {marks} = selection
  const requests = new Array<{box: Rect; text: string}>(marks.length)
  for (let i = 0; i < marks.length; i++) {
    const m = marks[i] as Mark
    requests[i] = {box: m.box, text: m.label}
  }
  const placements = placeLabels(requests, {
    imageWidth: size.width,
    imageHeight: size.height,
    fontPx,
    minFontPx: style.minFontSize,
    lineWidth,
    measure,
    textBoxes: textBoxes(model, mapping),
  })
  return {pixels, size, mapping, lineWidth, dash, selection, placements}
}

/**
 * The boxes, leader lines and labels on a transparent canvas of the output's size, rasterised now (the canvas
 * records drawing and rasterises when its pixels are first needed), so that what remains once the screenshot is
 * decoded is one copy of this layer over it: on a free core the marks cost the annotation next to nothing.
 * Blending the marks onto a transparent layer and the layer onto the screenshot rounds to 8 bits twice where
 * drawing them straight onto the screenshot rounds once: over the 21 real screens in ../shared, three styles
 * and two sizes, 0.8% of pixels (antialiased edges, translucent label backgrounds) differ, 99% of those by one
 * level of 255, none by more than 5; every other pixel is the same.
 */
function marksLayer({size, selection, placements, lineWidth, dash}: Layout, style: AnnotateStyle): Canvas {
  const layer = createCanvas(size.width, size.height)
  const layerCtx = layer.getContext('2d')
  const {marks} = selection
  const colors = perRole(marks, style, boxColor)
  const boxes = new Array<Rect>(marks.length)
  for (let i = 0; i < marks.length; i++) boxes[i] = (marks[i] as Mark).box
  // On the empty layer, outlines whose every pixel is whole are written as pixels (outline-pixels.ts).
  const outlinesDrawn = outlinesWritable(lineWidth, dash, colors, boxes)
  if (outlinesDrawn) {
    const pixels = emptyPixels(size.width, size.height)
    writeOutlines(pixels.data, size.width, size.height, boxes, colors, lineWidth, dash)
    layerCtx.putImageData(pixels, 0, 0)
  }
  drawMarks(layerCtx, marks, placements, {style, lineWidth, dash, measure, outlinesDrawn})
  layerCtx.getImageData(0, 0, 1, 1)
  return layer
}

function labelRects(placements: LabelPlacement[]): Rect[] {
  const rects = new Array<Rect>(placements.length)
  for (let i = 0; i < placements.length; i++) rects[i] = (placements[i] as LabelPlacement).rect
  return rects
}

function ignore(): void {}

/**
 * The one annotation function, shared by `arc annotate` and `arc screen-state --screenshot`: decodes the
 * screenshot, scales it (long side at most maxSize), draws a box and a label for every on-screen element,
 * encodes it, and returns the image with its map. Output bytes depend only on the inputs.
 */
export async function annotateScreenshot(
  model: ScreenModel,
  screenshot: Buffer,
  options: AnnotateOptions,
  source = 'the device'
): Promise<AnnotatedImage> {
  ensureLabelFont()
  const {style} = options.style
  const input: LayoutInput = {model, style, maxSize: options.maxSize}
  // The canvas decodes on libuv's thread pool, so the decode starts first, and while it runs this thread places the
  // labels and draws the marks on a layer of their own: both need only the image's size, which a PNG's header
  // declares (the decoder reads the same header). Errors keep their order: the PNG's structure is checked before
  // the decode starts, a decode that fails is reported before the screen's shape, and a header whose shape does not
  // fit the screen waits for the decode.
  const decoding = decodeScreenshot(screenshot, source)
  decoding.catch(ignore) // awaited below; a throw before that must not leave it unhandled
  const declared = isPng(screenshot) ? pngSize(screenshot) : undefined
  let early: (Layout & {marks: Canvas}) | undefined
  if (declared && !pngSizeProblem(declared) && fitsScreen(declared, model.screen)) {
    try {
      const laidOut = layout(input, declared)
      early = {...laidOut, marks: marksLayer(laidOut, style)}
    } catch {
      // laid out again after the decode, whose own error comes first
    }
  }

  const image = await decoding
  checkAgainstScreen(image, model.screen, source)
  // The header and the decoded image agree for every PNG the decoder reads; should they not, lay out again.
  const fits = early && early.pixels.width === image.width && early.pixels.height === image.height ? early : undefined
  const laidOut = fits ?? layout(input, image)
  const {size, mapping, selection, placements} = laidOut
  const canvas = createCanvas(size.width, size.height)
  const ctx = canvas.getContext('2d')
  ctx.imageSmoothingEnabled = true
  ctx.imageSmoothingQuality = 'high'
  ctx.drawImage(image, 0, 0, size.width, size.height)
  releasePixels(image)

  const warnings: string[] = []
  const looks = frameLooks(ctx, size.width, size.height)
  // The one decode is the canvas's: a frame that came out blank or black is when damaged pixel data must be told apart.
  if (looks.black || looks.blank) confirmPixels(screenshot, source)
  if (looks.black) {
    warnings.push(
      'the screenshot is entirely black (a secure window, e.g. a password or banking screen, blocks capture): ' +
        'the image shows nothing, but the element list and its ids are still valid'
    )
  }

  if (options.hold) holdThread(options.hold)
  const marks = fits?.marks ?? marksLayer(laidOut, style)
  // Pixel for pixel onto the screenshot: no resampling of a layer of the same size.
  ctx.imageSmoothingEnabled = false
  ctx.drawImage(marks, 0, 0)

  const data = options.format === 'png' ? await canvas.encode('png') : await canvas.encode('jpeg', options.quality)
  if (data.length > LARGE_IMAGE_BYTES) {
    warnings.push(
      `the image is ${(data.length / 1024 / 1024).toFixed(2)} MB (over 1 MB); lower --quality or --max-size, or use --format jpeg`
    )
  }
  const map = buildMap({
    model,
    mapping,
    styleName: options.style.name,
    format: options.format,
    bytes: data.length,
    selection,
    placements,
    overlaps: countOverlaps(labelRects(placements)),
  })
  return {
    data,
    mimeType: options.format === 'png' ? 'image/png' : 'image/jpeg',
    format: options.format,
    width: size.width,
    height: size.height,
    map,
    warnings,
  }
}
