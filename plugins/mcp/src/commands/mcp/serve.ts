import {
  ArcCommand,
  FlowRecorder,
  Flags,
  InvalidInputError,
  loadConfig,
  refuseOverwriteWithoutRecord,
  serveDespiteOutputErrors,
  withConfigExamplePath,
} from '@arc-cli/core'

import {collectTools} from '../../lib/collect-tools.js'

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host)
}

export default class McpServe extends ArcCommand {
  static override summary = 'Serve every arc tool to AI agents over MCP (Streamable HTTP, or stdio)'
  static override description = [
    'Streamable HTTP at POST /mcp (JSON responses, stateless) on 127.0.0.1, every request with a bearer token;',
    'or --stdio for clients that start the server themselves. Tools are named android_<name>, one set for every',
    'device: with several (--device repeated, SERIAL or slug=SERIAL) each device tool takes a `device` argument;',
    '--slug-names (or --slug) names them per device instead, android_<slug>_<name>. Without a token one is generated',
    'and printed once on stderr with a client config. See docs/mcp.md.',
  ].join(' ')
  static override enableJsonFlag = false
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    'ARC_MCP_TOKEN=$(cat ~/.arc-token) <%= config.bin %> <%= command.id %> --port 7777',
    '<%= config.bin %> <%= command.id %> --device pixel=R58M12ABCDE --device tablet=emulator-5554',
    '<%= config.bin %> <%= command.id %> --device pixel=R58M12ABCDE --device tablet=emulator-5554 --slug-names',
    '<%= config.bin %> <%= command.id %> --stdio --device demo --read-only --detail compact',
    '<%= config.bin %> <%= command.id %> --tools group:screen,group:touch,press_*',
    '<%= config.bin %> <%= command.id %> --record flows/agent-run.flow',
  ]

  static override flags = {
    port: Flags.integer({
      summary: 'Port for HTTP (default 7777, or mcp.port; 0 picks a free one).',
      min: 0,
      max: 65535,
    }),
    host: Flags.string({
      summary:
        'Address to listen on (default 127.0.0.1, or mcp.host). Anything but loopback is reachable from the network.',
    }),
    token: Flags.string({
      summary: 'Bearer token clients must send (default: ARC_MCP_TOKEN, else mcp.token, else a new random one).',
      env: 'ARC_MCP_TOKEN',
    }),
    stdio: Flags.boolean({
      summary: 'Serve on stdin/stdout instead of HTTP (no token: the client started the process).',
    }),
    device: Flags.string({
      char: 'd',
      summary:
        'Device to serve: SERIAL, demo or a snapshot path, or slug=SERIAL to name it. Repeatable: tools take a device argument. Default: the one device a command would pick ($ANDROID_SERIAL, the config, else the single attached one).',
      multiple: true,
    }),
    slug: Flags.string({
      summary:
        'Device slug in tool names (android_<slug>_<name>; implies --slug-names): letters, digits, _, at most 20.',
    }),
    'slug-names': Flags.boolean({
      summary:
        "The spec's per-device tool names, android_<slug>_<name> for each device, instead of one tool set with a device argument.",
    }),
    detail: Flags.string({
      summary:
        "get_screen_state's detail when a call gives none: full (the spec's TSV, the default) or compact (fewest tokens). Default: mcp.detail, else full.",
      options: ['full', 'compact'],
    }),
    'apk-folder': Flags.string({
      summary:
        'The folder install_app takes APKs from (default: apps.apkFolder); an agent names an APK inside it. Without one install_app is not served.',
    }),
    tools: Flags.string({
      summary:
        'Serve only these tools: names or globs (get_*, android_tap) or group:<screen|touch|keys|elements|text|apps|files|system>. Repeatable, comma-separated.',
      multiple: true,
    }),
    'read-only': Flags.boolean({summary: 'Serve only tools that read (no taps, keys, app or file changes).'}),
    quiet: Flags.boolean({
      char: 'q',
      summary: 'No line per tool call on stderr (start-up lines, warnings and refusals still print).',
    }),
    'allow-origin': Flags.string({
      summary:
        'A browser origin allowed to call the server, scheme://host[:port] (http://localhost:6274), besides mcp.allowedOrigins. Repeatable.',
      multiple: true,
    }),
    'max-body': Flags.integer({
      summary:
        'Largest message in bytes (1024-1073741824), an HTTP request body or a stdio line (default 16 MiB, or mcp.maxBodyBytes); a larger one gets an error and the session goes on.',
      min: 1024,
      // mcp.maxBodyBytes's bound: a message is buffered whole.
      max: 1024 * 1024 * 1024,
    }),
    'adb-host': Flags.string({
      summary:
        'Host of the adb server (default: from ADB_SERVER_SOCKET or ANDROID_ADB_SERVER_ADDRESS, else the config, else 127.0.0.1).',
    }),
    'adb-port': Flags.integer({
      summary:
        'Port of the adb server (default: from ADB_SERVER_SOCKET or ANDROID_ADB_SERVER_PORT, else the config, else 5037).',
      min: 1,
      max: 65535,
    }),
    record: Flags.string({
      summary:
        "Write the session's successful actions to this flow file for `arc test`, ids replaced by selectors (docs/flows.md). A file that already holds something is refused: see --overwrite.",
    }),
    overwrite: Flags.boolean({
      summary:
        'Let --record replace a file that already holds something (an earlier recording, a flow edited by hand); without it the server refuses to start.',
    }),
  }

  async run(): Promise<void> {
    const {flags} = await this.parse(McpServe)
    // From here on stdout is the protocol's alone: anything else written there goes to stderr (serve.ts).
    if (flags.stdio) (await import('../../lib/serve.js')).protocolStdout()
    if (flags.stdio) {
      // The HTTP server's own flags: with --stdio nothing listens, so they would be dropped without a word. (A token
      // may come from ARC_MCP_TOKEN, set for every run: harmless, not refused.)
      const http = (['port', 'host', 'allow-origin'] as const).find((name) => flags[name] !== undefined)
      if (http) {
        throw new InvalidInputError(
          `--${http} is for HTTP, and --stdio serves on stdin/stdout: nothing listens; drop one of them`,
          {details: {inputs: [http, 'stdio']}}
        )
      }
    }
    refuseOverwriteWithoutRecord(flags.record, flags.overwrite)
    const {config, filepath} = await loadConfig(process.cwd()).catch((error: unknown) => {
      throw withConfigExamplePath(error, this.config.root)
    })
    const tools = await collectTools(this.config)
    const {serveHttp, serveStdio} = await import('../../lib/serve.js')
    // Its log's reader gone, it goes on serving; over stdio the session ends with stdin, as a client's end shows.
    serveDespiteOutputErrors()
    const log = (message: string) => process.stderr.write(`arc mcp: ${message}\n`)
    const recorder = flags.record
      ? new FlowRecorder({file: flags.record, by: 'arc mcp serve --record', warn: log, overwrite: flags.overwrite})
      : undefined
    if (recorder) {
      // The file exists from the start, and is rewritten whole after each recorded step.
      await recorder.write()
      await recorder.flush()
      log(`recording the session's actions to ${recorder.file}`)
    }
    const recorded = async () => {
      if (!recorder) return
      await recorder.flush().finally(() => recorder.release())
      const left = recorder.skipped ? `, ${recorder.skipped} left out (see its comments)` : ''
      log(`recorded ${recorder.recorded} step(s) to ${recorder.file}${left}`)
    }
    const common = {
      tools,
      config,
      configFile: filepath,
      devices: flags.device ?? [],
      slug: flags.slug,
      slugNames: flags['slug-names'] || undefined,
      detail: flags.detail as 'full' | 'compact' | undefined,
      apkFolder: flags['apk-folder'],
      toolPatterns: flags.tools ?? [],
      readOnly: flags['read-only'],
      quiet: flags.quiet,
      adbHost: flags['adb-host'],
      adbPort: flags['adb-port'],
      maxBodyBytes: flags['max-body'],
      log,
      ...(recorder ? {observe: recorder.observe} : {}),
    }
    if (flags.stdio) {
      await serveStdio(common)
      await recorded()
      return
    }
    // Listened for before the server listens: whoever waits for that line to stop it reaches the handler.
    // SIGHUP: the terminal or SSH session it was started from went away; it stops as cleanly as on Ctrl-C.
    const signalled = new Promise<NodeJS.Signals>((resolve) => {
      for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(name, () => resolve(name))
    })
    const started = await serveHttp({
      ...common,
      token: flags.token,
      port: flags.port,
      host: flags.host,
      allowedOrigins: flags['allow-origin'] ?? [],
    })
    const bind = flags.host ?? config.mcp?.host ?? '127.0.0.1'
    if (!isLoopback(bind)) {
      log(`warning: listening on ${bind}, reachable from other machines; anyone with the token can drive the device`)
    }
    log(`${started.host.listing.tools.length} tools; listening on ${started.url}`)
    if (started.generated) {
      log('no token given (--token, ARC_MCP_TOKEN or mcp.token): generated one for this run:')
      const {clientConfigText, clientConfigs, stdioCommand} = await import('../../lib/client-config.js')
      const stdio = stdioCommand(flags, {
        execPath: process.execPath,
        execArgv: process.execArgv,
        script: process.argv[1] ?? 'arc',
        cwd: process.cwd(),
        env: process.env,
      })
      process.stderr.write(`${started.token}\n${clientConfigText(clientConfigs(started.url, started.token, stdio))}\n`)
    }
    const signal = await signalled
    log(`${signal}: stopping`)
    await started.close()
    await recorded()
  }
}
