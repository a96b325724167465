import {readFileSync} from 'node:fs'
import path from 'node:path'

import {expect} from 'chai'

import {checkPng} from '@arc-cli/core'

import {readScreencapPng, undoCrlf} from '../../src/driver/adb/png-repair.js'
import {ROOT} from '@arc-cli/test-support/paths'

const PNG = readFileSync(path.join(ROOT, 'packages/core/demo/screen.png'))

/** What a cooked PTY does to binary output: every LF becomes CR LF. */
const mangle = (data: Buffer) => Buffer.from(data.toString('latin1').replaceAll('\n', '\r\n'), 'latin1')

describe('screencap PNG repair', () => {
  it('passes an intact PNG through unchanged', () => {
    expect(checkPng(PNG)).to.have.property('end', PNG.length)
    const {png, repaired} = readScreencapPng(PNG, 'emu')
    expect(repaired).to.equal(false)
    expect(png.equals(PNG)).to.equal(true)
  })

  it('repairs CR LF translation exactly', () => {
    const mangled = mangle(PNG)
    expect(mangled.length).to.be.greaterThan(PNG.length)
    const {png, repaired} = readScreencapPng(mangled, 'emu')
    expect(repaired).to.equal(true)
    expect(png.equals(PNG)).to.equal(true)
  })

  it('drops a banner printed before the image and bytes after IEND', () => {
    const noisy = Buffer.concat([Buffer.from('[Warning] Multiple displays were found\n'), PNG, Buffer.from('\n')])
    expect(readScreencapPng(noisy, 'emu').png.equals(PNG)).to.equal(true)
  })

  it('rejects truncated, corrupted and non-PNG output with DEVICE_COMMAND_FAILED', () => {
    const corrupt = Buffer.from(PNG)
    corrupt[100] = (corrupt[100] as number) ^ 0xff
    for (const [what, data] of [
      ['truncated', PNG.subarray(0, PNG.length - 20)],
      ['corrupted', corrupt],
      ['text', Buffer.from('/system/bin/sh: screencap: not found\n')],
      ['empty', Buffer.alloc(0)],
    ] as const) {
      expect(() => readScreencapPng(data, 'emu'), what)
        .to.throw()
        .with.property('code', 'DEVICE_COMMAND_FAILED')
    }
  })

  it('undoes CR LF but leaves lone CRs', () => {
    expect(undoCrlf(Buffer.from('a\r\nb\rc\r\r\n')).toString('latin1')).to.equal('a\nb\rc\r\n')
  })
})
