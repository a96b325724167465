import type {Command} from '@oclif/core'

import McpServe from './commands/mcp/serve.js'

/**
 * What oclif imports at every start-up (`oclif.commands.target`): nothing here may load the MCP SDK; the command
 * imports the server when it runs.
 */
export const commands: Record<string, Command.Class> = {
  'mcp:serve': McpServe,
}
