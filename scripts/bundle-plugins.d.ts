/** Types of bundle-plugins.js (plain JavaScript, run by `npm run build`), for the tests that import it. */
export interface PluginBundle {
  plugin: string
  entry: string
  file: string
}
export declare const PLUGIN_BUNDLES: PluginBundle[]
export declare function bundleFile(bundle: PluginBundle): string
export declare function bundlePlugins(): Promise<void>
export declare function pluginBundleStaleness(): string | undefined
export declare function cleanPluginBundles(): void
