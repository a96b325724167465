import {readdirSync} from 'node:fs'
import path from 'node:path'

import {expect} from 'chai'

import {useEmulator} from './emulator-support.js'

describe('uiautomator dump fallbacks (adbkit against arc emulate)', () => {
  const h = useEmulator()
  const dumps = (from: number) => h.argvSince(from).filter((argv) => argv[0] === 'uiautomator')

  const windowsRefusals = [
    {
      when: "the device's uiautomator does not know it",
      fault: {command: 'uiautomator dump --windows', kind: 'error', message: 'Error: Unknown option: --windows\nusage: uiautomator dump [--compressed] [file]\n', exitCode: 1},
    },
    {
      // AOSP's dumpWindowsToFile returns before writing when the accessibility layer lists no window.
      when: 'it wrote nothing (an empty window list) and reported the dump done',
      fault: {command: 'uiautomator dump --windows', kind: 'garbage', output: 'UI hierchary dumped to: /dev/tty\n'},
    },
  ] as const

  for (const {when, fault} of windowsRefusals) {
    it(`drops --windows when ${when}, and remembers that`, async () => {
      h.emu.device('emu-1').addFault(fault)
      const driver = await h.driver('emu-1')
      try {
        let from = h.emu.commands.length
        const capture = await driver.captureScreen()
        expect(capture.xml).to.match(/^<\?xml[\s\S]*dev\.arc\.demo\.groceries[\s\S]*<\/hierarchy>$/)
        expect(dumps(from)).to.deep.equal([
          ['uiautomator', 'dump', '--windows', '/dev/tty'],
          ['uiautomator', 'dump', '/dev/tty'],
        ])
        from = h.emu.commands.length
        await driver.captureScreen()
        expect(dumps(from)).to.deep.equal([['uiautomator', 'dump', '/dev/tty']])
      } finally {
        await driver.close()
      }
    })
  }

  it('drops --windows when every display it listed had no window (an empty <displays />), as when it wrote nothing', async () => {
    // dumpWindowsToFile skips a display whose window list is empty (or whose Display is gone); when it skipped them
    // all, the serializer closes the empty document element as `<displays />`.
    const output = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><displays />UI hierchary dumped to: /dev/tty\n"
    h.emu.device('emu-1').addFault({command: 'uiautomator dump --windows', kind: 'garbage', output})
    const driver = await h.driver('emu-1')
    try {
      const from = h.emu.commands.length
      const capture = await driver.captureScreen()
      expect(capture.xml).to.include('dev.arc.demo.groceries')
      expect(dumps(from)).to.deep.equal([
        ['uiautomator', 'dump', '--windows', '/dev/tty'],
        ['uiautomator', 'dump', '/dev/tty'],
      ])
    } finally {
      await driver.close()
    }
  })

  it('still refuses a plain dump that wrote nothing', async () => {
    const device = h.emu.device('emu-1')
    for (const flags of ['--windows', '']) {
      device.addFault({command: `uiautomator dump ${flags}`.trim(), kind: 'garbage', output: 'UI hierchary dumped to: /dev/tty\n'})
    }
    const driver = await h.driver('emu-1')
    try {
      const error = await driver.captureScreen().then(() => expect.fail('expected an error'), (e: Error & {code: string}) => e)
      expect(error.code).to.equal('INVALID_DUMP')
      expect(error.message).to.contain('UI hierchary dumped to: /dev/tty')
      expect(device.takeFault(['uiautomator', 'dump'])).to.equal(undefined)
    } finally {
      await driver.close()
    }
  })

  it('dumps to a fresh file when /dev/tty cannot be written, reads it, and leaves no file behind', async () => {
    const device = h.emu.device('emu-1')
    device.addFault({
      command: 'uiautomator dump --windows /dev/tty',
      kind: 'error',
      message: 'ERROR: could not open /dev/tty: No such device or address\n',
      exitCode: 1,
    })
    const driver = await h.driver('emu-1')
    try {
      const from = h.emu.commands.length
      const capture = await driver.captureScreen()
      expect(capture.xml).to.include('dev.arc.demo.groceries')
      const [first, second] = dumps(from)
      expect(first).to.deep.equal(['uiautomator', 'dump', '--windows', '/dev/tty'])
      const file = second?.[3] ?? ''
      expect(second?.slice(0, 3)).to.deep.equal(['uiautomator', 'dump', '--windows'])
      expect(file).to.match(/^\/data\/local\/tmp\/arc-dump-[0-9a-f]{12}\.xml$/)
      const touched = h.argvSince(from).filter((argv) => argv.includes(file)).map((argv) => argv[0])
      // Removed before (never a stale file), dumped, read, removed after.
      expect(touched).to.deep.equal(['rm', 'uiautomator', 'cat', 'rm'])
      expect(readdirSync(path.join(device.files.root, 'data/local/tmp')).filter((f) => f.startsWith('arc-dump-'))).to.deep.equal([])
    } finally {
      await driver.close()
    }
  })
})
