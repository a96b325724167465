import type {ScreenModel} from '@arc-cli/core'

import type {LabelPlacement} from './render/place-labels.js'
import type {Mark, MarkSelection} from './render/marks.js'
import type {ScreenMapping} from './render/screen-mapping.js'
import type {ImageFormat} from './style/annotate-config.js'
import type {Role} from './style/presets.js'

/**
 * What `--map FILE` and `--json` give: enough to turn a label seen in the image back into an element id and
 * screen coordinates. Rectangles are [left, top, right, bottom]; `bounds` in screen pixels (as screen-state
 * prints them), `box` and `label_rect` in image pixels. Keys are snake_case, as in every --json result (docs/json.md).
 */
export interface AnnotationMap {
  image: {width: number; height: number; format: ImageFormat; bytes: number}
  screen: {width: number; height: number; rotation: number}
  /** Image pixels per screen pixel: x_image = x_screen * scale.x. */
  scale: {x: number; y: number}
  style: string
  marks: MapMark[]
  /** On-screen elements without a mark: no pixels in the image, or past maxLabels. */
  skipped: {outside: number; over_limit: number}
  /** Pairs of labels that overlap (0 unless the screen had no room). */
  label_overlaps: number
}

export interface MapMark {
  label: string
  number: number
  id: string
  bounds: [number, number, number, number]
  box: [number, number, number, number]
  label_rect: [number, number, number, number]
  class: string
  text: string
  desc: string
  role: Role
}

const round = (n: number) => Math.round(n * 1e6) / 1e6

export function buildMap(input: {
  model: ScreenModel
  mapping: ScreenMapping
  styleName: string
  format: ImageFormat
  bytes: number
  selection: MarkSelection
  placements: LabelPlacement[]
  overlaps: number
}): AnnotationMap {
  const {model, mapping, selection, placements} = input
  return {
    image: {width: mapping.image.width, height: mapping.image.height, format: input.format, bytes: input.bytes},
    screen: {width: mapping.screen.width, height: mapping.screen.height, rotation: model.screen.rotation},
    scale: {x: round(mapping.scaleX), y: round(mapping.scaleY)},
    style: input.styleName,
    marks: mapMarks(selection, placements),
    skipped: {outside: selection.outside, over_limit: selection.overLimit},
    label_overlaps: input.overlaps,
  }
}

/**
 * One entry per mark, by a loop rather than a callback: a callback made per annotation is optimised again for each
 * annotation in a server or batch (see annotateScreenshot's layout).
 */
function mapMarks(selection: MarkSelection, placements: LabelPlacement[]): MapMark[] {
  const {marks} = selection
  const out = new Array<MapMark>(marks.length)
  for (let i = 0; i < marks.length; i++) {
    const m = marks[i] as Mark
    const bounds = m.element.bounds
    const box = m.box
    const rect = (placements[i] as LabelPlacement).rect
    out[i] = {
      label: m.label,
      number: m.number,
      id: m.element.id,
      bounds: [bounds[0], bounds[1], bounds[2], bounds[3]],
      box: [box[0], box[1], box[2], box[3]],
      label_rect: [rect[0], rect[1], rect[2], rect[3]],
      class: m.element.className,
      text: m.element.text,
      desc: m.element.desc,
      role: m.role,
    }
  }
  return out
}
