/**
 * The helper's pure Java parts (framing, the dump's XML, gestures, typing with the clipboard put back, the request
 * loop and its idle release) run on this machine's JVM, the Android calls behind a fake (HelperTests.java). Where
 * `java` or `javac` is not installed the suite says so and skips: the committed dex needs no Java.
 */
import {execFileSync, spawnSync} from 'node:child_process'
import {mkdtempSync, readdirSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import path from 'node:path'

import {buildScreenModel, HELPER_DEX, parseUiDump} from '@arc-cli/core'
import {expect} from 'chai'

const HELPER_DIR = path.dirname(HELPER_DEX)
/** The classes that touch Android (android.jar's stubs throw on the JVM); everything else is compiled and tested. */
const ANDROID_ONLY = new Set(['AndroidDevice.java', 'Main.java'])

function has(tool: string): boolean {
  return spawnSync(tool, ['-version'], {stdio: 'ignore'}).status === 0
}

describe('the on-device helper on the JVM (pure parts, Android behind a fake)', function () {
  this.timeout(120_000)
  let classes: string

  before(function () {
    if (!has('javac') || !has('java')) {
      console.log(
        "    (java/javac not installed: the helper's JVM tests are skipped; the committed dex is checked by helper-dex.test.ts)"
      )
      this.skip()
    }
    classes = mkdtempSync(path.join(tmpdir(), 'arc-helper-jvm-'))
    const src = path.join(HELPER_DIR, 'src/arc/helper')
    const sources = readdirSync(src)
      .filter((f) => f.endsWith('.java') && !ANDROID_ONLY.has(f))
      .map((f) => path.join(src, f))
    execFileSync(
      'javac',
      [
        '-nowarn',
        '--release',
        '8',
        '-d',
        classes,
        ...sources,
        path.join(HELPER_DIR, 'test/arc/helper/HelperTests.java'),
      ],
      {stdio: 'pipe'}
    )
  })

  after(() => {
    if (classes) rmSync(classes, {recursive: true, force: true})
  })

  it('passes HelperTests: framing, XML, gestures, typing, the request loop and its idle release', () => {
    const run = spawnSync('java', ['-cp', classes, 'arc.helper.HelperTests'], {encoding: 'utf8'})
    expect(run.stdout + run.stderr).to.match(/^ok \d+ checks\n$/)
    expect(run.status).to.equal(0)
  })

  it("writes a <displays> document arc's own parser reads: every window, text byte for byte, ids as for uiautomator's", () => {
    const xml = execFileSync('java', ['-cp', classes, 'arc.helper.HelperTests', 'sample-dump'], {encoding: 'utf8'})
    const h = parseUiDump(xml, 'the helper dump')
    expect(h.windows.map((w) => w.package)).to.deep.equal(['com.android.systemui', 'com.example', 'com.cast'])
    expect(h.listedWindows?.map((w) => `${w.displayId}:${w.type}:${w.title}:${w.focused}`)).to.deep.equal([
      '0:TYPE_SYSTEM:Status bar:false',
      '0:TYPE_APPLICATION:Example:true',
      '2:TYPE_APPLICATION:Cast:false',
    ])
    const field = h.windows[1]!.children[0]!
    expect(field.text).to.equal('café 中文 👍 & <ok>')
    expect(field.hint).to.equal('Search')
    // A node past the display's edge is clipped to it, as uiautomator's dumper clips.
    expect(h.windows[1]!.children[1]!.bounds).to.deep.equal([900, 2200, 1080, 2300])
    expect(h.windows[2]!.displayId).to.equal(2)
    const model = buildScreenModel({
      xml,
      hierarchy: h,
      screen: {width: 1080, height: 2400, rotation: 0},
      foreground: {},
      allWindows: true,
    })
    expect(model.windows.map((w) => `${w.display} ${w.type} ${w.title ?? '-'} focused:${w.focused}`)).to.deep.equal([
      '0 SYSTEM Status bar focused:false',
      '0 APPLICATION Example focused:true',
      '2 APPLICATION Cast focused:false',
    ])
  })
})
