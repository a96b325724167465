/**
 * The parts of oclif arc runs on, for bin/run.js, the core and every package's commands. The built core is one
 * bundle with oclif inside (scripts/bundle-core.js): bin/run.js starts this copy (`@arc-cli/core/oclif`), and the
 * commands must extend this same copy, so they take `Command`, `Flags` and `Args` from `@arc-cli/core`, never
 * from `@oclif/core` (type-only imports are fine: they leave nothing at run time).
 * Each part comes from its own entry, not oclif's index, which would also load its help renderer, ux helpers and a
 * Node version check through semver: none of it needed to run a command (oclif loads its help class when asked).
 */
export * as Args from '@oclif/core/args'
export {Command} from '@oclif/core/command'
export {execute} from '@oclif/core/execute'
export * as Flags from '@oclif/core/flags'
