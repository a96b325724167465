/** `arc emulate` and `arc mcp serve` as child processes for the MCP benchmarks, from the sources (bin/dev.js). */
import {spawn, type ChildProcess} from 'node:child_process'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

export const ROOT = fileURLToPath(new URL('../../', import.meta.url))

const arcArgs = (args: string[]) => ['--conditions=arc-source', path.join(ROOT, 'bin', 'dev.js'), ...args]

/** Resolves with the first match of `pattern` in what the child writes (stdout and stderr), or rejects on its exit. */
function waitFor(child: ChildProcess, pattern: RegExp, what: string): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let out = ''
    const look = (chunk: Buffer) => {
      out += chunk.toString()
      const m = pattern.exec(out)
      if (m) resolve(m)
    }
    child.stdout?.on('data', look)
    child.stderr?.on('data', look)
    child.once('exit', (code) => reject(new Error(`${what} exited ${code}: ${out}`)))
  })
}

export interface Running {
  child: ChildProcess
  stop(): Promise<void>
}

function stopper(child: ChildProcess): () => Promise<void> {
  return async () => {
    if (child.exitCode !== null) return
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    await exited
  }
}

/**
 * `arc emulate` with these devices (`NAME=demo`: the live demo app), its waits scaled by `timeScale` (1: a phone's
 * own times, 1 s per dump; 0: none, for what arc itself costs).
 */
export async function startEmulate(serials: string[], timeScale: number): Promise<Running & {port: number}> {
  const child = spawn(
    process.execPath,
    arcArgs(['emulate', '--port', '0', ...serials.flatMap((s) => ['--serial', s])]),
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {...process.env, NODE_OPTIONS: '', ARC_EMULATE_TIME_SCALE: String(timeScale)},
    }
  )
  const m = await waitFor(child, /listening on [\d.]+:(\d+)/, 'arc emulate')
  return {child, port: Number(m[1]), stop: stopper(child)}
}

/** `arc mcp serve` over HTTP with these extra arguments, reaching the adb server at `adbPort`. */
export async function startMcpHttp(
  args: string[],
  adbPort: number,
  token: string
): Promise<Running & {url: string; stderr: () => string}> {
  const child = spawn(process.execPath, arcArgs(['mcp', 'serve', '--port', '0', ...args]), {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {...process.env, NODE_OPTIONS: '', ARC_MCP_TOKEN: token, ADB_SERVER_SOCKET: `tcp:127.0.0.1:${adbPort}`},
  })
  let err = ''
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()))
  const m = await waitFor(child, /listening on (http:\S+)/, 'arc mcp serve')
  return {child, url: m[1] as string, stderr: () => err, stop: stopper(child)}
}

/** How to start `arc mcp serve --stdio` (for the SDK's StdioClientTransport). */
export function mcpStdioCommand(args: string[]): {command: string; args: string[]} {
  return {command: process.execPath, args: arcArgs(['mcp', 'serve', '--stdio', ...args])}
}
