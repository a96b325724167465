import {expect} from 'chai'
import path from 'node:path'

import {fixturePath, requireFixtures} from '@arc-cli/test-support/paths'
import {measureOverlaps} from '../scripts/measure-overlaps.js'
import type {AnnotationMap} from '../src/annotation-map.js'
import {annotateSnapshot, isRed, type Pixels} from './support.js'

const inside = (x: number, y: number, r: readonly number[]) => x >= r[0]! && x < r[2]! && y >= r[1]! && y < r[3]!

/** Every mark's box is its screen bounds times the map's scale, rounded and clipped to the image. */
function expectMapped(map: AnnotationMap) {
  // The map's scale is rounded to 6 decimals for reading; the exact ratio decides half-pixel cases.
  const sx = map.image.width / map.screen.width
  const sy = map.image.height / map.screen.height
  expect(map.scale.x).to.be.closeTo(sx, 1e-6)
  expect(map.scale.y).to.be.closeTo(sy, 1e-6)
  for (const m of map.marks) {
    const expected = [
      Math.max(0, Math.round(m.bounds[0] * sx)),
      Math.max(0, Math.round(m.bounds[1] * sy)),
      Math.min(map.image.width, Math.round(m.bounds[2] * sx)),
      Math.min(map.image.height, Math.round(m.bounds[3] * sy)),
    ]
    expect(m.box, m.id).to.deep.equal(expected)
  }
}

/** With solid (som) boxes, the middle of each box's left edge is red wherever no label covers it. */
function expectRedLeftEdges(map: AnnotationMap, pixels: Pixels) {
  let checked = 0
  for (const m of map.marks) {
    const [l, t, , b] = m.box
    const y = Math.floor((t + b) / 2)
    if (b - t < 8 || map.marks.some((o) => inside(l + 1, y, o.label_rect))) continue
    expect(
      isRed(pixels.at(l + 1, y)),
      `left edge of ${m.id} at ${l + 1},${y}: ${pixels.at(l + 1, y).join('/')}`
    ).to.equal(true)
    checked++
  }
  expect(checked).to.be.greaterThan(3)
}

describe('annotate: real screens', function () {
  before(function () {
    requireFixtures(this)
  })

  it('maps a landscape car screen (1920x1080) with separate x and y scale', async () => {
    const {image, pixels} = await annotateSnapshot(fixturePath('ivi-car-quicksettings-kr'), {
      format: 'png',
      style: 'som',
    })
    expect([image.width, image.height]).to.deep.equal([700, 394])
    expect(image.map.scale.x).to.be.closeTo(700 / 1920, 1e-6)
    expect(image.map.scale.y).to.be.closeTo(394 / 1080, 1e-6)
    expectMapped(image.map)
    expectRedLeftEdges(image.map, pixels)
  })

  it('maps a rotated (rotation=1) landscape tablet screen', async () => {
    const {image, pixels} = await annotateSnapshot(fixturePath('tablet-landscape-music-cjk'), {
      format: 'png',
      style: 'som',
    })
    expect(image.map.screen).to.deep.equal({width: 1920, height: 1200, rotation: 1})
    expect([image.width, image.height]).to.deep.equal([700, 438])
    expectMapped(image.map)
    expectRedLeftEdges(image.map, pixels)
  })

  it('puts a dialog-only dump (root smaller than the screenshot) on the dialog pixels', async () => {
    const {image, pixels} = await annotateSnapshot(fixturePath('maps-delete-dialog-checkbox'), {
      format: 'png',
      style: 'som',
    })
    // The screenshot is 1080x1918 with a white dialog over a grey scrim; the dump's root is the dialog alone.
    expect(image.map.screen).to.include({width: 1080, height: 1918})
    expectMapped(image.map)
    const dialog = image.map.marks.find((m) => m.bounds.join(',') === '28,459,1052,1333')
    expect(dialog, 'the dialog frame is a mark').to.not.equal(undefined)
    const [l, t, r, b] = dialog!.box
    const y = Math.floor((t + b) / 2)
    const white = (px: number[]) => px.slice(0, 3).every((c) => c > 240)
    const scrim = (px: number[]) => px.slice(0, 3).every((c) => Math.abs(c - 102) < 12)
    expect(scrim(pixels.at(l - 3, y)), 'scrim left of the box').to.equal(true)
    expect(white(pixels.at(l + 5, y)), 'dialog inside the box').to.equal(true)
    expect(scrim(pixels.at(r + 3, y)), 'scrim right of the box').to.equal(true)
    expect(white(pixels.at(Math.floor((l + r) / 2), b - 6)), 'dialog above the bottom edge').to.equal(true)
    expect(scrim(pixels.at(Math.floor((l + r) / 2), b + 3)), 'scrim below the bottom edge').to.equal(true)
    expectRedLeftEdges(image.map, pixels)
  })

  it('marks exactly the elements screen-state prints with `on`', async () => {
    const {SnapshotDriver, buildScreenModel, formatFlags} = await import('@arc-cli/core')
    const dir = fixturePath('wheres-my-train')
    const model = buildScreenModel(await (await SnapshotDriver.open(dir)).captureScreen())
    const on = model.elements.filter((e) => formatFlags(e.flags).startsWith('on')).map((e) => e.id)
    const {image} = await annotateSnapshot(dir)
    expect(image.map.marks.map((m) => m.id)).to.deep.equal(on)
    expect(path.basename(dir)).to.equal('wheres-my-train')
  })

  it('places default and som labels on every fixture pair with no overlapping pair', async () => {
    const rows = await measureOverlaps(['default', 'som'])
    expect(rows.length).to.be.greaterThan(30)
    const bad = rows.filter((r) => r.overlaps > 0).map((r) => `${r.fixture}/${r.preset}: ${r.overlaps}`)
    expect(bad).to.deep.equal([])
  })
})
