import type {ArcConfig} from '@arc-cli/core'

import {readAnnotateConfig, resolveStyle} from '../style/resolve-style.js'

/**
 * `arc:config` hook: validates the `annotate` section (every key, every preset and its `extends` chain, and
 * `annotate.style`) for every command, so a broken one fails `arc config` and screen-state too. Loads no canvas.
 */
export default async function arcConfig(options: {arcConfig: ArcConfig; filepath?: string}): Promise<void> {
  resolveStyle(readAnnotateConfig(options.arcConfig, options.filepath), undefined, options.filepath)
}
