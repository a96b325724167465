#!/usr/bin/env -S node --conditions=arc-source
// arc from its sources, for development (dev-main.js). It checks the Node.js version first, as bin/run.js does and
// in the same ES5 (see there; test/cli/node-version.test.ts runs both). A Node.js older than 14.9 (12.19 in 12.x)
// stops before this file at the shebang's --conditions flag, which it does not know.
var NEEDED = '20.19.0' // package.json `engines` (test/cli/node-version.test.ts holds the two equal)

function olderThan(found, needed) {
  var have = found.split('.')
  var want = needed.split('.')
  for (var i = 0; i < want.length; i++) {
    var a = parseInt(have[i], 10) || 0
    var b = parseInt(want[i], 10)
    if (a !== b) return a < b
  }
  return false
}

var found = String(process.versions.node)
if (olderThan(found, NEEDED)) {
  var error = {
    code: 'UNSUPPORTED',
    message: 'arc needs Node.js ' + NEEDED + ' or newer, and this is Node.js ' + found + ' (' + process.execPath + ')',
    actions: [
      'Install Node.js ' +
        NEEDED.replace(/\.0$/, '') +
        ' or newer: an LTS release from https://nodejs.org/en/download, ' +
        'or `nvm install --lts`.',
      'arc runs the first `node` on PATH: put the newer one first, or start arc with it: `/path/to/node ' +
        process.argv[1] +
        ' …`.',
    ],
    details: {reason: 'NODE_TOO_OLD', needed: NEEDED, found: found, node: process.execPath},
    exitCode: 12,
  }
  var args = process.argv.slice(2)
  var end = args.indexOf('--')
  if ((end === -1 ? args : args.slice(0, end)).indexOf('--json') !== -1) {
    process.stdout.write(JSON.stringify({error: error}, null, 2) + '\n')
  } else {
    process.stderr.write('Error [UNSUPPORTED]: ' + error.message + '\nTry: ' + error.actions.join('\nTry: ') + '\n')
  }
  // Set, not process.exit(): the process ends when the message is written, a pipe's included.
  process.exitCode = error.exitCode
} else {
  new Function('return import("./dev-main.js")')()
}
