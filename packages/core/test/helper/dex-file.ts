/**
 * A reader for the parts of a dex file the helper's tests check (Dalvik Executable format, source.android.com
 * "dex-format"): the header with its Adler-32 checksum and SHA-1 signature, and the class definitions with their
 * direct methods, so a test can prove the committed dex is whole and holds the entry point.
 */
import {createHash} from 'node:crypto'

export interface DexMethod {
  name: string
  /** The method's shorty-free descriptor: `([Ljava/lang/String;)V`. */
  descriptor: string
  accessFlags: number
}

export interface DexClass {
  descriptor: string
  accessFlags: number
  directMethods: DexMethod[]
}

export interface DexFile {
  version: string
  classes: DexClass[]
}

/** Adler-32 (zlib's), which the dex header's checksum is of every byte after it. */
export function adler32(data: Buffer): number {
  let a = 1
  let b = 0
  for (let i = 0; i < data.length;) {
    const end = Math.min(i + 3800, data.length)
    for (; i < end; i++) {
      a += data[i] as number
      b += a
    }
    a %= 65521
    b %= 65521
  }
  return ((b << 16) | a) >>> 0
}

function uleb(data: Buffer, at: {pos: number}): number {
  let result = 0
  let shift = 0
  for (;;) {
    const byte = data[at.pos++]
    if (byte === undefined) throw new Error('uleb128 runs past the end of the dex')
    result |= (byte & 0x7f) << shift
    if (!(byte & 0x80)) return result >>> 0
    shift += 7
    if (shift > 28) throw new Error('uleb128 longer than 5 bytes')
  }
}

/** Parses and checks a dex; throws naming what is wrong (bad magic, size, checksum, signature, an index out of range). */
export function readDex(data: Buffer): DexFile {
  if (data.length < 0x70) throw new Error(`a dex is at least 112 bytes; this is ${data.length}`)
  const magic = data.subarray(0, 8).toString('latin1')
  const m = /^dex\n(\d{3})\0$/.exec(magic)
  if (!m) throw new Error(`bad dex magic ${JSON.stringify(magic)}`)
  const u32 = (at: number) => data.readUInt32LE(at)
  const u16 = (at: number) => data.readUInt16LE(at)
  if (u32(8) !== adler32(data.subarray(12)))
    throw new Error('the dex checksum (Adler-32 of bytes 12 on) does not match')
  if (!createHash('sha1').update(data.subarray(32)).digest().equals(data.subarray(12, 32)))
    throw new Error('the dex signature (SHA-1 of bytes 32 on) does not match')
  if (u32(32) !== data.length) throw new Error(`the dex header says ${u32(32)} bytes; the file has ${data.length}`)
  if (u32(36) !== 0x70) throw new Error(`header_size is ${u32(36)}, not 0x70`)
  if (u32(40) !== 0x12345678) throw new Error('endian_tag is not little-endian')
  const [stringIdsSize, stringIdsOff, typeIdsSize, typeIdsOff, protoIdsSize, protoIdsOff] = [
    u32(56),
    u32(60),
    u32(64),
    u32(68),
    u32(72),
    u32(76),
  ]
  const [methodIdsSize, methodIdsOff, classDefsSize, classDefsOff] = [u32(88), u32(92), u32(96), u32(100)]
  const within = (off: number, size: number, what: string) => {
    if (off + size > data.length) throw new Error(`${what} runs past the end of the dex`)
  }
  within(stringIdsOff, stringIdsSize * 4, 'string_ids')
  within(typeIdsOff, typeIdsSize * 4, 'type_ids')
  within(protoIdsOff, protoIdsSize * 12, 'proto_ids')
  within(methodIdsOff, methodIdsSize * 8, 'method_ids')
  within(classDefsOff, classDefsSize * 32, 'class_defs')

  const string = (index: number): string => {
    if (index >= stringIdsSize) throw new Error(`string index ${index} out of range`)
    const at = {pos: u32(stringIdsOff + index * 4)}
    uleb(data, at) // length in UTF-16 units
    const end = data.indexOf(0, at.pos)
    if (end < 0) throw new Error(`string ${index} has no terminator`)
    return data.subarray(at.pos, end).toString('utf8') // MUTF-8: the same as UTF-8 for what the helper names
  }
  const type = (index: number): string => {
    if (index >= typeIdsSize) throw new Error(`type index ${index} out of range`)
    return string(u32(typeIdsOff + index * 4))
  }
  const proto = (index: number): string => {
    if (index >= protoIdsSize) throw new Error(`proto index ${index} out of range`)
    const base = protoIdsOff + index * 12
    const returns = type(u32(base + 4))
    const paramsOff = u32(base + 8)
    const params: string[] = []
    if (paramsOff !== 0) {
      const n = u32(paramsOff)
      for (let i = 0; i < n; i++) params.push(type(u16(paramsOff + 4 + i * 2)))
    }
    return `(${params.join('')})${returns}`
  }
  const method = (index: number, accessFlags: number): DexMethod => {
    if (index >= methodIdsSize) throw new Error(`method index ${index} out of range`)
    const base = methodIdsOff + index * 8
    return {name: string(u32(base + 4)), descriptor: proto(u16(base + 2)), accessFlags}
  }

  const classes: DexClass[] = []
  for (let i = 0; i < classDefsSize; i++) {
    const base = classDefsOff + i * 32
    const cls: DexClass = {descriptor: type(u32(base)), accessFlags: u32(base + 4), directMethods: []}
    const classDataOff = u32(base + 24)
    if (classDataOff !== 0) {
      const at = {pos: classDataOff}
      const staticFields = uleb(data, at)
      const instanceFields = uleb(data, at)
      const direct = uleb(data, at)
      uleb(data, at) // virtual methods
      for (let f = 0; f < staticFields + instanceFields; f++) {
        uleb(data, at)
        uleb(data, at)
      }
      let index = 0
      for (let d = 0; d < direct; d++) {
        index += uleb(data, at)
        const flags = uleb(data, at)
        uleb(data, at) // code_off
        cls.directMethods.push(method(index, flags))
      }
    }
    classes.push(cls)
  }
  return {version: m[1] as string, classes}
}
