/**
 * One exit code, several causes: `details.reason` tells them apart. "app not installed" and "still not visible
 * after 5 scrolls" both exit 8 (DEVICE_COMMAND_FAILED); a script reads which from the --json error. Every reason the
 * sources give is in the documented table (ERROR_REASONS, docs/errors.md).
 */
import {readdir, readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'

import {ERROR_REASONS, exitCodeFor} from '@arc-cli/core'
import {expect} from 'chai'

import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {dumpXml} from '@arc-cli/test-support/dump'
import {ROOT} from '@arc-cli/test-support/paths'
import {runArc} from '@arc-cli/test-support/run-arc'

/** A list whose last row reaches below it: swipes change nothing here (no transition), so it never comes into view. */
const list = dumpXml([
  {
    pkg: 'com.example',
    bounds: [0, 0, 1080, 2400],
    children: [
      {
        cls: 'androidx.recyclerview.widget.RecyclerView',
        res: 'com.example:id/list',
        attrs: {scrollable: 'true'},
        bounds: [0, 200, 1080, 1200],
        children: [
          {cls: 'android.widget.TextView', text: 'Apples', bounds: [0, 200, 1080, 700]},
          {cls: 'android.widget.TextView', text: 'Pears', bounds: [0, 700, 1080, 1200]},
          {cls: 'android.widget.TextView', text: 'Plums', bounds: [0, 1150, 1080, 1650]},
        ],
      },
    ],
  },
])

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, {withFileTypes: true, recursive: true})
  return entries.filter((e) => e.isFile() && e.name.endsWith('.ts')).map((e) => path.join(e.parentPath, e.name))
}

describe('details.reason tells apart the causes one exit code covers', function () {
  this.timeout(120_000)
  const h = useEmulator(async (dir) => {
    await writeFile(path.join(dir, 'list.xml'), list)
    return {devices: [], scenario: {devices: {'emu-1': {screens: {list: path.join(dir, 'list.xml')}}}}}
  })
  const arc = (...args: string[]) => runArc([...args, '--json'], {env: h.env})
  const errorOf = (stdout: string) =>
    (JSON.parse(stdout) as {error: {code: string; details: Record<string, unknown>}}).error

  it('app not installed and still not visible after 5 scrolls: both exit 8, with different reasons', async () => {
    const app = await arc('app', 'open', 'com.example.nope')
    expect(app.code, app.stderr).to.equal(exitCodeFor('DEVICE_COMMAND_FAILED'))
    expect(errorOf(app.stdout)).to.deep.include({code: 'DEVICE_COMMAND_FAILED'})
    expect(errorOf(app.stdout).details).to.include({reason: 'APP_NOT_INSTALLED', package_id: 'com.example.nope'})

    const found = await arc('find', 'text', 'Plums')
    const id = (JSON.parse(found.stdout) as {elements: Array<{id: string}>}).elements[0]?.id as string
    const scroll = await arc('scroll-to', id)
    expect(scroll.code, scroll.stdout).to.equal(exitCodeFor('DEVICE_COMMAND_FAILED'))
    expect(errorOf(scroll.stdout).details).to.include({reason: 'NOT_VISIBLE_AFTER_SCROLLS', element_id: id, scrolls: 5})
  })

  it('every reason the sources give is documented (ERROR_REASONS, rendered into docs/errors.md)', async () => {
    const files = [
      ...(await sourceFiles(path.join(ROOT, 'src'))),
      ...(await sourceFiles(path.join(ROOT, 'packages', 'core', 'src'))),
      ...(await sourceFiles(path.join(ROOT, 'plugins'))).filter((f) => f.includes(`${path.sep}src${path.sep}`)),
    ]
    const given = new Set<string>()
    for (const file of files) {
      for (const m of (await readFile(file, 'utf8')).matchAll(/reason: '([A-Z_]+)'/g)) given.add(m[1] as string)
    }
    expect(given.size).to.be.above(10)
    const documented = new Set(ERROR_REASONS.map((r) => r.reason))
    expect([...given].filter((r) => !documented.has(r))).to.deep.equal([])
    const doc = await readFile(path.join(ROOT, 'docs', 'errors.md'), 'utf8')
    for (const {code, reason} of ERROR_REASONS) expect(doc).to.include(`| \`${code}\` | \`${reason}\` |`)
  })
})
