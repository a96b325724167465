import {expect} from 'chai'

import {annotateSnapshot, dumpXml, makeSnapshot, solidPng} from './support.js'

type Rect = [number, number, number, number]
const overlaps = (a: Rect, b: Rect) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]

describe('annotate: labels a person can read', () => {
  it('som spends its labels on the focused app before the keyboard, and numbers the app first', async () => {
    const keys = Array.from({length: 60}, (_, i) => ({
      cls: 'android.widget.Button',
      text: String.fromCharCode(97 + (i % 26)),
      bounds: [
        (i % 10) * 108,
        1400 + Math.floor(i / 10) * 80,
        (i % 10) * 108 + 100,
        1470 + Math.floor(i / 10) * 80,
      ] as Rect,
      attrs: {clickable: 'true'},
    }))
    const xml = dumpXml([
      // uiautomator lists the topmost window first: the keyboard, then the app.
      {pkg: 'com.google.android.inputmethod.latin', bounds: [0, 1380, 1080, 1920], children: keys},
      {
        pkg: 'com.example.shop',
        bounds: [0, 0, 1080, 1920],
        children: [0, 1, 2, 3, 4].map((i) => ({
          cls: 'android.widget.Button',
          text: `Item ${i}`,
          bounds: [100, 100 + i * 200, 900, 250 + i * 200] as Rect,
          attrs: {clickable: 'true', focused: i === 0 ? 'true' : 'false'},
        })),
      },
    ])
    const dir = await makeSnapshot({xml, png: await solidPng(1080, 1920)})
    const {image} = await annotateSnapshot(dir, {style: 'som'})
    expect(image.map.marks).to.have.length(50)
    const app = image.map.marks.filter((m) => m.text.startsWith('Item'))
    expect(app.map((m) => m.label)).to.deep.equal(['1', '2', '3', '4', '5'])
    expect(image.map.skipped.over_limit).to.equal(15)
  })

  it('default puts a label beside a text element, not over its words, when there is room', async () => {
    const xml = dumpXml([
      {
        bounds: [0, 0, 1080, 1920],
        children: [
          {cls: 'android.widget.TextView', text: 'Oat milk', bounds: [200, 400, 1000, 520], attrs: {clickable: 'true'}},
          {
            cls: 'android.widget.TextView',
            text: 'Rye bread',
            bounds: [200, 700, 1000, 820],
            attrs: {clickable: 'true'},
          },
        ],
      },
    ])
    const dir = await makeSnapshot({xml, png: await solidPng(1080, 1920)})
    const {image} = await annotateSnapshot(dir, {})
    expect(image.map.marks).to.have.length(2)
    for (const mark of image.map.marks) {
      for (const other of image.map.marks)
        expect(overlaps(mark.label_rect, other.box), `${mark.label} over ${other.text}`).to.equal(false)
    }
  })
})
