import {spawn} from 'node:child_process'
import {readFileSync, writeFileSync} from 'node:fs'
import path from 'node:path'

import {expect} from 'chai'

import {arcNodeArgs} from '@arc-cli/test-support/built-cli'
import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {ROOT} from '@arc-cli/test-support/paths'
import {runArc} from '@arc-cli/test-support/run-arc'

interface Outcome {
  /** What the edit was: the line appended, or the marker replaced. */
  edit: string
  ok: boolean
  /** The error's code when it failed. */
  code?: string
}

/**
 * One `arc mcp serve --stdio` process with `calls` sent at once (every request written before any answer is read),
 * as an MCP client with several tool calls in flight does; resolves with each call's result, in order.
 */
async function mcpCalls(
  env: NodeJS.ProcessEnv,
  calls: Array<{name: string; arguments: Record<string, unknown>}>
): Promise<Array<{isError?: boolean; text: string}>> {
  const child = spawn(process.execPath, arcNodeArgs(['mcp', 'serve', '--stdio', '--device', 'emu-1']), {
    cwd: ROOT,
    env: {...process.env, NODE_OPTIONS: '', NO_COLOR: '1', ...env},
  })
  const answers = new Map<number, {isError?: boolean; text: string}>()
  let stdout = ''
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const done = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      let at: number
      while ((at = stdout.indexOf('\n')) !== -1) {
        const line = stdout.slice(0, at)
        stdout = stdout.slice(at + 1)
        const message = JSON.parse(line) as {
          id?: number
          result?: {isError?: boolean; content?: Array<{text: string}>}
          error?: unknown
        }
        if (typeof message.id === 'number' && message.id >= 100) {
          answers.set(message.id, {
            isError: message.result?.isError ?? message.error !== undefined,
            text: message.result?.content?.[0]?.text ?? JSON.stringify(message.error),
          })
        }
        if (answers.size === calls.length) {
          child.stdin.end()
          resolve()
        }
      }
    })
    child.on('close', (code) =>
      answers.size === calls.length
        ? resolve()
        : reject(new Error(`arc mcp serve exited ${code} after ${answers.size} answers: ${stderr}`))
    )
  })
  const requests = [
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {protocolVersion: '2025-06-18', capabilities: {}, clientInfo: {name: 'concurrent', version: '0'}},
    },
    {jsonrpc: '2.0', method: 'notifications/initialized'},
    ...calls.map((call, i) => ({jsonrpc: '2.0', id: 100 + i, method: 'tools/call', params: call})),
  ]
  child.stdin.write(requests.map((r) => `${JSON.stringify(r)}\n`).join(''))
  await done
  await new Promise((resolve) => (child.exitCode === null ? child.on('close', resolve) : resolve(undefined)))
  return calls.map((_, i) => answers.get(100 + i) as {isError?: boolean; text: string})
}

const errorCode = (text: string) =>
  /^Error \[([A-Z_]+)\]/.exec(text)?.[1] ?? /"code":\s*"([A-Z_]+)"/.exec(text)?.[1] ?? text.slice(0, 80)

describe('concurrent edits of one device file (arc processes and MCP calls at once)', function () {
  this.timeout(180_000)
  const h = useEmulator()
  let tmp: string

  before(() => {
    tmp = path.join(h.emu.device('emu-1').files.root, 'data/local/tmp')
  })

  it('20 appends at once (10 arc processes, 10 MCP calls): every one reported done is in the file', async () => {
    writeFileSync(path.join(tmp, 'shared.txt'), 'start\n')
    const cli = Array.from({length: 10}, (_, i) => `cli-${i}`)
    const mcp = Array.from({length: 10}, (_, i) => `mcp-${i}`)
    const [cliRuns, mcpRuns] = await Promise.all([
      Promise.all(
        cli.map((line) => runArc(['files', 'append', 'tmp', 'shared.txt', '--content', `${line}\n`], {env: h.env}))
      ),
      mcpCalls(
        h.env,
        mcp.map((line) => ({
          name: 'android_append_file',
          arguments: {location_id: 'tmp', path: 'shared.txt', content: `${line}\n`},
        }))
      ),
    ])
    const outcomes: Outcome[] = [
      ...cliRuns.map((r, i) => ({
        edit: cli[i] as string,
        ok: r.code === 0,
        code: r.code === 0 ? undefined : errorCode(r.stderr),
      })),
      ...mcpRuns.map((r, i) => ({
        edit: mcp[i] as string,
        ok: !r.isError,
        code: r.isError ? errorCode(r.text) : undefined,
      })),
    ]
    const lines = readFileSync(path.join(tmp, 'shared.txt'), 'utf8').split('\n').filter(Boolean)
    const succeeded = outcomes.filter((o) => o.ok).map((o) => o.edit)
    const applied = succeeded.filter((edit) => lines.includes(edit))
    console.log(
      `      appends: ${outcomes.length} tried, ${succeeded.length} reported done, ${applied.length} of those in the file`
    )
    // Every success is in the file, once; nothing that failed is.
    expect(applied).to.deep.equal(succeeded)
    expect(lines.slice(1).sort()).to.deep.equal([...succeeded].sort())
    expect(lines[0]).to.equal('start')
    // An edit waits for the one before it, within the time limit: none fails.
    expect(outcomes.filter((o) => !o.ok)).to.deep.equal([])
    expect(
      readFileSync(path.join(tmp, 'shared.txt'), 'utf8')
        .split('\n')
        .filter((l) => l.includes('.arc-'))
    ).to.deep.equal([])
  })

  it('20 replaces at once (10 arc processes, 10 MCP calls), each of its own word: every one reported done is applied', async () => {
    const words = Array.from({length: 20}, (_, i) => `word${String(i).padStart(2, '0')}`)
    writeFileSync(path.join(tmp, 'words.txt'), `${words.join('\n')}\n`)
    const replace = (word: string) => [
      'files',
      'replace',
      'tmp',
      'words.txt',
      '--old-string',
      word,
      '--new-string',
      `${word.toUpperCase()}-done`,
    ]
    const [cliRuns, mcpRuns] = await Promise.all([
      Promise.all(words.slice(0, 10).map((word) => runArc(replace(word), {env: h.env}))),
      mcpCalls(
        h.env,
        words.slice(10).map((word) => ({
          name: 'android_file_replace',
          arguments: {
            location_id: 'tmp',
            path: 'words.txt',
            old_string: word,
            new_string: `${word.toUpperCase()}-done`,
          },
        }))
      ),
    ])
    const outcomes: Outcome[] = [
      ...cliRuns.map((r, i) => ({
        edit: words[i] as string,
        ok: r.code === 0,
        code: r.code === 0 ? undefined : errorCode(r.stderr),
      })),
      ...mcpRuns.map((r, i) => ({
        edit: words[10 + i] as string,
        ok: !r.isError,
        code: r.isError ? errorCode(r.text) : undefined,
      })),
    ]
    const lines = readFileSync(path.join(tmp, 'words.txt'), 'utf8').split('\n').filter(Boolean)
    const succeeded = outcomes.filter((o) => o.ok).map((o) => o.edit)
    const applied = succeeded.filter((word) => lines.includes(`${word.toUpperCase()}-done`))
    console.log(
      `      replaces: ${outcomes.length} tried, ${succeeded.length} reported done, ${applied.length} of those applied`
    )
    expect(applied).to.deep.equal(succeeded)
    // What failed was not applied either: the file holds exactly the reported edits.
    expect(lines).to.deep.equal(words.map((w) => (succeeded.includes(w) ? `${w.toUpperCase()}-done` : w)))
    expect(outcomes.filter((o) => !o.ok)).to.deep.equal([])
  })
})
