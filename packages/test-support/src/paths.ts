import {existsSync, readdirSync} from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

/** The repository root (where package.json and bin/ are). */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url))

/** The real-screen fixtures, read from ../shared beside the clone; never copied into the project. */
export const FIXTURES_DIR = path.resolve(ROOT, '..', 'shared', 'fixtures', 'real')

export const fixturesAvailable = existsSync(FIXTURES_DIR)

/** Names of the fixture folders (empty when ../shared is absent). */
export function fixtureNames(): string[] {
  if (!fixturesAvailable) return []
  return readdirSync(FIXTURES_DIR, {withFileTypes: true})
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
}

export function fixturePath(name: string, file = ''): string {
  return path.join(FIXTURES_DIR, name, file)
}

/** In a before() or it() callback (a describe callback has no skip()): skips when ../shared/fixtures/real is absent. */
export function requireFixtures(ctx: Mocha.Context): void {
  if (!fixturesAvailable) ctx.skip()
}

/** Real command output (`getevent -pl`, dumpsys…) from ../shared; tests skip when it is absent. */
export const DEVICE_OUTPUT_DIR = path.resolve(ROOT, '..', 'shared', 'fixtures', 'device-output')
