import {expect} from 'chai'
import {mkdtemp, readFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

import {importNativeModule, UnsupportedError} from '@arc-cli/core'

import {ROOT} from '@arc-cli/test-support/paths'
import {runArc} from '@arc-cli/test-support/run-arc'

interface LockEntry {
  version?: string
  optionalDependencies?: Record<string, string>
}

describe('the canvas binary on every platform', () => {
  it('package-lock.json carries every platform binary @napi-rs/canvas lists, at its version', async () => {
    const lock = JSON.parse(await readFile(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, LockEntry>
    }
    const canvas = lock.packages['node_modules/@napi-rs/canvas']
    if (!canvas) expect.fail('the lock has no @napi-rs/canvas')
    const platforms = Object.entries(canvas.optionalDependencies ?? {})
    expect(platforms.length, 'platform packages listed by @napi-rs/canvas').to.be.at.least(10)
    const missing = platforms
      .filter(([name, version]) => lock.packages[`node_modules/${name}`]?.version !== version)
      .map(([name, version]) => `${name}@${version}`)
    expect(
      missing,
      'platform binaries missing from package-lock.json (npm install --os/--cpu would install none)'
    ).to.deep.equal([])
    for (const name of ['darwin-arm64', 'darwin-x64', 'win32-x64-msvc', 'linux-x64-gnu', 'linux-arm64-gnu']) {
      expect(platforms.map(([n]) => n)).to.include(`@napi-rs/canvas-${name}`)
    }
  })

  it('turns a missing binary into UNSUPPORTED naming the platform', async () => {
    const load = () =>
      Promise.reject(new Error('Cannot find native binding. npm has a bug related to optional dependencies'))
    let caught: unknown
    await importNativeModule(load, 'arc annotate', '@napi-rs/canvas').catch((error) => (caught = error))
    expect(caught).to.be.instanceOf(UnsupportedError)
    expect((caught as Error).message)
      .to.include(`${process.platform}-${process.arch}`)
      .and.include('@napi-rs/canvas')
  })

  it('passes any other failure through unchanged', async () => {
    const boom = new TypeError('something else')
    let caught: unknown
    await importNativeModule(() => Promise.reject(boom), 'arc annotate', '@napi-rs/canvas').catch(
      (error) => (caught = error)
    )
    expect(caught).to.equal(boom)
  })

  it('arc annotate exits 12 with a clear message and no stack when the binary cannot load', async () => {
    const cwd = await mkdtemp(path.join(os.tmpdir(), 'arc-native-'))
    // napi-rs loaders try this path first; a path that does not exist is what a missing platform package looks like.
    const env = {NAPI_RS_NATIVE_LIBRARY_PATH: path.join(cwd, 'missing.node')}
    for (const args of [
      ['annotate', '-d', 'demo', '-o', 'x.jpg'],
      ['screen-state', '-d', 'demo', '--screenshot', 'x.jpg'],
    ]) {
      const run = await runArc(args, {cwd, env})
      expect(run.code, run.stderr).to.equal(12)
      expect(run.stderr).to.match(/^Error \[UNSUPPORTED\]: .* needs the prebuilt @napi-rs\/canvas binary for /m)
      expect(run.stderr).to.not.match(/\n\s+at /)
    }
  })
})
