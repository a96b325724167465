import {ConfigError, InvalidInputError, readConfigSection, type ArcConfig} from '@arc-cli/core'

import {annotateConfigSchema, type AnnotateConfig, type PresetOverrides} from './annotate-config.js'
import {BUILTIN_PRESETS, DEFAULT_PRESET, type AnnotateStyle} from './presets.js'

export interface ResolvedStyle {
  name: string
  style: AnnotateStyle
}

/** Reads and validates the `annotate` config section (ConfigError naming the key when it is wrong). */
export function readAnnotateConfig(config: ArcConfig, configFile?: string): AnnotateConfig {
  return readConfigSection('annotate', config.annotate, annotateConfigSchema, configFile)
}

function applyOverrides(base: AnnotateStyle, o: PresetOverrides): AnnotateStyle {
  const {extends: _extends, dash, roleColors, ...rest} = o
  const style: AnnotateStyle = {...base, roleColors: {...base.roleColors, ...stripUndefined(roleColors ?? {})}}
  Object.assign(style, stripUndefined(rest))
  if (dash !== undefined) style.dash = dash === 'solid' ? [] : [...dash]
  return style
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>
}

/** Every preset name a user can pick: built-ins and config presets, sorted. */
function presetNames(config: AnnotateConfig): string[] {
  return [...new Set([...Object.keys(BUILTIN_PRESETS), ...Object.keys(config.presets ?? {})])].sort()
}

/**
 * Resolves a preset by name: a config preset applies its overrides to what it `extends` (a built-in of the same
 * name, else `default`, when it names none), following chains and refusing cycles. `fromFlag` says whether the
 * name came from --style (InvalidInputError) or from `annotate.style` (ConfigError).
 */
export function resolveStyle(config: AnnotateConfig, requested: string | undefined, configFile?: string): ResolvedStyle {
  const fromFlag = requested !== undefined
  const name = requested ?? config.style ?? DEFAULT_PRESET
  const custom = config.presets ?? {}
  const where = configFile ? ` in ${configFile}` : ''

  if (!(name in custom) && !(name in BUILTIN_PRESETS)) {
    const allowed = presetNames(config).join(', ')
    if (fromFlag) {
      throw new InvalidInputError(`--style: unknown preset ${JSON.stringify(name)}; allowed: ${allowed}`, {
        details: {input: 'style', allowed: presetNames(config)},
        actions: ['Define it under annotate.presets in the config, or pick one of the listed presets.'],
      })
    }
    throw new ConfigError(`invalid config${where}: annotate.style: unknown preset ${JSON.stringify(name)}; allowed: ${allowed}`, {
      details: {key: 'annotate.style', allowed: presetNames(config)},
    })
  }

  const build = (current: string, seen: string[]): AnnotateStyle => {
    const overrides = custom[current]
    if (!overrides) return {...(BUILTIN_PRESETS[current] as AnnotateStyle)}
    const parent = overrides.extends ?? (current in BUILTIN_PRESETS ? current : DEFAULT_PRESET)
    const key = `annotate.presets.${current}.extends`
    // A config preset named like a built-in starts from that built-in (it overrides it).
    if (parent === current && current in BUILTIN_PRESETS) {
      return applyOverrides({...(BUILTIN_PRESETS[current] as AnnotateStyle)}, overrides)
    }
    if (seen.includes(parent)) {
      throw new ConfigError(`invalid config${where}: ${key}: presets extend each other in a cycle (${[...seen, parent].join(' -> ')})`, {
        details: {key},
      })
    }
    if (!(parent in custom) && !(parent in BUILTIN_PRESETS)) {
      throw new ConfigError(
        `invalid config${where}: ${key}: unknown preset ${JSON.stringify(parent)}; allowed: ${presetNames(config).join(', ')}`,
        {details: {key}},
      )
    }
    return applyOverrides(build(parent, [...seen, parent]), overrides)
  }
  // Every config preset is resolved, not only the one in use, so a broken one is reported the first time.
  const built = new Map(Object.keys(custom).map((other) => [other, build(other, [other])]))
  return {name, style: built.get(name) ?? build(name, [name])}
}
