import {expect} from 'chai'

import {ConfigError, InvalidInputError} from '@arc-cli/core'

import {resolveAnnotateOptions} from '../src/annotate-options.js'
import {annotateSnapshot, dumpXml, makeSnapshot, solidPng, type RGBA} from './support.js'

const xml = dumpXml([
  {
    bounds: [0, 0, 1080, 1920],
    children: [
      {cls: 'android.widget.Button', text: 'Send', bounds: [100, 200, 500, 400], attrs: {clickable: 'true'}},
      {
        cls: 'android.widget.EditText',
        text: '',
        res: 'app:id/pin',
        bounds: [100, 600, 900, 760],
        attrs: {clickable: 'true', password: 'true'},
      },
      {cls: 'android.widget.TextView', text: 'Terms', bounds: [100, 900, 500, 1000], attrs: {clickable: 'true'}},
      {cls: 'android.widget.ImageView', desc: 'Logo', bounds: [600, 900, 900, 1000]},
    ],
  },
])

const near = (px: RGBA, rgb: [number, number, number], tolerance = 8) =>
  rgb.every((c, i) => Math.abs(c - px[i]!) <= tolerance)

describe('annotate: presets and config', () => {
  let dir: string
  before(async () => {
    dir = await makeSnapshot({xml, png: await solidPng(1080, 1920)})
  })

  it('som numbers marks 1..N and cuts at maxLabels, keeping interactive ones first', async () => {
    const config = {annotate: {presets: {som: {maxLabels: 2}}}}
    const {image} = await annotateSnapshot(dir, {style: 'som'}, config)
    expect(image.map.marks.map((m) => m.label)).to.deep.equal(['1', '2'])
    expect(image.map.marks.map((m) => m.text || m.class)).to.deep.equal(['Send', 'EditText'])
    expect(image.map.skipped.over_limit).to.equal(2)
  })

  it('by-type colours boxes by role: buttons green, inputs yellow, links blue, others grey', async () => {
    const {image, pixels} = await annotateSnapshot(dir, {style: 'by-type', format: 'png', max_size: 960, only: 'all'})
    const role = Object.fromEntries(image.map.marks.map((m) => [m.role, m]))
    const leftEdge = (m: {box: number[]}) => pixels.at(m.box[0]! + 1, Math.floor((m.box[1]! + m.box[3]!) / 2))
    expect(near(leftEdge(role.button!), [0, 0xa0, 0])).to.equal(true)
    expect(near(leftEdge(role.input!), [0xff, 0xd4, 0])).to.equal(true)
    expect(near(leftEdge(role.link!), [0, 0x50, 0xff])).to.equal(true)
    expect(near(leftEdge(role.other!), [0x80, 0x80, 0x80])).to.equal(true)
    const ref = (m: {id: string}) => m.id.replace(/^node_/, '')
    expect(role.button!.label).to.equal(`${ref(role.button!)} Button "Send"`)
    expect(role.other!.label).to.equal(`${ref(role.other!)} ImageView "Logo"`)
  })

  it('by-type marks only what can be acted on unless told otherwise', async () => {
    const {image} = await annotateSnapshot(dir, {style: 'by-type'})
    expect(image.map.marks.map((m) => m.role).sort()).to.deep.equal(['button', 'input', 'link'])
  })

  it('never draws or maps a password field’s text', async () => {
    const secret = dumpXml([
      {
        bounds: [0, 0, 1080, 1920],
        children: [
          {cls: 'android.widget.EditText', text: 'hunter2', bounds: [100, 600, 900, 760], attrs: {password: 'true'}},
        ],
      },
    ])
    const d = await makeSnapshot({xml: secret, png: await solidPng(1080, 1920)})
    for (const style of ['default', 'som', 'by-type']) {
      const {image} = await annotateSnapshot(d, {style})
      expect(image.map.marks).to.have.length(1)
      expect(JSON.stringify(image.map)).to.not.include('hunter2')
    }
    const {image} = await annotateSnapshot(d, {style: 'by-type'})
    expect(image.map.marks[0]!.label).to.equal(`${image.map.marks[0]!.id.replace(/^node_/, '')} Password`)
  })

  it('applies a config preset that extends a built-in and overrides colour, dash and label format', async () => {
    const config = {
      annotate: {style: 'mine', presets: {mine: {extends: 'som', color: '#00ff00', labelFormat: 'both', dash: [4, 4]}}},
    }
    const {image, pixels} = await annotateSnapshot(dir, {format: 'png', max_size: 960}, config)
    expect(image.map.style).to.equal('mine')
    expect(image.map.marks[0]!.label).to.match(/^1:[2-9a-hjkmnp-z]{6}$/)
    const m = image.map.marks[0]!
    const column = Array.from({length: m.box[3] - m.box[1] - 10}, (_, i) => pixels.at(m.box[0] + 1, m.box[1] + 5 + i))
    expect(column.some((px) => near(px, [0, 255, 0]))).to.equal(true)
    expect(
      column.some((px) => near(px, [0x40, 0x40, 0x40], 2)),
      'dashed: gaps show the screenshot'
    ).to.equal(true)
  })

  it('lets a config preset named like a built-in override it, and --only narrow the marks', async () => {
    const config = {annotate: {presets: {default: {color: 'blue'}}}}
    const options = resolveAnnotateOptions({config}, {only: 'editable'})
    expect(options.style.style.color).to.equal('blue')
    expect(options.style.style.dash).to.deep.equal([6, 3])
    const {image} = await annotateSnapshot(dir, {only: 'editable'}, config)
    expect(image.map.marks.map((m) => m.class)).to.deep.equal(['EditText'])
  })

  it('takes format, quality and maxSize from config when flags leave them out', () => {
    const options = resolveAnnotateOptions({config: {annotate: {format: 'png', quality: 55, maxSize: 900}}}, {})
    expect(options).to.include({format: 'png', quality: 55, maxSize: 900})
    expect(resolveAnnotateOptions({config: {annotate: {quality: 55}}}, {quality: 90}).quality).to.equal(90)
  })

  describe('rejects', () => {
    const fails = (config: object, request = {}) => {
      try {
        resolveAnnotateOptions({config, configFile: '/p/.arcrc'}, request)
      } catch (error) {
        return error as Error
      }
      return expect.fail('no error')
    }

    it('an unknown --style, listing the presets', () => {
      const error = fails({annotate: {presets: {mine: {}}}}, {style: 'nope'})
      expect(error).to.be.instanceOf(InvalidInputError)
      expect(error.message).to.include('--style').and.include('"nope"').and.include('by-type, default, mine, som')
    })

    it('an unknown annotate.style, naming the key', () => {
      const error = fails({annotate: {style: 'nope'}})
      expect(error).to.be.instanceOf(ConfigError)
      expect(error.message).to.include('annotate.style').and.include('/p/.arcrc')
    })

    it('a bad colour, naming the key', () => {
      const error = fails({annotate: {presets: {mine: {color: 'reddish'}}}})
      expect(error).to.be.instanceOf(ConfigError)
      expect(error.message).to.include('annotate.presets.mine.color').and.include('not a colour')
      const role = fails({annotate: {presets: {mine: {roleColors: {button: '#12345'}}}}})
      expect(role.message).to.include('annotate.presets.mine.roleColors.button')
    })

    it('an unknown key, a value out of range, an unknown extends and a cycle', () => {
      expect(fails({annotate: {presets: {mine: {colour: 'red'}}}}).message).to.include('annotate.presets.mine')
      expect(fails({annotate: {presets: {mine: {opacity: 0.1}}}}).message).to.include('annotate.presets.mine.opacity')
      expect(fails({annotate: {quality: 0}}).message).to.include('annotate.quality')
      expect(fails({annotate: {presets: {mine: {extends: 'ghost'}}}}).message).to.include(
        'annotate.presets.mine.extends'
      )
      const cycle = fails({annotate: {presets: {a: {extends: 'b'}, b: {extends: 'a'}}}}, {style: 'a'})
      expect(cycle).to.be.instanceOf(ConfigError)
      expect(cycle.message).to.include('cycle')
    })
  })
})
