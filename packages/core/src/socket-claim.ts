/**
 * A claim one process at a time can hold, machine-wide: a listening Unix socket at an address, which the kernel lets
 * one process listen on and frees when that process ends, however it ends. The holder answers whoever connects with
 * its pid, so a refused claimant can name it. On Linux the address is in the abstract namespace (no file is left
 * behind); where it is a socket file, a claim that finds nobody listening there removes it once as a crashed
 * holder's and takes over. What arc server's lock (src/server/lock.ts) and a flow recording's (record/record-claim.ts)
 * are made of.
 */
import {rmSync} from 'node:fs'
import net from 'node:net'

/** The claim taken (`release` lets it go), or the holder's pid where it told it. */
export type SocketClaim = {release(): void} | {heldBy: number | undefined}

/**
 * Claims `address`, or says who holds it. `file`: the address is a socket file (not an abstract name, nor a Windows
 * pipe), which release removes and a claim may take over from a crashed holder.
 */
export async function claimSocket(address: string, file: boolean): Promise<SocketClaim> {
  for (let attempt = 0; ; attempt++) {
    const server = await listenOn(address)
    if (server)
      return {
        release: () => {
          server.close()
          if (file) rmSync(address, {force: true})
        },
      }
    const holder = await holderOf(address)
    if (holder !== 'nobody' || attempt > 0 || !file) return {heldBy: holder === 'nobody' ? undefined : holder}
    // A socket file nobody listens on: a crashed holder's. Taken over once.
    rmSync(address, {force: true})
  }
}

function listenOn(address: string): Promise<net.Server | undefined> {
  const server = net.createServer((conn) => {
    conn.on('error', () => undefined)
    // Whoever asks is told who holds it.
    conn.end(`${process.pid}\n`)
  })
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EADDRINUSE' ? resolve(undefined) : reject(error)
    )
    server.listen({path: address}, () => {
      // What the holder does keeps its process alive, never its claim.
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
    // A holder that is stopped (Ctrl-Z) accepts in the kernel but never writes: the pid is then unknown.
    const timer = setTimeout(() => conn.destroy(), 1000)
    conn.on('close', () => {
      clearTimeout(timer)
      if (!connected) return resolve('nobody')
      const pid = Number.parseInt(text, 10)
      resolve(Number.isSafeInteger(pid) && pid > 0 ? pid : undefined)
    })
  })
}
