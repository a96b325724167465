import type {Command} from '@oclif/core'

/** `arc mcp serve` arrives with its issue; until then this plugin contributes no commands. */
export const commands: Record<string, Command.Class> = {}
