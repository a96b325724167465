import {toolCommands, type AnyTool} from '@arc-cli/core'

/** The tools this plugin contributes. `annotate` arrives with its issue. */
export const tools: AnyTool[] = []

export const commands = toolCommands(tools)
