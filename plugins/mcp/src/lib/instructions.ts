/**
 * The server's `instructions` (MCP `initialize` result), which clients put in the agent's context once: how to look
 * at the screen cheaply, how to act by element id, and what STALE_ELEMENT means. Short, since it is paid for in
 * every session; it names only tools the server serves, by the names it lists them under.
 */
import {deviceName, type DeviceTarget} from './tool-set.js'

export interface InstructionFacts {
  /** Spec names (without `android_`) of the tools served. */
  served: ReadonlySet<string>
  targets: DeviceTarget[]
  slugNames: boolean
  /** The server's default `detail` for get_screen_state. */
  detail: 'full' | 'compact'
}

const ELEMENT_TOOLS = ['click_element', 'long_click_element', 'type_append_text', 'scroll_to_element']

export function serverInstructions({served, targets, slugNames, detail}: InstructionFacts): string {
  const several = targets.length > 1
  const slug = slugNames ? (several ? '<slug>_' : targets[0]?.slug ? `${targets[0].slug}_` : '') : ''
  const name = (tool: string) => `android_${slug}${tool}`
  const lines = ['arc reads and drives Android devices over ADB.']
  if (served.has('get_screen_state')) {
    lines.push(
      `Look cheaply: ${name('get_screen_state')} with detail "compact" gives every control and text with its id, ` +
        `centre and non-default flags, in far fewer tokens than "full" (this server's default: ${detail}). ` +
        'On later reads pass changes "diff": only the rows added, removed and changed since your last read, or ' +
        'one line when nothing changed ("ack": that line, else the whole screen).'
    )
  }
  const acting = ELEMENT_TOOLS.filter((t) => served.has(t))
  if (acting.length > 0) {
    lines.push(
      `Act by id: pass an element id from a read (node_<hash>, or the bare hash compact shows) to ` +
        `${acting.map(name).join(', ')}…; use x,y only for what has no id. x,y are screen pixels (bounds, centres), ` +
        `not a scaled image's: a screenshot's result gives its scale.`
    )
    lines.push(
      'STALE_ELEMENT: the screen changed since that id was read, so nothing was done (an id never acts on another ' +
        'element): read the screen again and use the id it gives now.'
    )
  }
  if (several) {
    const list = targets.map((t) => (t.slug && t.device ? `${t.slug} (${t.device})` : deviceName(t))).join(', ')
    lines.push(
      `Devices: ${list}. ${slugNames ? 'Each has its own tools, android_<slug>_<name>.' : 'Every device tool needs device.'}`
    )
  }
  return lines.join('\n')
}
