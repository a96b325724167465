import {DEMO_DIR, InvalidInputError, SnapshotDriver, buildScreenModel, setOffThreadWork} from '@arc-cli/core'
import {expect} from 'chai'

import {makeAnnotation} from '../src/image-work.js'
import {DEFAULTS} from '../src/style/annotate-config.js'
import {resolveStyle} from '../src/style/resolve-style.js'
import {solidPng} from './support.js'

/**
 * A server's annotations are made on a worker thread (core's offThreadWork): the same image, the same map and the
 * same warnings as on the calling thread, and the same error when the screenshot cannot be used.
 */
describe('annotate: the image worker', () => {
  const options = {...DEFAULTS, style: resolveStyle({}, undefined)}
  const twice = async <T>(work: () => Promise<T>): Promise<{here: T; worker: T}> => {
    setOffThreadWork(false)
    const here = await work()
    setOffThreadWork(true)
    try {
      return {here, worker: await work()}
    } finally {
      setOffThreadWork(false)
    }
  }

  it('makes the same bytes and map on the worker as on the calling thread', async () => {
    const driver = await SnapshotDriver.open(DEMO_DIR)
    const model = buildScreenModel(await driver.captureScreen())
    const png = await driver.screenshot()
    for (const format of ['jpeg', 'png'] as const) {
      const {here, worker} = await twice(() => makeAnnotation(model, png, {...options, format}, 'demo'))
      expect(Buffer.isBuffer(worker.data)).to.equal(true)
      expect(worker.data.equals(here.data), `${format} bytes`).to.equal(true)
      expect(worker.map).to.deep.equal(here.map)
      expect(worker.warnings).to.deep.equal(here.warnings)
      expect([worker.width, worker.height, worker.mimeType]).to.deep.equal([here.width, here.height, here.mimeType])
    }
  })

  it('fails on the worker with the error the calling thread gives: its class, code and message', async () => {
    const driver = await SnapshotDriver.open(DEMO_DIR)
    const model = buildScreenModel(await driver.captureScreen())
    // A whole PNG, square: not the shape of the 1080x2400 screen the dump describes.
    const png = await solidPng(500, 500)
    const failed = (p: Promise<unknown>) =>
      p.then(
        () => expect.fail('annotated'),
        (e: Error) => e
      )
    const {here, worker} = await twice(() => failed(makeAnnotation(model, png, options, 'the test')))
    expect(here).to.be.instanceOf(InvalidInputError)
    expect(worker).to.be.instanceOf(InvalidInputError)
    expect(worker.message).to.equal(here.message).and.include('is 500x500, which is not the shape')
    expect((worker as InvalidInputError).details).to.deep.equal((here as InvalidInputError).details)
    expect((worker as InvalidInputError).actions).to.deep.equal((here as InvalidInputError).actions)
  })
})
