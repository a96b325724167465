// `npm run bench -- annotate-floor`: a process that loads arc's built core (the bundle with oclif and zod, through
// its code cache) and does nothing else, to tell the bundle's share of arc's start-up from oclif's and Node's.
import '@arc-cli/core'
