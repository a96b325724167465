import type {AnyTool} from '@arc-cli/core'

/**
 * The device tools of arc's oclif core, one file each beside this one. Adding a tool: write its file with
 * defineTool, add it here, add a test; its CLI command and MCP tool follow from the definition.
 */
export const tools: AnyTool[] = []
