import path from 'node:path'

import {InvalidInputError} from '@arc-cli/core'

import type {ImageFormat} from './style/annotate-config.js'

/** Names --format accepts: the formats, and `jpg` for jpeg (the name most files carry). */
export const FORMAT_NAMES = ['jpeg', 'jpg', 'png'] as const
export type FormatName = (typeof FORMAT_NAMES)[number]

const BY_EXTENSION: Record<string, ImageFormat> = {'.jpg': 'jpeg', '.jpeg': 'jpeg', '.png': 'png'}

export function normalizeFormat(name: FormatName | undefined): ImageFormat | undefined {
  return name === 'jpg' ? 'jpeg' : name
}

/**
 * The image format for an output file: the file's extension decides (`x.png` is PNG, `x.jpg` JPEG), so the bytes
 * always match the name; --format that says otherwise is refused rather than silently obeyed or ignored, and so is
 * an extension of a format arc does not write (`x.gif` would hold JPEG bytes). A name without an extension (or
 * stdout, `-`) takes --format, else the config, else the default.
 */
export function formatForOutput(
  file: string | undefined,
  requested: FormatName | undefined,
  input: string
): ImageFormat | undefined {
  const wanted = normalizeFormat(requested)
  if (!file || file === '-') return wanted
  const extension = path.extname(file).toLowerCase()
  const fromName = Object.hasOwn(BY_EXTENSION, extension) ? BY_EXTENSION[extension] : undefined
  if (!fromName && extension !== '') {
    throw new InvalidInputError(
      `${input} ${file}: arc writes PNG and JPEG only, not ${extension.slice(1)}; name the file .png, .jpg or .jpeg (or leave the extension out and pick --format)`,
      {details: {input: input.replace(/^--/, ''), path: file, allowed: Object.keys(BY_EXTENSION)}}
    )
  }
  if (!fromName) return wanted
  if (wanted && wanted !== fromName) {
    throw new InvalidInputError(
      `--format ${requested} contradicts ${input} ${file}, whose extension means ${fromName}; drop --format or change the extension`,
      {details: {input: 'format', format: wanted, path: file}}
    )
  }
  return fromName
}
