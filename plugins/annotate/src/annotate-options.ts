import type {ArcConfig} from '@arc-cli/core'
import type {z} from '@arc-cli/core'

import {DEFAULTS, type AnnotateOptions} from './annotate-screenshot.js'
import {normalizeFormat} from './output-format.js'
import {readAnnotateConfig, resolveStyle} from './style/resolve-style.js'
import type {annotateInput} from './tools/annotate.js'

/**
 * What a caller may ask for (the tool's input schema; `only` overrides the preset's); anything left out comes
 * from the `annotate` config, then the defaults.
 */
export type AnnotateRequest = z.output<typeof annotateInput>

/** Flags win over config, config over defaults (JPEG, quality 80, 700 px long side: spec 000). */
export function resolveAnnotateOptions(
  ctx: {config: ArcConfig; configFile?: string},
  request: AnnotateRequest,
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
