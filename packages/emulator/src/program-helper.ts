import {spawnSync} from 'node:child_process'
import {accessSync, constants} from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

import {ConfigError} from '@arc-cli/core'

/**
 * Which program relays an emulated device program (uiautomator, input, ls…) to the emulator: `perl` runs
 * bin/device-command.pl, `node` runs bin/device-command.cjs. Both speak the same frames; they differ in start-up
 * cost only (a few milliseconds for perl, tens for Node.js), which every device program pays.
 */
export type ProgramHelper = 'perl' | 'node'

const PERL_HELPER = fileURLToPath(new URL('../bin/device-command.pl', import.meta.url))
const NODE_HELPER = fileURLToPath(new URL('../bin/device-command.cjs', import.meta.url))

/** Architectures whose Linux numbers AF_UNIX and SOCK_STREAM 1, as device-command.pl assumes (MIPS differs). */
const PERL_ARCHES = new Set(['x64', 'arm64', 'arm', 'ia32', 'ppc64', 's390x', 'riscv64', 'loong64'])

let perlFound: string | undefined | null = null

/** The perl that can run device-command.pl here, or undefined: Linux, a known architecture, perl on PATH, and a trial run. */
function usablePerl(): string | undefined {
  if (perlFound !== null) return perlFound
  perlFound = undefined
  if (process.platform !== 'linux' || !PERL_ARCHES.has(process.arch)) return perlFound
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue
    const candidate = path.join(dir, 'perl')
    try {
      accessSync(candidate, constants.X_OK)
    } catch {
      continue
    }
    // The trial: the script compiles, makes its socket and fails to connect to a path that does not exist, which
    // it reports as exit 255 with nothing on stderr (a compile error also exits 255, but says why).
    const trial = spawnSync(candidate, [PERL_HELPER, 'trial'], {
      env: {ARC_EMU_SOCKET: path.join(path.dirname(PERL_HELPER), 'no-such-socket'), ARC_EMU_SESSION: 'trial'},
      encoding: 'utf8',
      timeout: 5000,
    })
    if (trial.status === 255 && trial.stderr === '') perlFound = candidate
    break
  }
  return perlFound
}

/**
 * The helper to use and the command line that starts it, before the program's name and arguments. Without a
 * choice, perl where it can run the helper, else Node.js (this very binary). Choosing `perl` where it cannot is a
 * ConfigError.
 */
export function chooseHelper(choice?: ProgramHelper): {helper: ProgramHelper; command: string[]} {
  if (choice !== 'node') {
    const perl = usablePerl()
    if (perl) return {helper: 'perl', command: [perl, PERL_HELPER]}
    if (choice === 'perl') {
      throw new ConfigError('the perl program helper needs Linux and a perl on PATH that can run bin/device-command.pl', {
        actions: ['Leave the helper unset (or set it to node) to relay device programs through Node.js.'],
      })
    }
  }
  return {helper: 'node', command: [process.execPath, NODE_HELPER]}
}
