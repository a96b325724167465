// The library entry of arc's oclif core. oclif does not load it: each command is its own module in commands/
// (one per command id, found through oclif.manifest.json), so a command loads only what it needs.
export {tools} from './tools/index.js'
