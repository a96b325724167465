import {spawn} from 'node:child_process'

import {arcNodeArgs} from './built-cli.js'
import {ROOT} from './paths.js'

export interface ArcRun {
  code: number
  stdout: string
  stderr: string
}

/**
 * Runs arc as a user would, with its own process, env and working folder: `bin/run.js` on a dist proven current
 * by the test setup, else `bin/dev.js` from source (packages/test-support/src/built-cli.ts).
 */
export function runArc(
  args: string[],
  options: {
    cwd?: string
    env?: NodeJS.ProcessEnv
    input?: string
    /** Run as this user (tests running as root). */ uid?: number
    /** Kill it (SIGKILL) after this long: a regression that hangs fails with code -1 and a note instead. */
    timeoutMs?: number
  } = {}
): Promise<ArcRun> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = {...process.env, NODE_OPTIONS: '', NO_COLOR: '1', ...options.env}
    // Nor the runner's device or CI flag (arc on CI writes no missing screenshot baseline, shows no spinner): the
    // suite means the same wherever it runs; a test that wants either sets it.
    for (const name of ['ANDROID_SERIAL', 'CI'] as const) {
      delete env[name]
      if (options.env?.[name] !== undefined) env[name] = options.env[name]
    }
    runProgram(process.execPath, arcNodeArgs(args), {
      cwd: options.cwd ?? ROOT,
      env,
      ...(options.input === undefined ? {} : {input: options.input}),
      ...(options.uid === undefined ? {} : {uid: options.uid}),
      ...(options.timeoutMs === undefined ? {} : {timeoutMs: options.timeoutMs}),
    }).then(resolve, reject)
  })
}

/** Runs any program with exactly `env` (nothing added), collecting its output as text; stdin gets `input`, then ends. */
export function runProgram(
  file: string,
  args: string[],
  options: {cwd: string; env: NodeJS.ProcessEnv; input?: string; uid?: number; timeoutMs?: number}
): Promise<ArcRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      cwd: options.cwd,
      env: options.env,
      ...(options.uid === undefined ? {} : {uid: options.uid, gid: options.uid}),
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    let killed = false
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            killed = true
            child.kill('SIGKILL')
          }, options.timeoutMs)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      if (killed) stderr += `\n[killed: still running after ${options.timeoutMs} ms]`
      resolve({code: code ?? -1, stdout, stderr})
    })
    child.stdin.end(options.input ?? '')
  })
}
