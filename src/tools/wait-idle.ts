/** wait_for_idle: reads the screen every 500 ms until two reads in a row look alike (the spec's tree fingerprint). */
import {defineTool, walkNodes, type UiNode, z} from '@arc-cli/core'
import {createHash} from 'node:crypto'

import {cliTimeoutField, pollScreen, POLL_MS, timedOut, timeoutField} from './wait-poll.js'

export const FINGERPRINT_SLOTS = 256

/** The spec's tree fingerprint: every node's class, id, labels, state and bounds hashed into one of 256 slots. */
export function fingerprint(windows: UiNode[]): Uint32Array {
  const slots = new Uint32Array(FINGERPRINT_SLOTS)
  for (const n of walkNodes(windows)) {
    const key = [
      n.className,
      n.resourceId,
      n.text,
      n.contentDesc,
      n.bounds.join(','),
      n.checked,
      n.selected,
      n.focused,
      n.enabled,
    ].join('\u0000')
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
  title: 'Wait until the screen stops changing',
  description: `Reads the screen every ${POLL_MS} ms and compares 256-slot fingerprints of the tree; the UI is idle when two consecutive reads are at least match_percentage similar. Returns JSON: message, elapsedMs and the similarity reached (the CLI: one line; --json: the same in docs/json.md shape). A timeout is not an error over MCP; the CLI exits 11 (TIMEOUT) after printing.`,
  kind: 'read',
  needs: {screen: 'read'},
  group: 'elements',
  input: z.object({
    timeout: timeoutField(),
    match_percentage: z
      .number()
      .int()
      .min(0)
      .max(100)
      .default(100)
      .describe('Similarity threshold in percent (0-100, default 100 = exact match)'),
  }),
  cli: {
    id: 'wait idle',
    override: {timeout: cliTimeoutField()},
    examples: [
      '<%= config.bin %> <%= command.id %> --timeout 3000',
      '<%= config.bin %> <%= command.id %> --timeout 5000 --match-percentage 95',
    ],
  },
  async handler(ctx, {timeout, match_percentage}) {
    let previous: Uint32Array | undefined
    let last = 0
    const end = await pollScreen(
      ctx,
      timeout,
      () => `waiting for the screen to settle (similarity ${last}%)`,
      (model) => {
        const current = fingerprint(model.hierarchy.windows)
        const settled = previous !== undefined && (last = similarity(previous, current)) >= match_percentage
        previous = current
        return settled ? true : undefined
      }
    )
    const {elapsedMs} = end
    if (end.met) {
      const data = {message: 'UI is idle', elapsedMs, similarity: last}
      return {
        text: JSON.stringify(data, null, 2),
        data,
        cli: {
          human: `UI is idle after ${elapsedMs} ms (similarity ${last}%)`,
          data: {message: data.message, elapsed_ms: elapsedMs, similarity: last},
        },
      }
    }
    const data = {
      message: `Operation timed out after ${elapsedMs}ms waiting for UI idle. Retry if the operation is long-running.`,
      elapsedMs,
      similarity: last,
    }
    return timedOut(
      data,
      `Not idle: timed out after ${elapsedMs} ms (last similarity ${last}%, wanted ${match_percentage}%)`,
      {message: data.message, elapsed_ms: elapsedMs, similarity: last}
    )
  },
})
