/**
 * `arc assert`: a check of the screen with an exit code, for scripts and flows. It reads the screen (again every
 * 500 ms up to --timeout) and exits 0 when the condition holds, else ASSERTION_FAILED (exit 23) with what the screen
 * showed instead. It never acts on the device.
 */
import {
  AssertionFailedError,
  buildScreenModel,
  defineTool,
  durationField,
  ElementAmbiguousError,
  formatFlags,
  screenElementJson,
  z,
  type ScreenElement,
  type ScreenModel,
  elementTable,
  readSelector,
  rememberElements,
  selectorInput,
} from '@arc-cli/core'

import {pollScreen, reads} from './wait-poll.js'

const CONDITIONS = [
  'visible',
  'gone',
  'text',
  'checked',
  'unchecked',
  'enabled',
  'disabled',
  'selected',
  'focused',
] as const
type Condition = (typeof CONDITIONS)[number]

/** The conditions on one element's state, with the flag that says it and what the element is when it fails. */
const STATES: Partial<
  Record<Condition, {holds: (e: ScreenElement) => boolean; instead: (e: ScreenElement) => string}>
> = {
  checked: {holds: (e) => e.flags.chk, instead: (e) => (e.flags.unchk ? 'unchecked' : 'not checkable')},
  unchecked: {holds: (e) => e.flags.unchk, instead: (e) => (e.flags.chk ? 'checked' : 'not checkable')},
  enabled: {holds: (e) => e.flags.ena, instead: () => 'disabled'},
  disabled: {holds: (e) => !e.flags.ena, instead: () => 'enabled'},
  selected: {holds: (e) => e.flags.sel, instead: () => 'not selected'},
  focused: {holds: (e) => e.flags.fcs, instead: () => 'without input focus'},
}

const describeElement = (e: ScreenElement) =>
  `${e.id} (${e.className}${e.text ? ` ${JSON.stringify(e.text)}` : ''}${e.desc ? ` [${e.desc}]` : ''}; ${formatFlags(e.flags) || 'no flags'})`

interface Verdict {
  holds: boolean
  /** What the screen showed: the line a failure says after the condition. */
  shown: string
  elements: ScreenElement[]
}

function judge(
  model: ScreenModel,
  condition: Condition,
  match: (m: ScreenModel) => ScreenElement[],
  value: string | undefined,
  what: string
): Verdict {
  const found = match(model)
  const onScreen = found.filter((e) => e.flags.on)
  switch (condition) {
    case 'visible':
      return {
        holds: onScreen.length > 0,
        shown:
          found.length === 0
            ? `no element matches ${what}`
            : `${found.length} element(s) match, all off screen: ${found.map(describeElement).join('; ')}`,
        elements: found,
      }
    case 'gone':
      return {
        holds: found.length === 0,
        shown: `${found.length} element(s) match: ${found.slice(0, 5).map(describeElement).join('; ')}`,
        elements: found,
      }
    default: {
      if (found.length === 0) return {holds: false, shown: `no element matches ${what}`, elements: []}
      if (found.length > 1) {
        throw new ElementAmbiguousError(
          `${found.length} elements match ${what}; assert ${condition} checks one element:\n${elementTable(found.slice(0, 10))}`,
          {
            actions: ['Narrow the selector (combine --text, --desc, --res-id, --class-name, or add --exact-match).'],
            // A selector is a command-line input: the candidates are in the command line's one element shape, as
            // resolveTarget lists them for the element actions (docs/json.md).
            details: {count: found.length, candidates: found.slice(0, 50).map(screenElementJson)},
          }
        )
      }
      const e = found[0] as ScreenElement
      if (condition === 'text') {
        const text = e.flags.hint ? '' : e.text
        return {
          holds: text === value,
          shown: `${describeElement(e)} has text ${JSON.stringify(text)}${e.flags.hint ? ' (it shows its hint: the field is empty)' : ''}`,
          elements: [e],
        }
      }
      const state = STATES[condition]!
      return {holds: state.holds(e), shown: `${describeElement(e)} is ${state.instead(e)}`, elements: [e]}
    }
  }
}

export const assertScreen = defineTool({
  name: 'assert_screen',
  title: 'Check the screen: exit 0 when it shows what is asserted, else 23 with what it shows',
  description: [
    'Reads the screen and checks one condition about the elements a selector (--text, --desc, --res-id, --class-name,',
    '--exact-match; several must all match) names: visible (one is on screen), gone (none is there), text (its text is',
    '--value exactly; a field showing its hint has none), checked, unchecked, enabled, disabled, selected, focused (the one',
    'element that matches is so). With --timeout it reads again every 500 ms until the condition holds. Exits 0 when it holds,',
    'else ASSERTION_FAILED (23) saying what the screen showed; a state condition on several matches is ELEMENT_AMBIGUOUS.',
    'It never touches the device. For scripts and `arc test` flows (docs/flows.md).',
  ].join(' '),
  kind: 'read',
  needs: {screen: 'read'},
  group: 'elements',
  input: z
    .object({
      condition: z.enum(CONDITIONS).describe(`What to check: ${CONDITIONS.join(', ')}`),
      ...selectorInput.shape,
      value: z.string().optional().describe('With text: the whole text the element must show'),
      timeout: durationField(
        'Keep reading every 500 ms up to this long until it holds: 500ms, 30s, 2m, or milliseconds (up to 24h; default 0, one read)'
      ).default(0),
    })
    // Checked with the schema, so a call that cannot be judged is refused before the device is opened.
    .superRefine((input, ctx) => {
      if (readSelector(input) === undefined)
        ctx.addIssue({code: 'custom', path: [], message: 'needs a selector: --text, --desc, --res-id or --class-name'})
      if (input.condition === 'text' && input.value === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['value'],
          message: 'is required with assert text: the whole text the element must show',
        })
      }
      if (input.condition !== 'text' && input.value !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['value'],
          message: `applies to assert text only, not to assert ${input.condition}`,
        })
      }
    }),
  cli: {
    id: 'assert',
    only: 'a check with an exit code for scripts and flows; agents read the screen with get_screen_state and find_elements',
    positional: ['condition'],
    examples: [
      '<%= config.bin %> <%= command.id %> visible --text ADD --exact-match --timeout 5000',
      '<%= config.bin %> <%= command.id %> gone --text Loading --timeout 10000',
      '<%= config.bin %> <%= command.id %> checked --res-id wifi_switch',
      '<%= config.bin %> <%= command.id %> text --res-id add_button --value ADD',
    ],
  },
  async handler(ctx, input) {
    // The schema refused a call without a selector.
    const selector = readSelector(input)!
    const asserted = `${input.condition} ${selector.what}${input.condition === 'text' ? ` = ${JSON.stringify(input.value)}` : ''}`
    // The elements the result or the error shows (with their ids): remembered as find's are, so an id taken from them
    // is checked like any other ("Follow" shown here never taps the "Following" it became).
    let shown: ScreenElement[] = []
    const check = (model: ScreenModel) => {
      shown = selector.match(model)
      return judge(model, input.condition, selector.match, input.value, selector.what)
    }
    try {
      let verdict: Verdict
      let attempts = 1
      if (input.timeout === 0) verdict = check(buildScreenModel(await ctx.driver.captureScreen()))
      else {
        let last: Verdict | undefined
        const end = await pollScreen(
          ctx,
          input.timeout,
          (n) => `asserting ${asserted} (${reads(n)})`,
          (model) => {
            last = check(model)
            return last.holds ? last : undefined
          }
        )
        attempts = end.attempts
        verdict = end.met ?? last ?? {holds: false, shown: `no read finished within ${input.timeout} ms`, elements: []}
      }
      const data = {
        condition: input.condition,
        holds: verdict.holds,
        reads: attempts,
        elements: verdict.elements.slice(0, 50).map(screenElementJson),
      }
      if (!verdict.holds) {
        throw new AssertionFailedError(
          `assert ${asserted} failed${input.timeout > 0 ? ` after ${reads(attempts)} in ${input.timeout} ms` : ''}: ${verdict.shown}`,
          {
            details: data,
            actions: ['See the screen: arc screen-state (or arc annotate -o screen.jpg).'],
          }
        )
      }
      return {text: `assert ${asserted}: holds${attempts > 1 ? ` (after ${reads(attempts)})` : ''}`, data}
    } finally {
      // At most the 50 an answer lists (its data, or an ambiguity's candidates).
      if (shown.length > 0) await rememberElements(ctx, shown.slice(0, 50))
    }
  },
})
