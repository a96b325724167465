#!/usr/bin/env node
// arc's entry. arc needs the Node.js that package.json's `engines` names; an older one stopped at the first module
// using something newer (a syntax error, a missing export, a stack trace) before arc could say anything. This file
// says it first, as arc says any error: UNSUPPORTED (exit 12), reason NODE_TOO_OLD, on stdout with --json
// (docs/errors.md). So that every Node.js reads it, it is ES5 that parses both as a module and as a CommonJS script
// (Node.js before 12.17 reads it so), with nothing newer before the check (test/cli/node-version.test.ts parses it
// so). arc itself (main.js) loads only after the check, through a Function, whose import() an ES5 parser never sees;
// it resolves from this module (ECMA-262 CreateDynamicFunction keeps the active script or module).
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
  new Function('return import("./main.js")')()
}
