/**
 * What scripts/bundle-plugins.js bundles into `dist/bundle/annotate.cjs` (load-bundled.ts loads it): the annotate
 * tool, with its options and style modules, and, on first use, its image code. esbuild turns the `import()` of a
 * bundled module into a lazy start inside the bundle, so loading the tool still loads no canvas.
 */
export {annotate} from './tools/annotate.js'

export const loadAnnotateDevice = () => import('./annotate-device.js')
