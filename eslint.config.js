// ESLint for arc: correctness rules (ESLint's and typescript-eslint's recommended sets, a few type-aware rules for
// promises), mocha's rules against focused or skipped tests, and the package boundaries as rules. Layout and
// spacing are Prettier's (.prettierrc.json), so every stylistic rule is off (eslint-config-prettier).
//
// Not eslint-config-oclif: its flat-config line (7.x) loads eslint-plugin-unicorn 72, which needs Node 22
// (Set.prototype.union) and stops ESLint on the Node 20.19 arc supports; its 6.x line needs ESLint 9 and the
// eslintrc compatibility layer. The rules below are the subset of oclif's that say something about correctness
// (its typescript-eslint and ESLint recommended sets, mocha's focused-test rule, no-unused-vars with `_` ignored).
import js from '@eslint/js'
import prettier from 'eslint-config-prettier'
import {createTypeScriptImportResolver} from 'eslint-import-resolver-typescript'
import importX from 'eslint-plugin-import-x'
import mocha from 'eslint-plugin-mocha'
import globals from 'globals'
import tseslint from 'typescript-eslint'

/** Test files, and the code that only tests, measurements and development scripts run (none of it is shipped). */
const TESTS = ['test/**', 'packages/*/test/**', 'plugins/*/test/**', 'packages/test-support/**', 'bench/**']
const DEV_SCRIPTS = ['scripts/**', 'plugins/*/scripts/**']

/** What no shipped source may import: the test-only entry of core and the test harness. */
const TEST_ONLY = [
  {
    name: '@arc-cli/core/testing',
    message: 'Test-only entry (packages/core/src/testing.ts): shipped code uses @arc-cli/core.',
  },
]
const TEST_ONLY_PATTERNS = [
  {group: ['@arc-cli/test-support', '@arc-cli/test-support/*'], message: 'The test harness is for tests only.'},
]

export default tseslint.config(
  {ignores: ['**/dist/**', '**/node_modules/**', '**/*.d.ts', 'packages/core/demo/**', 'oclif.manifest.json']},
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: {...globals.node},
      parserOptions: {project: './tsconfig.test.json', tsconfigRootDir: import.meta.dirname},
    },
    linterOptions: {reportUnusedDisableDirectives: 'error'},
    plugins: {'import-x': importX},
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: 'tsconfig.test.json',
          conditionNames: ['arc-source', 'types', 'import', 'node', 'default'],
        }),
      ],
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        {argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true},
      ],
      // `z.ZodObject<{}>` is zod's own name for an object schema with no fields; an interface that only extends one
      // type is how a class takes methods it defines on its prototype (ReadOnlyDriver).
      '@typescript-eslint/no-empty-object-type': [
        'error',
        {allowObjectTypes: 'always', allowInterfaces: 'with-single-extends'},
      ],
      // arc matches control characters on purpose: it writes them out of device text (printable(), TSV cells) and
      // strips ANSI colours from oclif's messages. Every such pattern names the range it means.
      'no-control-regex': 'off',
      // A promise nobody awaits loses its error (an unhandled rejection ends the process) and its ordering.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', {checksVoidReturn: false}],
      '@typescript-eslint/await-thenable': 'error',
      // Package boundaries: a package reaches another only by its name and public entries (package.json
      // `exports`), never by a relative path into its folder (../../packages/core/src/…, ../../other-plugin/src/…).
      'import-x/no-relative-packages': 'error',
      'no-restricted-imports': ['error', {paths: TEST_ONLY, patterns: TEST_ONLY_PATTERNS}],
    },
  },
  {
    // JavaScript files (bin/, scripts/, the CommonJS reporters) are not in a tsconfig: no type-aware rules there.
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['**/*.cjs'],
    languageOptions: {sourceType: 'commonjs'},
    rules: {'@typescript-eslint/no-require-imports': 'off'},
  },
  {
    files: DEV_SCRIPTS,
    rules: {'no-restricted-imports': 'off'},
  },
  {
    // Benchmarks measure a package's pieces themselves (screen-state's change tracking, the MCP test client), as
    // that package's own tests do; they are never built or shipped.
    files: ['bench/**'],
    rules: {'import-x/no-relative-packages': 'off'},
  },
  {
    // ReadOnlyDriver's interface adds the methods the loop below the class defines on its prototype, one per
    // refused action: the merge is the point, and a test calls every one.
    files: ['packages/core/src/driver/read-only-driver.ts'],
    rules: {'@typescript-eslint/no-unsafe-declaration-merging': 'off'},
  },
  {
    files: TESTS,
    plugins: {mocha},
    languageOptions: {globals: {...globals.mocha}},
    rules: {
      'no-restricted-imports': 'off',
      // chai's `expect(x).to.be.true` style is an expression statement.
      '@typescript-eslint/no-unused-expressions': 'off',
      'mocha/no-exclusive-tests': 'error',
      'mocha/no-pending-tests': 'error',
      'mocha/no-identical-title': 'error',
      'mocha/no-nested-tests': 'error',
      'mocha/handle-done-callback': 'error',
      'mocha/no-return-and-callback': 'error',
      // Patterns over dumpsys and logcat text keep its indentation as printed, space for space.
      'no-regex-spaces': 'off',
    },
  },
  {
    // The harness builds and runs the repository itself: it calls the root package's build scripts and loader
    // (scripts/bundle-core.js, bin/source-load-options.js), which no package exports.
    files: ['packages/test-support/src/built-cli.ts', 'packages/test-support/src/source-config.ts'],
    rules: {'import-x/no-relative-packages': 'off'},
  },
  prettier
)
