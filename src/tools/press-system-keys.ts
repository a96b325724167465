import {defineTool, resolveKey, type AnyTool, z} from '@arc-cli/core'

/** One tool per system button: the key event it sends and the spec's success text; `--json` as `press key`'s. */
function systemKey(name: string, key: string, label: string, description: string): AnyTool {
  return defineTool({
    name: `press_${name}`,
    title: `Press the ${label} button`,
    description,
    kind: 'action',
    needs: {input: 'act'},
    group: 'keys',
    input: z.object({}),
    cli: {id: `press ${name}`, examples: [`<%= config.bin %> <%= command.id %>`]},
    async handler({driver}) {
      const resolved = resolveKey(key)
      await driver.pressKey(resolved.word)
      return {text: `${label} button press executed successfully`, data: {key: resolved.key, code: resolved.code}}
    },
  })
}

export const pressBack = systemKey('back', 'BACK', 'Back', 'Presses the back button (KEYCODE_BACK).')
export const pressHome = systemKey('home', 'HOME', 'Home', 'Navigates to the home screen (KEYCODE_HOME).')
export const pressRecents = systemKey(
  'recents',
  'APP_SWITCH',
  'Recents',
  'Opens the recent apps screen (KEYCODE_APP_SWITCH).'
)
