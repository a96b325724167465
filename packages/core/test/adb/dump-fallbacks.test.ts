import {readdirSync} from 'node:fs'
import path from 'node:path'

import {expect} from 'chai'

import {DEMO_DIR, useEmulator} from '@arc-cli/test-support/emulator-support'

describe('uiautomator dump fallbacks (adbkit against arc emulate)', () => {
  // What a device showed of its uiautomator is remembered for the process, so each test has a device of its own.
  const serials = Array.from({length: 10}, (_, i) => `emu-${i + 1}`)
  const h = useEmulator({devices: serials.map((serial) => ({serial, snapshot: DEMO_DIR}))})
  let next = 0
  const dumps = (from: number) => h.argvSince(from).filter((argv) => argv[0] === 'uiautomator')
  /** A device no test used yet, and a driver for it. */
  const fresh = async () => {
    const serial = serials[next++] as string
    return {serial, device: h.emu.device(serial), driver: await h.driver(serial)}
  }

  it("drops --windows when the device's uiautomator does not know it, and remembers that for the process", async () => {
    const message = 'Error: Unknown option: --windows\nusage: uiautomator dump [--compressed] [file]\n'
    const {serial, device, driver} = await fresh()
    device.addFault({command: 'uiautomator dump --windows', kind: 'error', message, exitCode: 1})
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
      // Another driver of the same device in this process (the next MCP call, the next batch line) knows it too.
      const again = await h.driver(serial)
      from = h.emu.commands.length
      await again.captureScreen()
      await again.close()
      expect(dumps(from)).to.deep.equal([['uiautomator', 'dump', '/dev/tty']])
    } finally {
      await driver.close()
    }
  })

  const done = 'UI hierchary dumped to: /dev/tty\n'
  const head = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"
  const nothingUsable = [
    // AOSP's dumpWindowsToFile returns before writing when the accessibility layer lists no window.
    {what: 'no XML at all, yet the dump reported done', output: done},
    // It skips a display whose window list is empty (or whose Display is gone); when it skipped them all, the
    // serializer closes the empty document element as `<displays />`.
    {what: 'an empty <displays />', output: `${head}<displays />${done}`},
    // A window whose root the accessibility layer did not give is written without a tree.
    {
      what: 'windows without their trees',
      output: `${head}<displays><display id="0"><window index="0" title="Groceries" bounds="[0,0][1080,2400]" active="true" focused="true" accessibility-focused="false" id="7" layer="0" type="TYPE_APPLICATION" /></display></displays>${done}`,
    },
  ]

  for (const {what, output} of nothingUsable) {
    it(`asks the same dump again without --windows when it gave ${what}; the second time, stops asking for it`, async () => {
      const {device, driver} = await fresh()
      device.addFault({command: 'uiautomator dump --windows', kind: 'garbage', output, times: 2})
      try {
        for (const dumped of [
          [
            ['uiautomator', 'dump', '--windows', '/dev/tty'],
            ['uiautomator', 'dump', '/dev/tty'],
          ],
          [
            ['uiautomator', 'dump', '--windows', '/dev/tty'],
            ['uiautomator', 'dump', '/dev/tty'],
          ],
          [['uiautomator', 'dump', '/dev/tty']],
        ]) {
          const from = h.emu.commands.length
          const capture = await driver.captureScreen()
          expect(capture.xml).to.match(/^<\?xml[\s\S]*dev\.arc\.demo\.groceries[\s\S]*<\/hierarchy>$/)
          expect(dumps(from)).to.deep.equal(dumped)
        }
      } finally {
        await driver.close()
      }
    })
  }

  it('counts only misses in a row: a usable --windows dump in between keeps the flag', async () => {
    const {device, driver} = await fresh()
    device.windowsDump = true
    const windows = ['uiautomator', 'dump', '--windows', '/dev/tty']
    const plain = ['uiautomator', 'dump', '/dev/tty']
    try {
      for (const [miss, dumped] of [
        [true, [windows, plain]],
        [false, [windows]],
        [true, [windows, plain]],
        [false, [windows]],
      ] as const) {
        if (miss) device.addFault({command: 'uiautomator dump --windows', kind: 'garbage', output: done})
        const from = h.emu.commands.length
        const capture = await driver.captureScreen()
        expect(capture.hierarchy?.listedWindows === undefined).to.equal(miss)
        expect(dumps(from)).to.deep.equal(dumped)
      }
    } finally {
      await driver.close()
    }
  })

  it('dumps to a file when a plain dump to /dev/tty also wrote nothing: the tty is what fails there, not --windows', async () => {
    const {device, driver} = await fresh()
    device.addFault({command: 'uiautomator dump --windows /dev/tty', kind: 'garbage', output: done})
    device.addFault({command: 'uiautomator dump /dev/tty', kind: 'garbage', output: done})
    try {
      let from = h.emu.commands.length
      expect((await driver.captureScreen()).xml).to.include('dev.arc.demo.groceries')
      const [windows, plain, file] = dumps(from)
      expect([windows, plain]).to.deep.equal([
        ['uiautomator', 'dump', '--windows', '/dev/tty'],
        ['uiautomator', 'dump', '/dev/tty'],
      ])
      expect(file?.slice(0, 2)).to.deep.equal(['uiautomator', 'dump'])
      expect(file?.[2]).to.match(/^\/data\/local\/tmp\/arc-dump-[0-9a-f]{12}\.xml$/)
      // One miss does not cost the flag: the next dump goes to a file, with --windows.
      from = h.emu.commands.length
      await driver.captureScreen()
      expect(dumps(from).map((argv) => argv.slice(0, 3))).to.deep.equal([['uiautomator', 'dump', '--windows']])
    } finally {
      await driver.close()
    }
  })

  it('refuses a dump that wrote nothing even to a file, with advice for a device, not for a file', async () => {
    const {device, driver} = await fresh()
    device.addFault({command: 'uiautomator dump --windows /dev/tty', kind: 'garbage', output: done})
    device.addFault({command: 'uiautomator dump /dev/tty', kind: 'garbage', output: done})
    device.addFault({command: 'uiautomator dump', kind: 'garbage', output: done})
    try {
      const error = await driver.captureScreen().then(
        () => expect.fail('expected an error'),
        (e: Error & {code: string; actions: string[]}) => e
      )
      expect(error.code).to.equal('INVALID_DUMP')
      expect(error.message).to.contain('UI hierchary dumped to:')
      expect(error.actions.join(' ')).to.contain('arc doctor').and.not.contain('window_dump.xml')
      expect(device.takeFault(['uiautomator', 'dump'])).to.equal(undefined)
    } finally {
      await driver.close()
    }
  })

  it('dumps to a fresh file when /dev/tty cannot be written, reads it, and leaves no file behind', async () => {
    const {device, driver} = await fresh()
    device.addFault({
      command: 'uiautomator dump --windows /dev/tty',
      kind: 'error',
      message: 'ERROR: could not open /dev/tty: No such device or address\n',
      exitCode: 1,
    })
    try {
      const from = h.emu.commands.length
      const capture = await driver.captureScreen()
      expect(capture.xml).to.include('dev.arc.demo.groceries')
      const [first, second] = dumps(from)
      expect(first).to.deep.equal(['uiautomator', 'dump', '--windows', '/dev/tty'])
      const file = second?.[3] ?? ''
      expect(second?.slice(0, 3)).to.deep.equal(['uiautomator', 'dump', '--windows'])
      expect(file).to.match(/^\/data\/local\/tmp\/arc-dump-[0-9a-f]{12}\.xml$/)
      const touched = h
        .argvSince(from)
        .filter((argv) => argv.includes(file))
        .map((argv) => argv[0])
      // Removed before (never a stale file), dumped, read, removed after.
      expect(touched).to.deep.equal(['rm', 'uiautomator', 'cat', 'rm'])
      expect(
        readdirSync(path.join(device.files.root, 'data/local/tmp')).filter((f) => f.startsWith('arc-dump-'))
      ).to.deep.equal([])
    } finally {
      await driver.close()
    }
  })
})
