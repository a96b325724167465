import {createCanvas, loadImage} from '@napi-rs/canvas'
import {mkdtemp, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'

import {openSnapshot, type ArcConfig} from '@arc-cli/core'
import {toolContext} from '@arc-cli/test-support/tool-context'

import {annotateDevice} from '../src/annotate-device.js'
import type {AnnotateRequest} from '../src/annotate-options.js'

export {dumpXml, type NodeSpec} from '@arc-cli/test-support/dump'

export type RGBA = [number, number, number, number]

/** A flat-colour PNG, the background of synthetic snapshots (so every untouched pixel is known). */
export async function solidPng(width: number, height: number, color = '#404040'): Promise<Buffer> {
  const canvas = createCanvas(width, height)
  const ctx = canvas.getContext('2d')
  ctx.fillStyle = color
  ctx.fillRect(0, 0, width, height)
  return canvas.encode('png')
}

export interface Pixels {
  width: number
  height: number
  at(x: number, y: number): RGBA
}

/** Decodes a PNG or JPEG into its pixels. */
export async function decode(image: Buffer): Promise<Pixels> {
  const img = await loadImage(image)
  const canvas = createCanvas(img.width, img.height)
  const ctx = canvas.getContext('2d')
  ctx.drawImage(img, 0, 0)
  const {data} = ctx.getImageData(0, 0, img.width, img.height)
  return {
    width: img.width,
    height: img.height,
    at(x, y) {
      const i = (y * img.width + x) * 4
      return [data[i], data[i + 1], data[i + 2], data[i + 3]] as RGBA
    },
  }
}

export const isRed = ([r, g, b]: RGBA) => r > 200 && g < 60 && b < 60
export const isGrey = ([r, g, b]: RGBA, level = 0x40) => [r, g, b].every((c) => Math.abs(c - level) <= 2)

export interface SnapshotSpec {
  xml: string
  /** PNG bytes, or omitted for a snapshot without screen.png. */
  png?: Buffer
  meta?: Record<string, unknown>
}

/** Writes a recorded snapshot folder in a temp dir: what `--device <folder>` reads. */
export async function makeSnapshot(spec: SnapshotSpec): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'arc-annotate-'))
  await writeFile(path.join(dir, 'window_dump.xml'), spec.xml)
  if (spec.png) await writeFile(path.join(dir, 'screen.png'), spec.png)
  if (spec.meta)
    await writeFile(path.join(dir, 'meta.json'), JSON.stringify({format: 'arc-snapshot/1', rotation: 0, ...spec.meta}))
  return dir
}

/** Annotates a snapshot folder through the same path the tool uses, collecting warnings. */
export async function annotateSnapshot(dir: string, request: AnnotateRequest = {}, config: ArcConfig = {}) {
  const driver = await openSnapshot(dir)
  const warnings: string[] = []
  const image = await annotateDevice(toolContext(driver, {config, warn: (m) => warnings.push(m)}), request)
  return {image, warnings, pixels: await decode(image.data)}
}
