import {crc32, deflateSync} from 'node:zlib'

/**
 * Generators of hostile inputs for the standing hostile suite (test/hostile) and the hostile benchmark: dumps
 * that are deep, huge, full of entity tricks or control characters, and PNGs whose headers lie.
 */
const HEAD = `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>`

function nodeAttrs(i: number, bounds: string, extra = ''): string {
  return `index="${i}" text="item ${i}" resource-id="" class="android.widget.TextView" package="com.example" content-desc="" clickable="${i % 3 === 0}" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" bounds="${bounds}"${extra}`
}

/** A chain of `depth` nested nodes. */
export function deepDump(depth: number): string {
  const open = Array.from({length: depth}, (_, i) => `<node ${nodeAttrs(i, '[0,0][1080,2400]')}>`).join('')
  return `${HEAD}<hierarchy rotation="0">${open}${'</node>'.repeat(depth)}</hierarchy>`
}

/**
 * One window holding `count` leaf nodes on a 1080x2400 screen, in a grid of 60 px rows (so most are on screen
 * and overlap: the worst case for label placement). 163,000 of them make a dump of about 50 MB.
 */
export function hugeDump(count: number): string {
  const rows: string[] = []
  for (let i = 0; i < count; i++) {
    const x = (i * 37) % 1000
    const y = (i * 53) % 2340
    rows.push(`<node ${nodeAttrs(i, `[${x},${y}][${x + 80},${y + 60}]`)} />`)
  }
  return `${HEAD}<hierarchy rotation="0"><node ${nodeAttrs(-1, '[0,0][1080,2400]')}>${rows.join('')}</node></hierarchy>`
}

export const BILLION_LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<hierarchy rotation="0"><node ${nodeAttrs(0, '[0,0][1080,2400]').replace('item 0', '&lol3;')} /></hierarchy>`

export const XXE = `<?xml version="1.0"?>
<!DOCTYPE hierarchy [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<hierarchy rotation="0"><node ${nodeAttrs(0, '[0,0][1080,2400]').replace('item 0', '&xxe;')} /></hierarchy>`

export const XXE_EXTERNAL_DTD = `<?xml version="1.0"?>
<!DOCTYPE hierarchy SYSTEM "http://127.0.0.1:9/evil.dtd">
<hierarchy rotation="0"><node ${nodeAttrs(0, '[0,0][1080,2400]')} /></hierarchy>`

/** A dump whose text carries an ESC colour sequence, a BEL, a C1 CSI and a DEL, as character references. */
export const CONTROL_CHARS_DUMP = `${HEAD}<hierarchy rotation="0"><node ${nodeAttrs(0, '[0,0][1080,2400]').replace(
  'text="item 0"',
  'text="&#27;[31mRED&#27;[0m&#7;BEL&#x9b;2J&#127;"'
)} /></hierarchy>`

/** A dump re-encoded as Latin-1 (é as one byte 0xE9): not UTF-8. */
export function latin1Dump(): Buffer {
  return Buffer.from(
    `${HEAD}<hierarchy rotation="0"><node ${nodeAttrs(0, '[0,0][1080,2400]').replace('item 0', 'café')} /></hierarchy>`,
    'latin1'
  )
}

/** The same dump as UTF-16LE with a BOM (what some Windows tools write). */
export function utf16Dump(): Buffer {
  const text = `${HEAD}<hierarchy rotation="0"><node ${nodeAttrs(0, '[0,0][1080,2400]')} /></hierarchy>`
  return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, 'latin1')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, 'latin1'), data])), 0)
  return Buffer.concat([head, data, crc])
}

function ihdr(width: number, height: number): Buffer {
  const data = Buffer.alloc(13)
  data.writeUInt32BE(width, 0)
  data.writeUInt32BE(height, 4)
  data[8] = 8 // bit depth
  data[9] = 6 // RGBA
  return chunk('IHDR', data)
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/** A tiny PNG (every CRC valid) whose header claims `width`x`height`: the 69-byte 20000x20000 bomb. */
export function lyingPng(width: number, height: number): Buffer {
  return Buffer.concat([
    SIGNATURE,
    ihdr(width, height),
    chunk('IDAT', deflateSync(Buffer.alloc(1))),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

/** A PNG of the given size, every CRC valid, whose IDAT holds random bytes instead of zlib data. */
export function garbagePixelsPng(width: number, height: number, seed = 1): Buffer {
  let x = seed
  const noise = Buffer.alloc(4096)
  for (let i = 0; i < noise.length; i++) noise[i] = (x = (x * 1103515245 + 12345) >>> 0) >>> 24
  return Buffer.concat([SIGNATURE, ihdr(width, height), chunk('IDAT', noise), chunk('IEND', Buffer.alloc(0))])
}

/** A real, solid black PNG (a secure window's screenshot): valid pixel data that is all zero. */
export function blackPng(width: number, height: number): Buffer {
  const stride = 1 + width * 4
  const raw = Buffer.alloc(height * stride) // filter 0 and RGB 0 on every row
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) raw[y * stride + 1 + x * 4 + 3] = 255 // opaque
  return Buffer.concat([
    SIGNATURE,
    ihdr(width, height),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}
