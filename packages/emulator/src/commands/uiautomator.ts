import {mkdir, writeFile} from 'node:fs/promises'
import path from 'node:path'

import type {CommandContext} from './types.js'
import {windowsDocument} from './windows-dump.js'

const USAGE = `Usage: uiautomator <subcommand> [options]

Available subcommands:

help: displays help message

runtest: executes UI automation tests
    runtest <class spec> [options]

dump: creates an XML dump of current UI hierarchy
    dump [--verbose][file]
      [--compressed]: dumps compressed layout information.
      [file]: the location where the dumped XML should be stored, default is
      /sdcard/window_dump.xml

events: prints out accessibility events until terminated
`

/**
 * `uiautomator dump [--compressed] [--windows] [file]`: writes the current screen's XML to the file (default
 * /sdcard/window_dump.xml) and prints `UI hierchary dumped to: <file>` (sic). `/dev/tty` is the caller's
 * terminal: the XML (no trailing newline) then the message go to stdout. `--windows` is ignored, as by AOSP's
 * uiautomator, unless the scenario gives the device a uiautomator that has it (`windowsDump`): then every window
 * comes in the `<displays>` form (windows-dump.ts).
 */
export async function uiautomator(ctx: CommandContext): Promise<number> {
  const [, sub, ...rest] = ctx.argv
  if (sub !== 'dump') {
    ctx.out(USAGE)
    return sub === 'help' || sub === undefined ? 0 : 1
  }
  const file = rest.find((a) => !a.startsWith('--')) ?? '/sdcard/window_dump.xml'
  const xml = rest.includes('--windows') && ctx.device.windowsDump ? windowsDocument(ctx.device) : ctx.device.dumpXml()
  if (file === '/dev/tty' || file === '/dev/stdout') {
    ctx.out(xml)
  } else {
    const host = ctx.device.files.hostPath(file, ctx.cwd)
    try {
      await mkdir(path.dirname(host), {recursive: true})
      await writeFile(host, xml)
    } catch (error) {
      ctx.err(`java.io.FileNotFoundException: ${file}: open failed: ${(error as NodeJS.ErrnoException).code ?? 'EIO'}\n`)
      return 0
    }
  }
  ctx.out(`UI hierchary dumped to: ${ctx.device.files.normalize(file, ctx.cwd)}\n`)
  return 0
}
