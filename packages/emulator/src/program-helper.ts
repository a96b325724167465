import {spawn} from 'node:child_process'
import {accessSync, constants} from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

import {ConfigError} from '@arc-cli/core'

import {CommandChannel} from './command-channel.js'

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

/** The trial of each perl tried, by path: one per process. */
const trials = new Map<string, Promise<boolean>>()

/** The first `perl` on PATH that may be run, on Linux and a known architecture; else undefined. */
function perlOnPath(): string | undefined {
  if (process.platform !== 'linux' || !PERL_ARCHES.has(process.arch)) return undefined
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue
    const candidate = path.join(dir, 'perl')
    try {
      accessSync(candidate, constants.X_OK)
      return candidate
    } catch {
      // not here
    }
  }
  return undefined
}

/**
 * The trial: `perl` relays one program through a real command channel (a socket in `dir`) as it will relay every
 * device program, so the request must arrive and the program's output and exit status come back. A helper that
 * merely compiles and exits as a failed connect does (255, nothing said) would fail every program.
 */
async function relaysThrough(perl: string, dir: string): Promise<boolean> {
  const socketPath = path.join(dir, 'helper-trial.sock')
  const channel = await CommandChannel.start(socketPath, async (token, io) => {
    if (token !== 'trial' || io.argv.join(' ') !== 'trial run') return 1
    io.out('relayed\n')
    return 42
  })
  try {
    return await new Promise<boolean>((resolve) => {
      const child = spawn(perl, [PERL_HELPER, 'trial', 'run'], {
        env: {ARC_EMU_SOCKET: socketPath, ARC_EMU_SESSION: 'trial'},
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 5000,
      })
      let output = ''
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('latin1')))
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('latin1')))
      child.on('error', () => resolve(false))
      child.on('close', (code) => resolve(code === 42 && output === 'relayed\n'))
    })
  } finally {
    await channel.close()
  }
}

/**
 * The helper to use and the command line that starts it, before the program's name and arguments. Without a
 * choice, perl where it relays a trial program (through a socket in `dir`, a socketFolder), else Node.js (this
 * very binary). Choosing `perl` where it cannot is a ConfigError.
 */
export async function chooseHelper(
  choice: ProgramHelper | undefined,
  dir: string
): Promise<{helper: ProgramHelper; command: string[]}> {
  if (choice !== 'node') {
    const perl = perlOnPath()
    if (perl) {
      let trial = trials.get(perl)
      if (!trial) trials.set(perl, (trial = relaysThrough(perl, dir).catch(() => false)))
      if (await trial) return {helper: 'perl', command: [perl, PERL_HELPER]}
    }
    if (choice === 'perl') {
      throw new ConfigError(
        'the perl program helper needs Linux and a perl on PATH that can run bin/device-command.pl',
        {
          actions: ['Leave the helper unset (or set it to node) to relay device programs through Node.js.'],
        }
      )
    }
  }
  return {helper: 'node', command: [process.execPath, NODE_HELPER]}
}
