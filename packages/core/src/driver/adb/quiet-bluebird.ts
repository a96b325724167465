/**
 * adbkit's sync push uses bluebird's deprecated `Promise.defer`, and bluebird prints a warning with a stack to
 * stderr for it whenever NODE_ENV=development (which oclif's bin/dev.js sets). arc owns its stderr, so bluebird's
 * warnings are off unless the user asks for them. Imported before adbkit, so it runs before bluebird loads.
 */
process.env.BLUEBIRD_WARNINGS ??= '0'

export {}
