/**
 * Which modules a Node.js process resolves: a resolve hook registered with `--import RESOLVE_TRACE` prints one line
 * per resolution on stderr (`resolve SPECIFIER URL`). Start-up tests use it to hold that a command loads only what it
 * uses.
 */
import {spawnSync} from 'node:child_process'

export const RESOLVE_TRACE = `data:text/javascript,${encodeURIComponent(
  `import {register} from 'node:module'
register('data:text/javascript,' + encodeURIComponent('export async function resolve(s, c, next) { const r = await next(s, c); process.stderr.write("resolve " + s + " " + r.url + "\\\\n"); return r }'))`
)}`

export interface Resolution {
  specifier: string
  url: string
}

/** The resolutions RESOLVE_TRACE printed in `stderr`, in order (a URL has no space: it is percent-encoded). */
export function resolutions(stderr: string): Resolution[] {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('resolve '))
    .map((line) => {
      const cut = line.lastIndexOf(' ')
      return {specifier: line.slice('resolve '.length, cut), url: line.slice(cut + 1)}
    })
}

/** Every resolution that importing `module` (a source file) makes, through tsx as bin/dev.js runs the sources. */
export function resolvedBy(module: string): Resolution[] {
  const run = spawnSync(
    process.execPath,
    [
      '--conditions=arc-source',
      '--import',
      'tsx',
      '--import',
      RESOLVE_TRACE,
      '--input-type=module',
      '-e',
      `await import(${JSON.stringify(module)})`,
    ],
    {encoding: 'utf8', env: {...process.env, NODE_OPTIONS: ''}}
  )
  if (run.status !== 0) throw new Error(`importing ${module} exited ${run.status}: ${run.stderr}`)
  return resolutions(run.stderr)
}
