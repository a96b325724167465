import type {ArcConfig} from '@arc-cli/core'

/**
 * `arc:config` hook: validates the `annotate` section (every key, every preset and its `extends` chain, and
 * `annotate.style`) for every command, so a broken one fails `arc config` and screen-state too. Loads no canvas,
 * and, when the config has no `annotate` section (the built-in presets are valid), not even the style modules.
 */
export default async function arcConfig(options: {arcConfig: ArcConfig; filepath?: string}): Promise<void> {
  if (options.arcConfig.annotate === undefined) return
  const {readAnnotateConfig, resolveStyle} = await import('../style/resolve-style.js')
  resolveStyle(readAnnotateConfig(options.arcConfig, options.filepath), undefined, options.filepath)
}
