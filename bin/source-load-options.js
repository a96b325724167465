import {Plugin} from '@oclif/core'

/**
 * oclif load options that see arc as its TypeScript sources define it, for bin/dev.js, the tests and `npm run docs`.
 * The root package and every plugin it lists load with `ignoreManifest`: the oclif.manifest.json files that
 * `npm run build` writes describe the built dist/ for bin/run.js, and may be older than the sources. Needs
 * NODE_ENV=development (or test), where oclif reads the commands from src/ through tsx.
 */
export async function sourceLoadOptions(root) {
  if (!['development', 'test'].includes(process.env.NODE_ENV ?? '')) {
    throw new Error('sourceLoadOptions: set NODE_ENV=development first (oclif reads dist/, not the sources, otherwise)')
  }
  const rootPlugin = new Plugin({root, isRoot: true, ignoreManifest: true})
  await rootPlugin.load()
  const children = await Promise.all(
    (rootPlugin.pjson.oclif.plugins ?? []).map(async (name) => {
      const plugin = new Plugin({name, root, type: 'core', ignoreManifest: true})
      await plugin.load()
      return plugin
    })
  )
  return {root, plugins: new Map([rootPlugin, ...children].map((plugin) => [plugin.name, plugin]))}
}
