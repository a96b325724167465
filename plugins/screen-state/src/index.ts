import {toolCommands, type AnyTool} from '@arc-cli/core'

import {getScreenState} from './tools/get-screen-state.js'

export {formatScreenState} from './format-tsv.js'
export {compactRow, formatCompact} from './format-compact.js'
export {getScreenState}

/** The tools this plugin contributes (the MCP server collects them through the `arc:tools` hook). */
export const tools: AnyTool[] = [getScreenState]

export const commands = toolCommands(tools)
