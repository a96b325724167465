import {expect} from 'chai'
import {spawnSync} from 'node:child_process'
import {readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'

const PLUGIN = new URL('../', import.meta.url)

// Registers a resolve hook that prints every specifier the process resolves, one per line on stderr.
const TRACE = `data:text/javascript,${encodeURIComponent(
  `import {register} from 'node:module'
register('data:text/javascript,' + encodeURIComponent('export async function resolve(s, c, next) { process.stderr.write("resolve " + s + "\\\\n"); return next(s, c) }'))`
)}`

describe('annotate start-up cost', () => {
  it('the commands target (imported on every arc start-up) does not load the canvas library', function () {
    this.timeout(60000)
    const pkg = JSON.parse(readFileSync(new URL('package.json', PLUGIN), 'utf8')) as {
      oclif: {commands: {target: string}}
    }
    // The source of the built target: what bin/dev.js loads.
    const target = fileURLToPath(
      new URL(pkg.oclif.commands.target.replace('./dist/', 'src/').replace(/\.js$/, '.ts'), PLUGIN)
    )
    const run = spawnSync(
      process.execPath,
      [
        '--conditions=arc-source',
        '--import',
        'tsx',
        '--import',
        TRACE,
        '--input-type=module',
        '-e',
        `await import(${JSON.stringify(target)})`,
      ],
      {encoding: 'utf8', env: {...process.env, NODE_OPTIONS: ''}}
    )
    expect(run.status, run.stderr).to.equal(0)
    const resolved = run.stderr.split('\n').filter((l) => l.startsWith('resolve '))
    // The trace works: the target and core were resolved through the hook.
    expect(resolved.join('\n')).to.include('commands').and.include('@arc-cli/core')
    expect(resolved.filter((l) => l.includes('canvas'))).to.deep.equal([])
  })
})
