import {toolCommands, type AnyTool} from '@arc-cli/core'

import {annotate} from './tools/annotate.js'
import {assertScreenshot} from './tools/assert-screenshot.js'
import {screenshot} from './tools/screenshot.js'

/**
 * What oclif imports at start-up (`oclif.commands.target`) and the `arc:tools` hook hands out. Nothing here may
 * load the canvas library: the tool's handler imports the renderer when it runs, so other commands stay fast.
 */
export const tools: AnyTool[] = [annotate, screenshot, assertScreenshot]

export const commands = toolCommands(tools)
