import {toolCommands, type AnyTool} from '@arc-cli/core'

import {annotate} from './tools/annotate.js'

export {defaultImageName} from './tools/annotate.js'

export {annotateScreenshot, DEFAULTS, type AnnotateOptions, type AnnotatedImage, type ImageFormat} from './annotate-screenshot.js'
export {annotateDevice} from './annotate-device.js'
export {resolveAnnotateOptions, type AnnotateRequest} from './annotate-options.js'
export type {AnnotationMap, MapMark} from './annotation-map.js'
export {writeFilesAtomically, type OutputFile} from './write-files.js'
export {BUILTIN_PRESETS, type AnnotateStyle} from './style/presets.js'
export {annotateConfigSchema} from './style/annotate-config.js'
export {onScreenElements} from './render/marks.js'
export {countOverlaps} from './render/place-labels.js'

/** The tools this plugin contributes (the MCP server collects them through the `arc:tools` hook). */
export const tools: AnyTool[] = [annotate]

export const commands = toolCommands(tools)
