import {z} from '@arc-cli/core'

import {COLOR_HELP, isColor} from './colors.js'
import {MARK_FILTERS, MIN_LABEL_OPACITY} from './presets.js'

/**
 * The `annotate` config section, owned by this plugin. Validated with core's readConfigSection, so an error
 * names the key as written: `annotate.presets.mine.color`.
 */
const color = z.string().refine(isColor, {message: `not a colour: expected ${COLOR_HELP}`})

/** The image formats, the JPEG quality range and the long-side range: one definition for the flags and the config. */
export const IMAGE_FORMATS = ['jpeg', 'png'] as const
export type ImageFormat = (typeof IMAGE_FORMATS)[number]
export const QUALITY_RANGE = {min: 1, max: 100} as const
export const MAX_SIZE_RANGE = {min: 64, max: 8192} as const

const presetOverridesSchema = z
  .object({
    extends: z
      .string()
      .min(1)
      .optional()
      .describe('Preset this one starts from (built-in or another config preset); default `default`.'),
    color: color.optional().describe('Box outline colour.'),
    labelColor: color.optional().describe('Label background colour (default: the box colour).'),
    textColor: z
      .union([z.literal('auto'), color])
      .optional()
      .describe('Label text colour, or `auto` for white or black by contrast.'),
    lineWidth: z.number().min(0.5).max(16).optional().describe('Box outline width in dp (image short side / 360).'),
    dash: z
      .union([z.array(z.number().positive().max(100)).min(2).max(8), z.literal('solid')])
      .optional()
      .describe('Dash pattern in dp, e.g. [6, 3], or `solid`.'),
    fontSize: z.number().min(4).max(64).optional().describe('Label font size in dp.'),
    minFontSize: z
      .number()
      .min(6)
      .max(64)
      .optional()
      .describe('Smallest label font in image pixels (placement fallback).'),
    opacity: z.number().min(MIN_LABEL_OPACITY).max(1).optional().describe('Label background opacity, 0.55 to 1.'),
    labelShape: z.enum(['pill', 'badge']).optional().describe('Label shape.'),
    labelFormat: z.enum(['ref', 'number', 'both', 'type']).optional().describe('What labels show.'),
    maxLabels: z.number().int().min(0).max(10000).optional().describe('At most this many marks; 0 for no limit.'),
    only: z.enum(MARK_FILTERS).optional().describe('Which on-screen elements get a mark.'),
    colorBy: z.enum(['none', 'role']).optional().describe('`role`: colour each mark by its role.'),
    roleColors: z
      .object({button: color.optional(), link: color.optional(), input: color.optional(), other: color.optional()})
      .strict()
      .optional()
      .describe('Colours per role for `colorBy: role`.'),
    maxLabelChars: z.number().int().min(4).max(200).optional().describe('Longest label before it is shortened.'),
  })
  .strict()

export type PresetOverrides = z.output<typeof presetOverridesSchema>

export const annotateConfigSchema = z
  .object({
    style: z.string().min(1).optional().describe('Preset used when --style is not given (default `default`).'),
    format: z.enum(IMAGE_FORMATS).optional().describe('Image format (default jpeg).'),
    quality: z
      .number()
      .int()
      .min(QUALITY_RANGE.min)
      .max(QUALITY_RANGE.max)
      .optional()
      .describe('JPEG quality 1-100 (default 80).'),
    maxSize: z
      .number()
      .int()
      .min(MAX_SIZE_RANGE.min)
      .max(MAX_SIZE_RANGE.max)
      .optional()
      .describe('Longest image side in pixels (default 700); never upscales.'),
    presets: z
      .record(
        z
          .string()
          .regex(
            /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/,
            'a preset name is 1-64 letters, digits, _ . or -, starting with a letter or digit'
          ),
        presetOverridesSchema
      )
      .optional()
      .describe('Custom presets by name.'),
  })
  .strict()

export type AnnotateConfig = z.output<typeof annotateConfigSchema>

/** The image an annotation makes when neither the call nor the config says: JPEG at quality 80, 700 px at most. */
export const DEFAULTS = {format: 'jpeg' as ImageFormat, quality: 80, maxSize: 700}
