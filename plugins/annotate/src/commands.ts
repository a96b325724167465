import {toolCommands, type AnyTool} from '@arc-cli/core'

import {annotate} from './tools/annotate.js'
import {assertScreenshot} from './tools/assert-screenshot.js'
import {screenshot} from './tools/screenshot.js'

/**
 * This plugin's tools, which the `arc:tools` hook hands out, and their command classes (the library's). oclif runs a
 * command from its own module (src/commands/<id>.ts, the `pattern` strategy), which imports only its tool. Nothing
 * here may load the canvas library: a tool's handler imports the renderer when it runs.
 */
export const tools: AnyTool[] = [annotate, screenshot, assertScreenshot]

export const commands = toolCommands(tools)
