/**
 * What the demo app's screen looks like on `screencap`: each view drawn as filled rectangles from its paint hint
 * (demo-screen.ts), bottom window first. Text is drawn as a bar as long as the text (a device-side font renderer is
 * more than a virtual phone needs), so a changed row, a longer name or an open dialog changes the picture where it
 * would on a phone.
 */
import {Raster} from '../png.js'
import type {DemoNode} from './demo-screen.js'

type Rgb = readonly [number, number, number]

const hex = (c: string): Rgb => [parseInt(c.slice(1, 3), 16), parseInt(c.slice(3, 5), 16), parseInt(c.slice(5, 7), 16)]

const COLOURS = {
  page: hex('#fafafa'),
  statusbar: hex('#283593'),
  toolbar: hex('#3949ab'),
  white: hex('#ffffff'),
  ink: hex('#212121'),
  muted: hex('#757575'),
  hint: hex('#9e9e9e'),
  line: hex('#e0e0e0'),
  keyboard: hex('#eceff1'),
  black: hex('#000000'),
}

/** A text as a bar: about 0.55 em per character, a line's height 0.7 em, centred on the box's middle. */
function textBar(
  raster: Raster,
  text: string,
  [l, t, r, b]: number[],
  colour: Rgb,
  size: number,
  centre = false
): void {
  if (text === '') return
  const width = Math.min(r! - l!, [...text].length * size * 0.55)
  const mid = (t! + b!) / 2
  const left = centre ? (l! + r! - width) / 2 : l!
  raster.fill(left, mid - size * 0.35, left + width, mid + size * 0.35, colour)
}

function draw(raster: Raster, node: DemoNode, dark: boolean): void {
  if (node.visible === false) return
  const [l, t, r, b] = node.bounds
  const box = node.bounds as number[]
  const tall = b - t > 66
  switch (node.paint) {
    case 'statusbar':
      raster.fill(l, t, r, b, COLOURS.statusbar)
      break
    case 'toolbar':
      raster.fill(l, t, r, b, COLOURS.toolbar)
      break
    case 'title':
      textBar(raster, node.text ?? '', box, COLOURS.white, tall ? 52 : 34)
      break
    case 'icon': {
      const s = Math.min(r - l, b - t) / 4
      const cx = (l + r) / 2
      const cy = (t + b) / 2
      raster.fill(cx - s, cy - s, cx + s, cy + s, dark ? COLOURS.white : COLOURS.toolbar)
      break
    }
    case 'field': {
      raster.fill(l, t, r, b, COLOURS.white)
      raster.fill(l, b - 6, r, b, COLOURS.toolbar)
      const empty = node.text === undefined || node.text === node.hint
      textBar(raster, empty ? (node.hint ?? '') : node.text!, [l + 24, t, r, b], empty ? COLOURS.hint : COLOURS.ink, 44)
      break
    }
    case 'button':
      raster.fill(l, t, r, b, COLOURS.toolbar)
      textBar(raster, node.text ?? '', box, COLOURS.white, 44, true)
      break
    case 'text-button':
      textBar(raster, node.text ?? '', box, COLOURS.toolbar, 44, true)
      break
    case 'row':
      raster.fill(l, b - 2, r, b, COLOURS.line)
      break
    case 'checkbox':
      raster.fill(l + 6, t + 6, r - 6, b - 6, COLOURS.toolbar)
      if (!node.checked) raster.fill(l + 12, t + 12, r - 12, b - 12, COLOURS.page)
      break
    case 'label':
      textBar(raster, node.text ?? '', box, COLOURS.ink, 46)
      break
    case 'muted':
      textBar(raster, node.text ?? '', box, COLOURS.muted, 36)
      break
    case 'keyboard':
      raster.fill(l, t, r, b, COLOURS.keyboard)
      break
    case 'key':
      raster.fill(l, t, r, b, COLOURS.white)
      textBar(raster, node.text ?? '', box, COLOURS.ink, 48, true)
      break
    case 'navbar':
      raster.fill(l, t, r, b, COLOURS.black)
      break
    case 'nav':
      raster.fill((l + r) / 2 - 22, (t + b) / 2 - 22, (l + r) / 2 + 22, (t + b) / 2 + 22, COLOURS.white)
      break
    case 'dialog':
      raster.fill(l, t, r, b, COLOURS.white)
      break
    default:
      break
  }
  const childDark = dark || node.paint === 'toolbar' || node.paint === 'statusbar' || node.paint === 'navbar'
  for (const child of node.children ?? []) draw(raster, child, childDark)
}

/** The screen's pixels as a PNG: `windows` topmost first, as the dump lists them; a dialog dims what lies beneath. */
export function paintDemo(width: number, height: number, windows: DemoNode[]): Buffer {
  const raster = new Raster(width, height)
  raster.fill(0, 0, width, height, COLOURS.page)
  const bottomFirst = [...windows].reverse()
  for (const window of bottomFirst) {
    // A dialog dims what lies beneath it (the theme's backgroundDimAmount, 0.6 in Material: 40% of the light left).
    if (window.paint === 'dialog') raster.dim(0.4)
    draw(raster, window, false)
  }
  return raster.png()
}
