// `npm run bench -- annotate-floor`: a process that loads the canvas library as floor-annotate.mjs does and does
// nothing else, to tell its share of the floor from the image work's.
import '@napi-rs/canvas'
