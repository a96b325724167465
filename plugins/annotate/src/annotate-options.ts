import {z, type ArcConfig} from '@arc-cli/core'

import type {AnnotateOptions} from './annotate-screenshot.js'
import {FORMAT_NAMES, normalizeFormat} from './output-format.js'
import {DEFAULTS, MAX_SIZE_RANGE, QUALITY_RANGE} from './style/annotate-config.js'
import {MARK_FILTERS} from './style/presets.js'
import {readAnnotateConfig, resolveStyle} from './style/resolve-style.js'

/** The annotate tool's input: what a caller may ask of the image (the tool, tools/annotate.ts, adds its CLI files). */
export const annotateInput = z.object({
  style: z
    .string()
    .min(1)
    .optional()
    .describe(
      'Preset: default (red dashed boxes, id labels), som (numbered badges), by-type (colour by role), or one from annotate.presets. Default: annotate.style, else default'
    ),
  format: z
    .enum(FORMAT_NAMES)
    .optional()
    .describe(
      'Image format: jpeg (or jpg) or png. Default: the output file extension, else annotate.format, else jpeg'
    ),
  quality: z
    .number()
    .int()
    .min(QUALITY_RANGE.min, `must be ${QUALITY_RANGE.min} to ${QUALITY_RANGE.max}`)
    .max(QUALITY_RANGE.max, `must be ${QUALITY_RANGE.min} to ${QUALITY_RANGE.max}`)
    .optional()
    .describe('JPEG quality 1-100 (default 80, or annotate.quality)'),
  max_size: z
    .number()
    .int()
    .min(MAX_SIZE_RANGE.min, `must be ${MAX_SIZE_RANGE.min} to ${MAX_SIZE_RANGE.max} pixels`)
    .max(MAX_SIZE_RANGE.max, `must be ${MAX_SIZE_RANGE.min} to ${MAX_SIZE_RANGE.max} pixels`)
    .optional()
    .describe('Longest image side in pixels (default 700, or annotate.maxSize); never upscales'),
  only: z.enum(MARK_FILTERS).optional().describe("Which on-screen elements get a mark (default: the preset's, all)"),
})

/**
 * What a caller may ask for (the tool's input schema; `only` overrides the preset's); anything left out comes
 * from the `annotate` config, then the defaults.
 */
export type AnnotateRequest = z.output<typeof annotateInput>

/** Flags win over config, config over defaults (JPEG, quality 80, 700 px long side: spec 000). */
export function resolveAnnotateOptions(
  ctx: {config: ArcConfig; configFile?: string},
  request: AnnotateRequest
): AnnotateOptions {
  const config = readAnnotateConfig(ctx.config, ctx.configFile)
  const resolved = resolveStyle(config, request.style, ctx.configFile)
  if (request.only) resolved.style = {...resolved.style, only: request.only}
  return {
    style: resolved,
    format: normalizeFormat(request.format) ?? config.format ?? DEFAULTS.format,
    quality: request.quality ?? config.quality ?? DEFAULTS.quality,
    maxSize: request.max_size ?? config.maxSize ?? DEFAULTS.maxSize,
  }
}
