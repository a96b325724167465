/**
 * `arc emulate` and `arc mcp serve` as child processes for the MCP benchmarks, from the sources (bin/dev.js); `arc
 * server` from the build (bin/run.js: the server serves only the built arc's commands).
 */
import {spawn, type ChildProcess} from 'node:child_process'
import {mkdirSync} from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

import {treeCpuMs} from './process-cpu.js'

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

/**
 * The built arc's `arc server` (docs/server.md), listening in a folder under `dir` of its own: `env` points an arc
 * process at it (its TMPDIR; ARC_SERVER unset, so a developer's `ARC_SERVER=off` does not turn it away), `cpuMs()`
 * reads the server's CPU time so far (Linux /proc; NaN elsewhere).
 */
export async function startArcServer(dir: string): Promise<Running & {env: NodeJS.ProcessEnv; cpuMs: () => number}> {
  const tmp = path.join(dir, 'arc-server')
  mkdirSync(tmp, {recursive: true})
  const env = {TMPDIR: tmp, ARC_SERVER: ''}
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'run.js'), 'server', '--idle', '0'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {...process.env, NODE_OPTIONS: '', ...env},
  })
  await waitFor(child, /listening on /, 'arc server')
  // Its one line per command must not fill a pipe nobody reads.
  child.stdout?.resume()
  child.stderr?.resume()
  return {child, env, cpuMs: () => treeCpuMs(child.pid as number) ?? Number.NaN, stop: stopper(child)}
}
