/**
 * The committed on-device helper (packages/core/helper/arc-helper.dex): a whole, valid dex that holds the entry
 * point app_process starts, built from the committed sources (their hash as build.sh recorded it), and the file arc
 * pushes is the one arc-helper.json names.
 */
import {createHash} from 'node:crypto'
import {readFileSync, readdirSync, statSync} from 'node:fs'
import path from 'node:path'

import {HELPER_DEX, helperBuild} from '@arc-cli/core'
import {expect} from 'chai'

import {readDex} from './dex-file.js'

const HELPER_DIR = path.dirname(HELPER_DEX)

/** build.sh's hash of the sources: each file under src/ in byte order of its path: the path, NUL, its bytes, NUL. */
function sourcesHash(): string {
  const files: string[] = []
  const walk = (dir: string) => {
    for (const name of readdirSync(path.join(HELPER_DIR, dir))) {
      const rel = `${dir}/${name}`
      if (statSync(path.join(HELPER_DIR, rel)).isDirectory()) walk(rel)
      else if (name.endsWith('.java')) files.push(rel)
    }
  }
  walk('src')
  files.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
  const hash = createHash('sha256')
  for (const file of files)
    hash
      .update(`${file}\0`)
      .update(readFileSync(path.join(HELPER_DIR, file)))
      .update('\0')
  return hash.digest('hex')
}

describe('the on-device helper dex', () => {
  const dex = readFileSync(HELPER_DEX)
  const build = helperBuild()

  it('is a whole dex: magic, size, Adler-32 checksum and SHA-1 signature all hold', () => {
    const file = readDex(dex)
    expect(file.version).to.equal('035')
    const broken = Buffer.from(dex)
    broken[broken.length - 1] = (broken.at(-1) as number) ^ 1
    expect(() => readDex(broken)).to.throw(/checksum/)
    expect(() => readDex(dex.subarray(0, dex.length - 4))).to.throw(/checksum|bytes/)
  })

  it('holds the entry point app_process starts: public static void arc.helper.Main.main(String[])', () => {
    const main = readDex(dex).classes.find((c) => c.descriptor === 'Larc/helper/Main;')
    expect(main, 'class arc.helper.Main').to.not.equal(undefined)
    const entry = main!.directMethods.find((m) => m.name === 'main')
    expect(entry).to.deep.include({descriptor: '([Ljava/lang/String;)V'})
    expect(entry!.accessFlags & 0x9, 'public static').to.equal(0x9)
    expect(build.mainClass).to.equal('arc.helper.Main')
  })

  it('is the file arc-helper.json names, by size and sha256', () => {
    expect(dex.length).to.equal(build.bytes)
    expect(createHash('sha256').update(dex).digest('hex')).to.equal(build.sha256)
  })

  it('was built from the committed sources (build.sh recorded their hash; rebuild after changing them)', () => {
    expect(sourcesHash(), 'sources changed since the dex was built: run packages/core/helper/build.sh').to.equal(
      build.sourcesSha256
    )
  })
})
