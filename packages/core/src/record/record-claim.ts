/**
 * One recording per flow file. `--record FILE` rewrites its file whole after every step, so two sessions recording
 * into one file (two `arc mcp serve` a client configuration each started, or a batch next to a server) overwrite
 * each other's steps: the file ends with one session's steps, the other's lost, and a second session's start
 * replaced the first's recording at once. A recording claims its file for as long as it records, with a listening
 * Unix socket named after the file's path, as arc's device lock is (driver/device-lock.ts lockAddress: the kernel
 * lets one process listen on a name and frees it when that process ends, however it ends); a second claim is
 * refused, naming the holder.
 */
import {existsSync, realpathSync} from 'node:fs'
import {mkdir} from 'node:fs/promises'
import path from 'node:path'

import {lockAddress} from '../driver/device-lock.js'
import {claimSocket, type SocketClaim} from '../socket-claim.js'

/** A file's name however a link to one of its folders spells it (the file itself may not exist yet). */
function canonical(file: string): string {
  const folder = path.dirname(file)
  if (!existsSync(folder)) return file
  try {
    return path.join(realpathSync(folder), path.basename(file))
  } catch {
    return file
  }
}

/**
 * Claims the machine-wide name `key` (its address made as the device lock makes one: abstract on Linux, a socket file
 * in arc's cache folder elsewhere), or says who holds it: a recording's file here, `arc test`'s report folder.
 */
export async function claimNamed(key: string): Promise<SocketClaim> {
  const address = lockAddress(key)
  if (address.file) await mkdir(path.dirname(address.path), {recursive: true})
  return claimSocket(address.path, address.file)
}

/** The recordings this process holds: a second claim of the same file here is refused as another process's is. */
const held = new Set<string>()

/**
 * Claims `file` for a recording; rejects, naming who holds it, when another recording (of this process or another)
 * has it. `release` lets it go (a process that ends lets it go anyway).
 */
export async function claimRecordFile(file: string): Promise<{release(): void}> {
  const key = `record:${canonical(path.resolve(file))}`
  if (held.has(key)) throw new Error('another recording of this process writes it')
  const claim = await claimNamed(key)
  if ('heldBy' in claim)
    throw new Error(
      `another arc process${claim.heldBy !== undefined ? ` (pid ${claim.heldBy})` : ''} records into it, and each recording rewrites the whole file: give this one a file of its own`
    )
  held.add(key)
  return {
    release: () => {
      if (held.delete(key)) claim.release()
    },
  }
}
