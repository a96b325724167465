// The library entry (`@arc-cli/plugin-annotate`). oclif loads a command's own module (src/commands/) instead.
export {tools, commands} from './commands.js'
export {saveImage} from './tools/annotate.js'
export {annotateScreenshot} from './annotate-screenshot.js'
export {annotateDevice} from './annotate-device.js'
export {resolveAnnotateOptions} from './annotate-options.js'
export {formatForOutput} from './output-format.js'
export {holdNextAnnotation} from './image-work.js'
