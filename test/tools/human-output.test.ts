/**
 * Tools whose spec text is JSON for agents print people's text on the CLI (an aligned table, plain lines) and keep
 * their JSON under --json; `arc emulate` serves the demo screen, its apps and a logcat with a hostile line.
 */
import {displayWidth, formatBytes, formatTable, printable, printableLine} from '@arc-cli/core'
import {expect} from 'chai'

import {runArc} from '@arc-cli/test-support/run-arc'
import {useDemoDevice} from '@arc-cli/test-support/emulator-support'

describe('human text on the CLI, JSON with --json', () => {
  const h = useDemoDevice({
    logcat: [
      {time: '01-15 10:30:01.000', level: 'I', tag: 'Shop', message: 'opened'},
      {time: '01-15 10:30:02.000', level: 'E', tag: 'Shop', message: 'bad \u001b[31mred\u001b[0m\tend'},
    ],
  })
  const arc = (...args: string[]) => runArc(args, {env: h.env})

  it('app list prints an aligned table; --json gives {apps: [...]}', async () => {
    const [table, json] = await Promise.all([
      arc('app', 'list', '--filter', 'system', '--name-query', 'settings'),
      arc('app', 'list', '--filter', 'system', '--name-query', 'settings', '--json'),
    ])
    expect(table.code, table.stderr).to.equal(0)
    const apps = JSON.parse(json.stdout).apps as Array<{
      package_id: string
      version_name: string | null
      version_code: number | null
    }>
    expect(apps.find((a) => a.package_id === 'com.android.settings')).to.include({version_name: '14', version_code: 34})
    const lines = table.stdout.trimEnd().split('\n')
    expect(lines[0]).to.match(/^PACKAGE +VERSION +TYPE$/)
    expect(lines.slice(1).map((l) => l.split(/ +/)[0])).to.deep.equal(apps.map((a) => a.package_id))
    // Version name, then the code in brackets.
    expect(lines).to.include(
      `com.android.settings${' '.repeat(lines[0]!.indexOf('VERSION') - 'com.android.settings'.length)}14 (34)  system`
    )
    expect((await arc('app', 'list', '--name-query', 'no-such-app')).stdout).to.equal('No apps match.\n')
  })

  it('logs prints the lines themselves, control characters written out; --json keeps the spec object', async () => {
    const [plain, json] = await Promise.all([
      arc('logs', '--last-lines', '2', '--level', 'V'),
      arc('logs', '--last-lines', '2', '--level', 'V', '--json'),
    ])
    expect(plain.code, plain.stderr).to.equal(0)
    expect(plain.stdout).to.equal(
      '01-15 10:30:01.000 I/Shop: opened\n01-15 10:30:02.000 E/Shop: bad \\x1b[31mred\\x1b[0m\tend\n'
    )
    const data = JSON.parse(json.stdout)
    expect(data).to.deep.equal({
      logs: '01-15 10:30:01.000 I/Shop: opened\n01-15 10:30:02.000 E/Shop: bad \u001b[31mred\u001b[0m\tend',
      line_count: 2,
      truncated: false,
    })
    expect((await arc('logs', '--tag', 'Nobody')).stdout).to.equal('No log lines match.\n')
  })

  it('files locations and files list print tables', async () => {
    const locations = await arc('files', 'locations')
    expect(locations.stdout.split('\n')[0]).to.match(/^ID +PATH +FREE +ACCESS +DESCRIPTION$/)
    expect(locations.stdout).to.match(/\ntmp +\/data\/local\/tmp +(\d+(\.\d)? [KMGT]?B|-) +rwd +Shell scratch folder/)
    expect(locations.stdout).to.match(/\ndownloads +\/sdcard\/Download +\S+( \S+)? +rw- +Shared Download folder/)
    expect((await arc('files', 'list', 'tmp')).stdout).to.equal('The folder is empty.\n')
    expect((await arc('files', 'write', 'tmp', 'h.txt', '--content', 'hello')).code).to.equal(0)
    try {
      const [list, json] = await Promise.all([arc('files', 'list', 'tmp'), arc('files', 'list', 'tmp', '--json')])
      const {files} = JSON.parse(json.stdout) as {files: Array<{name: string; size: number; last_modified: number}>}
      const modified = `${new Date(files[0]!.last_modified).toISOString().slice(0, 19)}Z`
      expect(list.stdout).to.equal(`NAME   SIZE  MODIFIED\nh.txt  5 B   ${modified}\n`)
    } finally {
      await arc('files', 'delete', 'tmp', 'h.txt')
    }
  })

  it('files list lines up names in Chinese, Japanese, Korean, emoji and with combining accents', async () => {
    const names = ['报告.txt', 'スクリーン.png', '한국어.txt', '🙂👍🏽.txt', 'cafe\u0301.txt', 'plain.txt']
    const written = await Promise.all(
      names.map((name, i) => arc('files', 'write', 'tmp', name, '--content', 'x'.repeat(i + 1)))
    )
    expect(written.map((w) => w.code)).to.deep.equal(names.map(() => 0))
    try {
      const [head, ...lines] = (await arc('files', 'list', 'tmp')).stdout.trimEnd().split('\n')
      expect(lines.map((l) => l.split(/ {2,}/)[0]).sort()).to.deep.equal([...names].sort())
      // NAME, SIZE and MODIFIED start at their header's terminal column on every line, whatever the name's script.
      for (const line of lines) {
        let from = 0
        const starts = line.split(/ {2,}/).map((cell) => (from = line.indexOf(cell, from)))
        expect(
          starts.map((at) => displayWidth(line.slice(0, at))),
          line
        ).to.deep.equal(['NAME', 'SIZE', 'MODIFIED'].map((h) => head!.indexOf(h)))
      }
    } finally {
      await Promise.all(names.map((name) => arc('files', 'delete', 'tmp', name)))
    }
  })

  it('find prints the rows of a screen-state table, or says nothing matched', async () => {
    const [table, json] = await Promise.all([arc('find', 'text', 'milk'), arc('find', 'text', 'milk', '--json')])
    const [element] = JSON.parse(json.stdout).elements
    expect(table.stdout.split('\n')[0]).to.match(/^ID +CLASS +TEXT +DESC +RES_ID +BOUNDS +FLAGS$/)
    const {left, top, right, bottom} = element.bounds
    expect(table.stdout.split('\n')[1]).to.match(
      new RegExp(
        `^${element.id} +TextView +Oat milk +- +dev\\.arc\\.demo\\.groceries:id/item_name +${left},${top},${right},${bottom} +on,ena$`
      )
    )
    expect((await arc('find', 'text', 'zzz')).stdout).to.equal('No element matches text "zzz".\n')
  })

  it('wait element and wait idle print one line (and the element), --json the spec object', async () => {
    const found = await arc('wait', 'element', 'text', 'Oat milk', '--timeout', '5000')
    expect(found.stdout).to.match(/^Found after \d+ ms \(1 read\):\nID +CLASS/)
    expect(found.stdout).to.include('Oat milk')
    const missing = await arc('wait', 'element', 'text', 'zzz', '--timeout', '600', '--json')
    expect(JSON.parse(missing.stdout)).to.include({found: false})
    const idle = await arc('wait', 'idle', '--timeout', '5000')
    expect(idle.stdout).to.match(/^UI is idle after \d+ ms \(similarity 100%\)\n$/)
  })
})

describe('human-text helpers', () => {
  it('formatTable aligns columns, shows - for empty cells and writes control characters out', () => {
    expect(
      formatTable(
        ['A', 'BB', 'C'],
        [
          ['xyz', '', 'last'],
          ['1', '22\u001b', ''],
        ]
      )
    ).to.equal('A    BB      C\nxyz  -       last\n1    22\\x1b  -')
  })

  it('printable escapes every control character and backslash; printableLine keeps tabs and backslashes', () => {
    expect(printable('é 漢字 🙂\ta\\b\n\u0007\u009b')).to.equal('é 漢字 🙂\\ta\\\\b\\n\\x07\\x9b')
    expect(printableLine('\tat C:\\x\r\u001b[0m')).to.equal('\tat C:\\x\\r\\x1b[0m')
  })

  it('formatBytes', () => {
    expect([0, 1023, 1024, 1536, 10 * 1024 * 1024, 3.25 * 1024 ** 3].map(formatBytes)).to.deep.equal([
      '0 B',
      '1023 B',
      '1.0 KB',
      '1.5 KB',
      '10 MB',
      '3.3 GB',
    ])
  })
})
