/**
 * `arc keyboard status` and `arc keyboard hide`: whether the soft keyboard shows, and closing it without leaving
 * the screen. A BACK closes a shown keyboard, but with none shown it reaches the app and navigates back, so hide
 * presses it only when the device says a keyboard shows (core's keyboard-state.ts: every source that answered),
 * then reads again until it is gone. CLI-only: MCP's tools/list has no room left for them (docs/mcp.md).
 */
import {
  defineTool,
  keyboardVerdict,
  resolveKey,
  sleep,
  TimeoutError,
  UnsupportedError,
  z,
  type KeyboardState,
  type KeyboardVerdict,
  type ToolContext,
} from '@arc-cli/core'

const POLL_MS = 150
/** How long sources that disagree (a keyboard sliding in or out) are given to agree before the answer is taken. */
const SETTLE_MS = 1000
/** How long the keyboard is given to be gone after the BACK. */
const GONE_MS = 3000

interface Reading {
  state: KeyboardState
  verdict: KeyboardVerdict
}

async function read(ctx: ToolContext): Promise<Reading> {
  const state = await ctx.driver.keyboard()
  return {state, verdict: keyboardVerdict(state)}
}

/** Reads until `done` holds or `ms` pass; returns the last reading. */
async function readUntil(ctx: ToolContext, done: (r: Reading) => boolean, ms: number): Promise<Reading> {
  const deadline = Date.now() + ms
  let reading = await read(ctx)
  while (!done(reading) && Date.now() < deadline) {
    await sleep(POLL_MS, ctx.signal)
    reading = await read(ctx)
  }
  return reading
}

/** The keyboard's state once the sources agree (or SETTLE_MS passed); UNSUPPORTED when neither says anything. */
async function settled(ctx: ToolContext): Promise<Reading> {
  const reading = await readUntil(ctx, (r) => r.verdict !== 'mixed', SETTLE_MS)
  if (reading.verdict === 'unknown') {
    throw new UnsupportedError(
      `cannot tell whether the keyboard shows on ${ctx.driver.serial}: its input method service prints no mInputShown and its window manager lists no windows`,
      {
        actions: [
          'Look at the screen (arc screen-state: a window of type INPUT_METHOD is the keyboard), then arc press back if one shows.',
        ],
      }
    )
  }
  return reading
}

/** Why a keyboard counts as not shown when the two sources disagree. */
function mixedReason(state: KeyboardState): string {
  return state.inputShown
    ? 'the input method is active but no keyboard window is on screen, as with a hardware keyboard'
    : 'a keyboard window is on screen but the input method service says it is hidden'
}

const orNull = (v: boolean | undefined) => v ?? null

/** Why neither keyboard tool is served over MCP (docs/mcp.md lists it). */
const NOT_SERVED = 'a CLI comfort the spec has no tool for, left out of the tools/list token budget'

export const keyboardStatus = defineTool({
  name: 'keyboard_status',
  title: 'Whether the soft keyboard shows',
  description:
    'Says whether the soft keyboard shows now, by the input method service (dumpsys input_method mInputShown) and the window manager (a shown INPUT_METHOD window); shown only when every one that answers says so. --json: {shown, input_method, window}, null where the device does not say.',
  kind: 'read',
  needs: {screen: 'read'},
  group: 'keys',
  input: z.object({}),
  cli: {
    id: 'keyboard status',
    only: NOT_SERVED,
    examples: ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --json'],
  },
  async handler(ctx) {
    const {state, verdict} = await settled(ctx)
    const text =
      verdict === 'shown'
        ? 'Keyboard shown'
        : verdict === 'hidden'
          ? 'No keyboard shown'
          : `No keyboard shown: ${mixedReason(state)}`
    return {
      text,
      data: {shown: verdict === 'shown', input_method: orNull(state.inputShown), window: orNull(state.windowShown)},
    }
  },
})

export const hideKeyboard = defineTool({
  name: 'hide_keyboard',
  title: 'Hide the soft keyboard',
  description:
    'Presses BACK only when the soft keyboard shows (as keyboard status tells it), then reads again until it is gone; with no keyboard shown it sends nothing, so a script never navigates back by accident. --json: {hidden, was_shown}.',
  kind: 'action',
  needs: {screen: 'read', input: 'act'},
  holdsDevice: true,
  group: 'keys',
  input: z.object({}),
  cli: {
    id: 'keyboard hide',
    only: NOT_SERVED,
    examples: ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --json'],
  },
  async handler(ctx) {
    const before = await settled(ctx)
    if (before.verdict !== 'shown') {
      const why = before.verdict === 'mixed' ? ` (${mixedReason(before.state)})` : ''
      return {text: `No keyboard shown: nothing sent${why}`, data: {hidden: false, was_shown: false}}
    }
    await ctx.driver.pressKey(resolveKey('BACK').word)
    const after = await readUntil(ctx, (r) => r.verdict === 'hidden', GONE_MS)
    if (after.verdict !== 'hidden') {
      throw new TimeoutError(
        `the keyboard still shows on ${ctx.driver.serial} ${GONE_MS / 1000} s after BACK was pressed`,
        {
          actions: [
            'Check the screen (arc screen-state): the app may keep its keyboard up; arc keyboard status says what the device reports.',
          ],
          details: {input_method: orNull(after.state.inputShown), window: orNull(after.state.windowShown)},
        }
      )
    }
    return {text: 'Keyboard hidden', data: {hidden: true, was_shown: true}}
  },
})
