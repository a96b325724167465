/**
 * One recording per flow file. `--record FILE` rewrites its file whole after every step, so two sessions recording
 * into one file (two `arc mcp serve` a client configuration each started, or a batch next to a server) overwrite
 * each other's steps: the file ends with one session's steps, the other's lost, and a second session's start
 * replaced the first's recording at once. A recording claims its file for as long as it records, with a listening
 * Unix socket named after the file's path, as arc's device lock is (driver/device-lock.ts lockAddress: the kernel
 * lets one process listen on a name and frees it when that process ends, however it ends); a second claim is
 * refused, naming the holder.
 */
import {existsSync, realpathSync, rmSync} from 'node:fs'
import {mkdir} from 'node:fs/promises'
import net from 'node:net'
import path from 'node:path'

import {lockAddress} from '../driver/device-lock.js'

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

/** The recordings this process holds: a second claim of the same file here is refused as another process's is. */
const held = new Set<string>()

/**
 * Claims `file` for a recording; rejects, naming who holds it, when another recording (of this process or another)
 * has it. `release` lets it go (a process that ends lets it go anyway).
 */
export async function claimRecordFile(file: string): Promise<{release(): void}> {
  const key = `record:${canonical(path.resolve(file))}`
  if (held.has(key)) throw new Error('another recording of this process writes it')
  const address = lockAddress(key)
  if (address.file) await mkdir(path.dirname(address.path), {recursive: true})
  for (let attempt = 0; ; attempt++) {
    const server = await listen(address.path)
    if (server) {
      held.add(key)
      return {
        release: () => {
          if (!held.delete(key)) return
          server.close()
          if (address.file) rmSync(address.path, {force: true})
        },
      }
    }
    const holder = await holderOf(address.path)
    if (holder === 'nobody' && address.file && attempt === 0) {
      // A socket file nobody listens on: a killed recording's. Taken over once.
      rmSync(address.path, {force: true})
      continue
    }
    throw new Error(
      `another arc process${typeof holder === 'number' ? ` (pid ${holder})` : ''} records into it, and each recording rewrites the whole file: give this one a file of its own`
    )
  }
}

function listen(address: string): Promise<net.Server | undefined> {
  const server = net.createServer((conn) => {
    conn.on('error', () => undefined)
    conn.end(`${process.pid}\n`)
  })
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EADDRINUSE' ? resolve(undefined) : reject(error)
    )
    server.listen({path: address}, () => {
      // The session keeps the process alive, never its claim.
      server.unref()
      resolve(server)
    })
  })
}

/** The pid the holder tells, undefined when it tells none, 'nobody' when nothing listens there. */
function holderOf(address: string): Promise<number | undefined | 'nobody'> {
  return new Promise((resolve) => {
    let text = ''
    let connected = false
    const conn = net.connect({path: address})
    conn.on('connect', () => (connected = true))
    conn.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')))
    conn.on('error', () => undefined)
    const timer = setTimeout(() => conn.destroy(), 1000)
    conn.on('close', () => {
      clearTimeout(timer)
      if (!connected) return resolve('nobody')
      const pid = Number.parseInt(text, 10)
      resolve(Number.isSafeInteger(pid) && pid > 0 ? pid : undefined)
    })
  })
}
