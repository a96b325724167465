import type {CommandContext} from './types.js'

/** `wm size [WxH|reset]`, `wm density [N|reset]`: natural (portrait) physical values plus any override. */
export function wm(ctx: CommandContext): number {
  const [, sub, value] = ctx.argv
  const device = ctx.device
  if (sub === 'size') {
    if (value === undefined) {
      const p = device.physicalSize
      ctx.out(`Physical size: ${p.width}x${p.height}\n`)
      const o = device.wmSize
      // As on a device, an override equal to the physical value is none (`dumpsys window displays` agrees).
      if (o && (o.width !== p.width || o.height !== p.height)) ctx.out(`Override size: ${o.width}x${o.height}\n`)
    } else if (value === 'reset') device.wmSize = undefined
    else {
      const m = /^(\d+)x(\d+)$/.exec(value)
      if (!m) {
        ctx.err(`Error: bad size ${value}\n`)
        return 255
      }
      device.wmSize = {width: Number(m[1]), height: Number(m[2])}
    }
    return 0
  }
  if (sub === 'density') {
    if (value === undefined) {
      ctx.out(`Physical density: ${device.screen.density}\n`)
      if (device.wmDensity && device.wmDensity !== device.screen.density)
        ctx.out(`Override density: ${device.wmDensity}\n`)
    } else if (value === 'reset') device.wmDensity = undefined
    else if (/^\d+$/.test(value)) device.wmDensity = Number(value)
    else {
      ctx.err(`Error: bad number ${value}\n`)
      return 255
    }
    return 0
  }
  if (sub === 'dismiss-keyguard') {
    device.dismissKeyguard()
    return 0
  }
  ctx.err(`Unknown command: ${sub ?? ''}\n`)
  return 255
}
