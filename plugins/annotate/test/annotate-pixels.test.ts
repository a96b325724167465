import {expect} from 'chai'

import type {MapMark} from '../src/annotation-map.js'
import {annotateSnapshot, dumpXml, isGrey, isRed, makeSnapshot, solidPng, type Pixels} from './support.js'

/**
 * A synthetic 1080x1920 screen on a flat grey screenshot, annotated at max_size 960 (scale 0.5): every pixel of
 * the output is predictable, so the checks below decode it and look at the pixels themselves.
 */
const xml = dumpXml([
  {
    bounds: [0, 0, 1080, 1920],
    children: [
      {cls: 'android.widget.Button', text: 'OK', bounds: [100, 200, 500, 400], attrs: {clickable: 'true'}},
      {cls: 'android.widget.EditText', text: 'name', bounds: [100, 600, 900, 760], attrs: {clickable: 'true'}},
      {cls: 'android.widget.TextView', text: 'half out', bounds: [900, 1000, 1400, 1100]},
      {
        cls: 'android.widget.TextView',
        text: 'all out',
        bounds: [1200, 300, 1300, 400],
        attrs: {'visible-to-user': 'true'},
      },
      {cls: 'android.widget.TextView', text: 'scrolled away', bounds: [100, 2000, 500, 2100]},
    ],
  },
])

const inside = (x: number, y: number, r: readonly number[]) =>
  x >= (r[0] as number) && x < (r[2] as number) && y >= (r[1] as number) && y < (r[3] as number)

function edgePixels(p: Pixels, mark: MapMark, marks: MapMark[], lw: number) {
  const [l, t, r] = mark.box
  const y = t + Math.floor(lw / 2)
  const pixels = []
  for (let x = l + lw; x < r - lw; x++) {
    if (marks.some((m) => inside(x, y, m.label_rect))) continue
    pixels.push(p.at(x, y))
  }
  return pixels
}

describe('annotate: pixels of the rendered image', () => {
  let dir: string
  before(async () => {
    dir = await makeSnapshot({xml, png: await solidPng(1080, 1920)})
  })

  it('maps screen bounds to image pixels with the scale in the map, clipping and skipping off-image boxes', async () => {
    const {image} = await annotateSnapshot(dir, {format: 'png', max_size: 960})
    expect([image.width, image.height]).to.deep.equal([540, 960])
    expect(image.map.scale).to.deep.equal({x: 0.5, y: 0.5})
    expect(image.map.screen).to.include({width: 1080, height: 1920})
    const byText = Object.fromEntries(image.map.marks.map((m) => [m.text, m]))
    expect(byText.OK?.box).to.deep.equal([50, 100, 250, 200])
    expect(byText.name?.box).to.deep.equal([50, 300, 450, 380])
    expect(byText['half out']?.box).to.deep.equal([450, 500, 540, 550])
    expect(byText['half out']?.bounds).to.deep.equal([900, 1000, 1400, 1100])
    expect(byText['all out']).to.equal(undefined)
    expect(byText['scrolled away']).to.equal(undefined)
    expect(image.map.skipped.outside).to.equal(1)
    expect(image.map.marks.map((m) => m.label)).to.deep.equal(image.map.marks.map((m) => m.id.replace('node_', '')))
  })

  it('draws default boxes as red dashes: red runs and untouched gaps along each edge', async () => {
    const {image, pixels} = await annotateSnapshot(dir, {format: 'png', max_size: 960})
    const lw = 3 // 2 dp at 540 / 360 = 1.5 px per dp
    for (const mark of image.map.marks) {
      const edge = edgePixels(pixels, mark, image.map.marks, lw)
      const red = edge.filter(isRed).length
      const gap = edge.filter((px) => isGrey(px)).length
      expect(red, `red on ${mark.text}`).to.be.greaterThan(edge.length * 0.4)
      expect(gap, `gaps on ${mark.text}`).to.be.greaterThan(edge.length * 0.15)
    }
  })

  it('draws som boxes solid: every edge pixel outside labels is red', async () => {
    const {image, pixels} = await annotateSnapshot(dir, {format: 'png', max_size: 960, style: 'som'})
    for (const mark of image.map.marks) {
      const edge = edgePixels(pixels, mark, image.map.marks, 3)
      expect(edge.length).to.be.greaterThan(10)
      expect(edge.filter(isRed).length, `solid edge of ${mark.text}`).to.equal(edge.length)
    }
    expect(image.map.marks.map((m) => m.label)).to.deep.equal(['1', '2', '3'])
  })

  it('fills label rectangles where the map says, with white text on semi-transparent red', async () => {
    const {image, pixels} = await annotateSnapshot(dir, {format: 'png', max_size: 960})
    for (const mark of image.map.marks) {
      const [l, t, r, b] = mark.label_rect
      expect(r - l).to.be.greaterThan(10)
      // Semi-transparent red over grey: red dominates, but the grey shows through (not pure red).
      const seeThrough = ([red, g, bl]: number[]) => red! >= 150 && red! <= 230 && g! < 60 && bl! < 60
      let background = 0
      let white = 0
      for (let y = t; y < b; y++) {
        for (let x = l; x < r; x++) {
          const px = pixels.at(x, y)
          if (seeThrough(px)) background++
          if (px[0] > 200 && px[1] > 200 && px[2] > 200) white++
        }
      }
      expect(background, `label background of ${mark.label}`).to.be.greaterThan((r - l) * (b - t) * 0.3)
      expect(white, `text in ${mark.label}`).to.be.greaterThan(5)
      expect(isGrey(pixels.at(Math.floor((l + r) / 2), b - 1))).to.equal(false)
    }
  })

  it('leaves every pixel outside box outlines and labels untouched', async () => {
    const {image, pixels} = await annotateSnapshot(dir, {format: 'png', max_size: 960})
    const lw = 3
    const changedAllowed = (x: number, y: number) =>
      image.map.marks.some((m) => {
        const [l, t, r, b] = m.box
        const ring = inside(x, y, m.box) && !inside(x, y, [l + lw, t + lw, r - lw, b - lw])
        return ring || inside(x, y, m.label_rect)
      })
    let checked = 0
    for (let y = 0; y < pixels.height; y++) {
      for (let x = 0; x < pixels.width; x++) {
        if (changedAllowed(x, y)) continue
        checked++
        if (!isGrey(pixels.at(x, y), 0x40)) expect.fail(`pixel ${x},${y} changed: ${pixels.at(x, y).join('/')}`)
      }
    }
    expect(checked).to.be.greaterThan(400000)
  })

  it('never lets labels overlap', async () => {
    const {image} = await annotateSnapshot(dir, {format: 'png', max_size: 960})
    const rects = image.map.marks.map((m) => m.label_rect)
    for (let i = 0; i < rects.length; i++) {
      for (let j = i + 1; j < rects.length; j++) {
        const [a, b] = [rects[i] as number[], rects[j] as number[]]
        const overlap =
          Math.min(a[2]!, b[2]!) > Math.max(a[0]!, b[0]!) && Math.min(a[3]!, b[3]!) > Math.max(a[1]!, b[1]!)
        expect(overlap, `labels ${i} and ${j}`).to.equal(false)
      }
    }
    expect(image.map.label_overlaps).to.equal(0)
  })

  it('gives the same bytes for the same input (JPEG and PNG)', async () => {
    for (const format of ['jpeg', 'png'] as const) {
      const a = await annotateSnapshot(dir, {format})
      const b = await annotateSnapshot(dir, {format})
      expect(a.image.data.equals(b.image.data), format).to.equal(true)
    }
  })

  it('defaults to JPEG, quality 80, 700 px long side, and never upscales', async () => {
    const {image} = await annotateSnapshot(dir)
    expect(image.format).to.equal('jpeg')
    expect(image.data.subarray(0, 3).toString('hex')).to.equal('ffd8ff')
    expect(Math.max(image.width, image.height)).to.equal(700)
    const small = await makeSnapshot({xml, png: await solidPng(540, 960), meta: {width: 1080, height: 1920}})
    const up = await annotateSnapshot(small, {max_size: 2000, format: 'png'})
    expect([up.image.width, up.image.height]).to.deep.equal([540, 960])
    // Screen 1080x1920 from the dump, screenshot half that: separate scale from screen to image.
    expect(up.image.map.scale).to.deep.equal({x: 0.5, y: 0.5})
  })

  it('takes the screenshot’s orientation when the reported screen size has width and height swapped', async () => {
    const landscape = dumpXml(
      [
        {
          bounds: [0, 0, 1920, 1080],
          children: [
            {cls: 'android.widget.Button', text: 'Go', bounds: [400, 800, 800, 1000], attrs: {clickable: 'true'}},
          ],
        },
      ],
      1
    )
    const swapped = await makeSnapshot({
      xml: landscape,
      png: await solidPng(1920, 1080),
      meta: {width: 1080, height: 1920, rotation: 1},
    })
    const {image, pixels} = await annotateSnapshot(swapped, {format: 'png', max_size: 960, style: 'som'})
    expect(image.map.screen).to.deep.equal({width: 1920, height: 1080, rotation: 1})
    expect(image.map.marks[0]!.box).to.deep.equal([200, 400, 400, 500])
    expect(isRed(pixels.at(201, 450))).to.equal(true)
  })
})
