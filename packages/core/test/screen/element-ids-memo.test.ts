import {createHash, randomBytes} from 'node:crypto'

import {buildScreenModel, elementKey, hashKey, ID_ALPHABET, SnapshotDriver} from '@arc-cli/core'
import {expect} from 'chai'

import {fixtureNames, fixturePath, requireFixtures} from '@arc-cli/test-support/paths'

/** The id's definition, written out with BigInt: base 31 of the first 96 bits of the key's SHA-256, low digit first. */
function referenceHash(key: string): string {
  let value = BigInt(`0x${createHash('sha256').update(key).digest('hex').slice(0, 24)}`)
  const base = BigInt(ID_ALPHABET.length)
  let out = ''
  for (let i = 0; i < 6; i++) {
    out += ID_ALPHABET[Number(value % base)]
    value /= base
  }
  return out
}

describe('element ids: the per-screen memo and the hash arithmetic', () => {
  it("hashKey gives the BigInt definition's digits, for text, unicode and random keys", () => {
    const keys = [
      '',
      'a',
      'com.example|FrameLayout\u0000\u0000TextView#\u0000d=\u0000t=Hi',
      '💗 x\u00a0y 中文',
      'x'.repeat(5000),
    ]
    for (let i = 0; i < 500; i++) keys.push(randomBytes(1 + (i % 97)).toString('latin1'))
    for (const key of keys) expect(hashKey(key), JSON.stringify(key)).to.equal(referenceHash(key))
  })

  describe('real fixtures (../shared/fixtures/real)', function () {
    before(function () {
      requireFixtures(this)
    })

    for (const name of fixtureNames()) {
      it(`${name}: every id is the hash of the key elementKey computes without a memo`, async () => {
        const model = buildScreenModel(await (await SnapshotDriver.open(fixturePath(name))).captureScreen())
        expect(model.elements.length).to.be.greaterThan(0)
        for (const element of model.elements) {
          const key = elementKey(element.node, element.window.root)
          expect(element.id.replace(/-\d+$/, ''), key).to.equal(`node_${referenceHash(key)}`)
        }
      })
    }
  })
})
