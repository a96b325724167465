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
function presetNames(custom: Map<string, PresetOverrides>): string[] {
  return [...new Set([...Object.keys(BUILTIN_PRESETS), ...custom.keys()])].sort()
}

/** Longest `extends` chain followed; a longer one is an INVALID_CONFIG naming the preset. */
export const MAX_EXTENDS_DEPTH = 32

/**
 * Resolves a preset by name: a config preset applies its overrides to what it `extends` (a built-in of the same
 * name, else `default`, when it names none), following chains and refusing cycles. `fromFlag` says whether the
 * name came from --style (InvalidInputError) or from `annotate.style` (ConfigError). Names are looked up in Maps,
 * never on objects, so `toString` or `__proto__` is an unknown preset like any other; chains are followed in a
 * loop (no recursion) up to MAX_EXTENDS_DEPTH, and each preset is built once.
 */
export function resolveStyle(
  config: AnnotateConfig,
  requested: string | undefined,
  configFile?: string
): ResolvedStyle {
  const fromFlag = requested !== undefined
  const name = requested ?? config.style ?? DEFAULT_PRESET
  const custom = new Map(Object.entries(config.presets ?? {}))
  const builtins = new Map(Object.entries(BUILTIN_PRESETS))
  const where = configFile ? ` in ${configFile}` : ''
  const known = (preset: string) => custom.has(preset) || builtins.has(preset)

  if (!known(name)) {
    const allowed = presetNames(custom)
    if (fromFlag) {
      throw new InvalidInputError(`--style: unknown preset ${JSON.stringify(name)}; allowed: ${allowed.join(', ')}`, {
        details: {input: 'style', allowed},
        actions: ['Define it under annotate.presets in the config, or pick one of the listed presets.'],
      })
    }
    throw new ConfigError(
      `invalid config${where}: annotate.style: unknown preset ${JSON.stringify(name)}; allowed: ${allowed.join(', ')}`,
      {
        details: {key: 'annotate.style', allowed},
      }
    )
  }

  const built = new Map<string, AnnotateStyle>()
  const build = (start: string): AnnotateStyle => {
    // Walk up the chain to a built-in (or an already built preset), then apply the overrides on the way down.
    const chain: string[] = []
    let current = start
    let base: AnnotateStyle
    for (;;) {
      const done = built.get(current)
      if (done) {
        base = done
        break
      }
      const overrides = custom.get(current)
      if (!overrides) {
        base = {...(builtins.get(current) as AnnotateStyle)}
        break
      }
      chain.push(current)
      const parent = overrides.extends ?? (builtins.has(current) ? current : DEFAULT_PRESET)
      const key = `annotate.presets.${current}.extends`
      // A config preset named like a built-in starts from that built-in (it overrides it).
      if (parent === current && builtins.has(current)) {
        base = {...(builtins.get(current) as AnnotateStyle)}
        break
      }
      if (chain.includes(parent)) {
        throw new ConfigError(
          `invalid config${where}: ${key}: presets extend each other in a cycle (${[...chain, parent].join(' -> ')})`,
          {
            details: {key},
          }
        )
      }
      if (!known(parent)) {
        throw new ConfigError(
          `invalid config${where}: ${key}: unknown preset ${JSON.stringify(parent)}; allowed: ${presetNames(custom).join(', ')}`,
          {details: {key}}
        )
      }
      if (chain.length >= MAX_EXTENDS_DEPTH) {
        throw new ConfigError(
          `invalid config${where}: annotate.presets.${start}.extends: the chain of presets is longer than ${MAX_EXTENDS_DEPTH} (${chain.slice(0, 4).join(' -> ')} -> …)`,
          {details: {key: `annotate.presets.${start}.extends`, limit: MAX_EXTENDS_DEPTH}}
        )
      }
      current = parent
    }
    for (const preset of chain.reverse()) {
      base = applyOverrides(base, custom.get(preset) as PresetOverrides)
      built.set(preset, base)
    }
    return base
  }
  // Every config preset is resolved, not only the one in use, so a broken one is reported the first time.
  for (const other of custom.keys()) build(other)
  return {name, style: build(name)}
}
