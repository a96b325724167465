/**
 * Which tools a server offers and under which names: `android_<name>` once for every device (a `device` argument
 * picks one when several are served), or the spec's `android_<slug>_<name>` per device (`--slug-names`, `--slug`),
 * narrowed by `--tools` (globs over names, `group:<group>`) and `--read-only`.
 */
import {InvalidInputError, TOOL_GROUPS, type AnyTool, type ToolGroup} from '@arc-cli/core'

/** Letters, digits and underscores, at most 20 (the spec's device slug); empty means no slug. */
export const SLUG = /^[A-Za-z0-9_]{0,20}$/

export function checkSlug(slug: string, input: string): string {
  if (!SLUG.test(slug)) {
    throw new InvalidInputError(
      `${input}: slug ${JSON.stringify(slug)} must be letters, digits and underscores, at most 20 characters`,
      {
        details: {input, slug},
      }
    )
  }
  return slug
}

export function toolName(slug: string | undefined, name: string): string {
  return slug ? `android_${slug}_${name}` : `android_${name}`
}

/** One device the server drives: its slug (may be empty) and its device string (undefined: the default device). */
export interface DeviceTarget {
  slug: string
  device?: string
}

/** What an agent calls a device in the `device` argument: its slug, else the device string it was served by. */
export function deviceName(target: DeviceTarget): string {
  return target.slug || target.device || ''
}

/**
 * `--device` values: `SERIAL` alone, or `slug=SERIAL` (repeatable). With `slugNames` (the spec's per-device tool
 * names, android_<slug>_<name>) several devices each need a slug; otherwise a device is named by its slug, else by
 * the device string itself, and the names must be distinct.
 */
export function parseTargets(devices: string[], slug: string | undefined, slugNames = true): DeviceTarget[] {
  const defaultSlug = checkSlug(slug ?? '', '--slug')
  if (devices.length === 0) return [{slug: defaultSlug}]
  const targets = devices.map((value): DeviceTarget => {
    const m = /^([^=/\\]*)=(.+)$/.exec(value)
    if (!m) return {slug: defaultSlug, device: value}
    return {slug: checkSlug(m[1] as string, `--device ${value}`), device: m[2] as string}
  })
  if (targets.length > 1) {
    const seen = new Set<string>()
    for (const t of targets) {
      if (slugNames && !t.slug) {
        throw new InvalidInputError(
          `--device ${t.device}: with several devices and --slug-names each needs a slug (--device slug=SERIAL)`,
          {
            details: {input: '--device'},
          }
        )
      }
      const name = slugNames ? t.slug : deviceName(t)
      if (seen.has(name))
        throw new InvalidInputError(`--device: ${JSON.stringify(name)} names two devices`, {
          details: {input: '--device'},
        })
      seen.add(name)
    }
    if (!slugNames) {
      // A call's `device` may give a listed name or a serial: a name that is another device's serial would make one
      // string name two devices.
      for (const t of targets) {
        const other = targets.find((o) => o !== t && o.device === deviceName(t))
        if (other) {
          throw new InvalidInputError(
            `--device: ${JSON.stringify(deviceName(t))} is the name of one device and the serial of another; give them distinct names`,
            {details: {input: '--device'}}
          )
        }
      }
    }
  }
  return targets
}

/** A tool's group: its own, else a guess from its name (so tools added without one still land somewhere sensible). */
export function toolGroup(tool: AnyTool): ToolGroup {
  if (tool.group) return tool.group
  const n = tool.name
  if (/element/.test(n)) return 'elements'
  if (/file|storage|download/.test(n)) return 'files'
  if (/clipboard|text/.test(n)) return 'text'
  if (/app/.test(n)) return 'apps'
  if (/key|press_(back|home|recents)/.test(n)) return 'keys'
  if (/tap|press|swipe|scroll|pinch|gesture|drag|fling/.test(n)) return 'touch'
  if (/screen|annotat|snapshot|idle|wait/.test(n)) return 'screen'
  return 'system'
}

function globRegex(glob: string): RegExp {
  const body = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replaceAll('*', '.*')
    .replaceAll('?', '.')
  return new RegExp(`^${body}$`)
}

/**
 * Turns `--tools` values (comma-separated or repeated) into a test on a tool: a glob over the spec name with or
 * without the `android_` prefix (`get_*`, `android_tap`), or `group:<group>`. No patterns: every tool.
 */
export function toolFilter(patterns: string[]): (tool: AnyTool) => boolean {
  const items = patterns
    .flatMap((p) => p.split(','))
    .map((p) => p.trim())
    .filter(Boolean)
  if (items.length === 0) return () => true
  const tests = items.map((item): ((tool: AnyTool) => boolean) => {
    if (item.startsWith('group:')) {
      const group = item.slice('group:'.length)
      if (!(TOOL_GROUPS as readonly string[]).includes(group)) {
        throw new InvalidInputError(
          `--tools: unknown group ${JSON.stringify(group)}; groups: ${TOOL_GROUPS.join(', ')}`,
          {
            details: {input: '--tools'},
          }
        )
      }
      return (tool) => toolGroup(tool) === group
    }
    const re = globRegex(item.replace(/^android_/, ''))
    return (tool) => re.test(tool.name)
  })
  return (tool) => tests.some((test) => test(tool))
}

export interface ToolSelection {
  tools?: string[]
  readOnly?: boolean
}

/** The tools a server offers: served over MCP at all, matching `--tools`, and only `read` ones with `--read-only`. */
export function selectTools(all: AnyTool[], selection: ToolSelection): AnyTool[] {
  const matches = toolFilter(selection.tools ?? [])
  const seen = new Set<string>()
  return all.filter((tool) => {
    if (tool.cli.only !== undefined || seen.has(tool.name)) return false
    seen.add(tool.name)
    return matches(tool) && (!selection.readOnly || tool.kind === 'read')
  })
}
