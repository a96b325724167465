/**
 * Waits: wait_for_element polls the screen until an element matches; wait_for_idle until two reads 500 ms apart
 * look alike. Both stop at their deadline even when a dump is slow (a read still running then is abandoned),
 * report progress for the spinner and stop when ctx.signal aborts. Running out of time is a result, not an error.
 */
import {buildScreenModel, defineTool, rememberElements, sleep, walkNodes, type ScreenModel, type ToolContext, type UiNode, z} from '@arc-cli/core'
import {createHash} from 'node:crypto'

import {elementJson, elementTable, findMatching, searchFields} from './element-support.js'

export const POLL_MS = 500
const timeoutField = (what: string) => z.number().int().min(1).max(30000).describe(`${what} in milliseconds (1-30000)`)

const TIMED_OUT = Symbol('timed out')

const reads = (n: number) => `${n} read${n === 1 ? '' : 's'}`

/** One read of the screen, or TIMED_OUT when the deadline comes first. */
async function readBefore(ctx: ToolContext, deadline: number): Promise<ScreenModel | typeof TIMED_OUT> {
  const remaining = deadline - Date.now()
  if (remaining <= 0) return TIMED_OUT
  const read = ctx.driver.captureScreen().then((c) => buildScreenModel(c))
  read.catch(() => undefined)
  // The deadline's timer ends with the race: left running, it would keep the process alive until the deadline.
  const done = new AbortController()
  try {
    return await Promise.race([read, sleep(remaining, ctx.signal, done.signal).then((): typeof TIMED_OUT => TIMED_OUT)])
  } finally {
    done.abort()
  }
}

export const waitForElement = defineTool({
  name: 'wait_for_element',
  cliId: 'wait element',
  title: 'Wait until an element appears',
  description: `Reads the screen every ${POLL_MS} ms until an element whose text, content_desc, resource_id or class_name contains \`value\` (case-insensitive) appears, or the timeout passes. Returns JSON: found, elapsedMs, attempts and the element (the CLI: a line and a table; --json: the object). A timeout is not an error: found is false.`,
  kind: 'read',
  group: 'elements',
  input: z.object({...searchFields, timeout: timeoutField('How long to wait')}),
  cli: {positional: ['by', 'value'], examples: ['<%= config.bin %> <%= command.id %> text Done --timeout 5000']},
  async handler(ctx, {by, value, timeout}) {
    const start = Date.now()
    const deadline = start + timeout
    let attempts = 0
    for (;;) {
      ctx.progress(`waiting for ${by} ${JSON.stringify(value)} (${attempts} reads)`)
      const model = await readBefore(ctx, deadline)
      if (model === TIMED_OUT) break
      attempts++
      const [element] = findMatching(model, by, value, false)
      if (element) {
        await rememberElements(ctx.state, [element], false)
        const data = {found: true, elapsedMs: Date.now() - start, attempts, element: elementJson(element)}
        const human = `Found after ${data.elapsedMs} ms (${reads(attempts)}):\n${elementTable([element])}`
        return {text: JSON.stringify(data, null, 2), data, human}
      }
      if (Date.now() + POLL_MS > deadline) {
        await sleep(deadline - Date.now(), ctx.signal)
        break
      }
      await sleep(POLL_MS, ctx.signal)
    }
    const data = {found: false, elapsedMs: Date.now() - start, attempts}
    const human = `Not found: no element with ${by} containing ${JSON.stringify(value)} after ${data.elapsedMs} ms (${reads(attempts)})`
    return {text: JSON.stringify(data, null, 2), data, human}
  },
})

export const FINGERPRINT_SLOTS = 256

/** The spec's tree fingerprint: every node's class, id, labels, state and bounds hashed into one of 256 slots. */
export function fingerprint(windows: UiNode[]): Uint32Array {
  const slots = new Uint32Array(FINGERPRINT_SLOTS)
  for (const n of walkNodes(windows)) {
    const key = [n.className, n.resourceId, n.text, n.contentDesc, n.bounds.join(','), n.checked, n.selected, n.focused, n.enabled].join('\u0000')
    slots[createHash('md5').update(key).digest()[0] as number]! += 1
  }
  return slots
}

/** 100 × (1 − Σ|a−b| / Σ(a+b)), rounded; 100 for two empty trees. */
export function similarity(a: Uint32Array, b: Uint32Array): number {
  let diff = 0
  let sum = 0
  for (let i = 0; i < FINGERPRINT_SLOTS; i++) {
    diff += Math.abs((a[i] as number) - (b[i] as number))
    sum += (a[i] as number) + (b[i] as number)
  }
  return sum === 0 ? 100 : Math.round(100 * (1 - diff / sum))
}

export const waitForIdle = defineTool({
  name: 'wait_for_idle',
  cliId: 'wait idle',
  title: 'Wait until the screen stops changing',
  description: `Reads the screen every ${POLL_MS} ms and compares 256-slot fingerprints of the tree; the UI is idle when two consecutive reads are at least match_percentage similar. Returns JSON: message, elapsedMs and the similarity reached (the CLI: one line; --json: the object). A timeout is not an error.`,
  kind: 'read',
  group: 'elements',
  input: z.object({
    timeout: timeoutField('How long to wait'),
    match_percentage: z.number().int().min(0).max(100).default(100).describe('Similarity threshold in percent (0-100, default 100 = exact match)'),
  }),
  cli: {examples: ['<%= config.bin %> <%= command.id %> --timeout 3000', '<%= config.bin %> <%= command.id %> --timeout 5000 --match-percentage 95']},
  async handler(ctx, {timeout, match_percentage}) {
    const start = Date.now()
    const deadline = start + timeout
    let previous: Uint32Array | undefined
    let last = 0
    for (;;) {
      ctx.progress(`waiting for the screen to settle (similarity ${last}%)`)
      const model = await readBefore(ctx, deadline)
      if (model === TIMED_OUT) break
      const current = fingerprint(model.hierarchy.windows)
      if (previous) {
        last = similarity(previous, current)
        if (last >= match_percentage) {
          const data = {message: 'UI is idle', elapsedMs: Date.now() - start, similarity: last}
          return {text: JSON.stringify(data, null, 2), data, human: `UI is idle after ${data.elapsedMs} ms (similarity ${last}%)`}
        }
      }
      previous = current
      if (Date.now() + POLL_MS > deadline) {
        await sleep(deadline - Date.now(), ctx.signal)
        break
      }
      await sleep(POLL_MS, ctx.signal)
    }
    const elapsedMs = Date.now() - start
    const data = {message: `Operation timed out after ${elapsedMs}ms waiting for UI idle. Retry if the operation is long-running.`, elapsedMs, similarity: last}
    return {text: JSON.stringify(data, null, 2), data, human: `Not idle: timed out after ${elapsedMs} ms (last similarity ${last}%, wanted ${match_percentage}%)`}
  },
})
