import {defineTool, printableLine, z} from '@arc-cli/core'

import {codePoints} from './type-text.js'

export const getClipboard = defineTool({
  name: 'get_clipboard',
  title: 'Read the clipboard',
  description:
    'Returns the clipboard text as JSON {"text": "…"} ({"text": null} when empty). Over plain ADB no Android version lets the shell read it reliably (Android 10+ denies it silently), so this fails with UNSUPPORTED rather than report an empty clipboard that may be a denied read; see `arc doctor`. The CLI prints the text itself (--json: the object).',
  kind: 'read',
  needs: {clipboard: 'read'},
  group: 'text',
  input: z.object({}),
  cli: {id: 'clipboard get', examples: ['<%= config.bin %> <%= command.id %>']},
  async handler({driver}) {
    const text = await driver.getClipboard()
    // The CLI prints the text itself, line by line with control characters written out.
    const human =
      text === null
        ? 'The clipboard is empty.'
        : text
            .split('\n')
            .map((line) => printableLine(line))
            .join('\n')
    return {text: JSON.stringify({text}), data: {text}, cli: {human}}
  },
})

export const setClipboard = defineTool({
  name: 'set_clipboard',
  title: 'Set the clipboard',
  description:
    'Puts text on the clipboard. Over plain ADB Android has no shell command for it, so this fails with UNSUPPORTED until the device has a helper; see `arc doctor`.',
  kind: 'action',
  needs: {clipboard: 'act'},
  group: 'text',
  input: z.object({
    text: z
      .string()
      .refine(
        (text) => !/\p{Cs}/u.test(text),
        'cannot contain a lone surrogate (half of a UTF-16 pair: it has no UTF-8)'
      )
      .describe('Text to set in clipboard'),
  }),
  cli: {id: 'clipboard set', positional: ['text'], examples: ['<%= config.bin %> <%= command.id %> "Hello from arc"']},
  async handler({driver}, {text}) {
    await driver.setClipboard(text)
    // By code point, as the typing tools count characters: an emoji is one, not its two UTF-16 halves.
    const characters = codePoints(text)
    return {text: `Clipboard set successfully (${characters} characters)`, data: {characters}}
  },
})
