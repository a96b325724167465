// The library entry (`@arc-cli/plugin-mcp`). oclif loads commands.js instead, which does not load the MCP SDK.
export {commands} from './commands.js'
export {collectTools} from './lib/collect-tools.js'
export {
  clientConfigs,
  clientConfigText,
  stdioCommand,
  type ClientConfigs,
  type StdioCommand,
} from './lib/client-config.js'
export {checkBearer, generateToken} from './lib/auth.js'
export {startHttpServer, DEFAULT_MAX_BODY, type HttpOptions, type RunningHttpServer} from './lib/http-server.js'
export {createMcpServer, ServerPool, SERVER_INFO} from './lib/mcp-server.js'
export {
  buildHost,
  servedTools,
  serveHttp,
  serveStdio,
  type HttpSettings,
  type ServeSettings,
  type StartedHttp,
} from './lib/serve.js'
export {annotationsFor, errorResult, inputSchemaFor, ToolHost, type ToolHostOptions} from './lib/tool-host.js'
export {
  checkSlug,
  parseTargets,
  selectTools,
  toolFilter,
  toolGroup,
  toolName,
  type DeviceTarget,
} from './lib/tool-set.js'
