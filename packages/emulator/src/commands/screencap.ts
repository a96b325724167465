import {writeFile} from 'node:fs/promises'

import {MAIN_DISPLAY_ID, MULTIPLE_DISPLAYS_WARNING, OTHER_DISPLAY_ID} from '../displays.js'
import {solidPng} from '../png.js'
import type {CommandContext} from './types.js'

/**
 * `screencap [-p] [-d ID] [FILE]`: the current screen's PNG (snapshot screen.png). With `-p` or a `.png`
 * FILE it is PNG; without, the raw format: u32 LE width, height, format 1 (RGBA_8888), colour space 1
 * (sRGB), then opaque white pixels (arc emulate does not decode the PNG). On a device with `otherDisplay`,
 * SurfaceFlinger lists that (off) display first, as on foldables: without `-d`, screencap warns on stderr and
 * captures it, black; `-d` takes a physical display id.
 */
export async function screencap(ctx: CommandContext): Promise<number> {
  const args = ctx.argv.slice(1)
  let png = false
  let file: string | undefined
  let displayId: string | undefined
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string
    if (a === '-p') png = true
    else if (a === '-d') displayId = args[++i] ?? ''
    else if (a === '-h') {
      ctx.err('usage: screencap [-hp] [-d display-id] [FILENAME]\n')
      return 0
    } else if (a.startsWith('-')) {
      ctx.err(`screencap: invalid option -- '${a.slice(1)}'\n`)
      return 1
    } else file = a
  }
  if (file?.endsWith('.png')) png = true
  const screen = ctx.device.screen
  const other = ctx.device.otherDisplay
  const known = other ? [MAIN_DISPLAY_ID, OTHER_DISPLAY_ID] : [MAIN_DISPLAY_ID]
  if (displayId !== undefined && !known.includes(displayId)) {
    ctx.err(`Invalid display id: ${displayId}\n`)
    return 1
  }
  if (other && displayId === undefined) ctx.err(MULTIPLE_DISPLAYS_WARNING)
  const offDisplay = other && displayId !== MAIN_DISPLAY_ID ? other : undefined
  let data: Buffer
  if (png)
    data = offDisplay
      ? solidPng(offDisplay.width, offDisplay.height, 0)
      : ctx.device.capturesBlack
        ? solidPng(screen.width, screen.height, 0)
        : await screen.png()
  else {
    const head = Buffer.alloc(16)
    head.writeUInt32LE(screen.width, 0)
    head.writeUInt32LE(screen.height, 4)
    head.writeUInt32LE(1, 8)
    head.writeUInt32LE(1, 12)
    // Opaque white, or opaque black where the capture is black (a sleeping display, a FLAG_SECURE window).
    const pixels = Buffer.alloc(screen.width * screen.height * 4, ctx.device.capturesBlack ? 0 : 0xff)
    if (ctx.device.capturesBlack) for (let i = 3; i < pixels.length; i += 4) pixels[i] = 0xff
    data = Buffer.concat([head, pixels])
  }
  if (file === undefined) {
    ctx.out(data)
    return 0
  }
  try {
    await writeFile(ctx.device.files.hostPath(file, ctx.cwd), data)
  } catch {
    ctx.err(`Error opening file: ${file} (No such file or directory)\n`)
    return 1
  }
  return 0
}
