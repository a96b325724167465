/**
 * `screenrecord` (Android 4.4+): records to a fresh file in /data/local/tmp until its time limit or until the caller
 * aborts, then pulls the file and removes it. The shell prints its pid and `exec`s screenrecord, so the recorder
 * runs in the foreground under that pid (a background job would ignore SIGINT); stopping sends SIGINT to that one
 * process, which makes screenrecord finish the MP4 properly (closing the stream alone could leave it unfinished).
 */
import {randomBytes} from 'node:crypto'

import {DeviceCommandError, UnsupportedError} from '../../errors/arc-error.js'
import type {DeviceShell} from './device-shell.js'
import {raw, shellCommand} from './shell-quote.js'

const PID = /__ARC_PID__(\d+)/
/** How long a stopped recording may take to finish its file before arc gives up on it. */
const FINISH_MS = 15_000

export async function screenRecord(dev: DeviceShell, timeLimitSeconds: number, signal?: AbortSignal): Promise<Buffer> {
  const remote = `/data/local/tmp/arc-rec-${randomBytes(6).toString('hex')}.mp4`
  const command = shellCommand([
    raw('echo __ARC_PID__$$; exec'),
    'screenrecord',
    '--time-limit',
    timeLimitSeconds,
    remote,
  ])
  const ended = new AbortController()
  let output = ''
  let stopSent = false
  let giveUp: NodeJS.Timeout | undefined
  const stop = () => {
    const pid = PID.exec(output)?.[1]
    if (!pid || stopSent || !signal?.aborted) return
    stopSent = true
    void dev.text(['kill', '-INT', Number(pid)]).catch(() => undefined)
    giveUp = setTimeout(() => ended.abort(), FINISH_MS)
  }
  signal?.addEventListener('abort', stop, {once: true})
  try {
    const watchdog = setTimeout(() => ended.abort(), (timeLimitSeconds + 30) * 1000)
    try {
      await dev.server.stream(
        dev.serial,
        command,
        (chunk) => {
          output += chunk.toString('utf8')
          stop()
        },
        ended.signal
      )
    } finally {
      clearTimeout(watchdog)
      clearTimeout(giveUp)
    }
    const said = output.replace(PID, '').trim()
    if (/screenrecord: (not found|inaccessible)|No such file or directory.*screenrecord/i.test(said)) {
      throw new UnsupportedError(
        `${dev.serial} has no screenrecord command (it arrived in Android 4.4; some builds leave it out)`,
        {
          details: {serial: dev.serial, output: said.slice(0, 500)},
          actions: ["Record with the emulator's or vendor's own tools, or take screenshots (`arc screenshot`)."],
        }
      )
    }
    const video = await dev.server.pull(dev.serial, remote).catch((error: unknown) => {
      throw new DeviceCommandError(
        `screenrecord on ${dev.serial} wrote no video${said ? `: ${said.split('\n').slice(0, 3).join(' | ')}` : ''}`,
        {
          cause: error,
          details: {serial: dev.serial, output: said.slice(0, 2000)},
        }
      )
    })
    if (video.length === 0) throw new DeviceCommandError(`screenrecord on ${dev.serial} wrote an empty video`)
    return video
  } finally {
    signal?.removeEventListener('abort', stop)
    await dev.text(['rm', '-f', remote]).catch(() => undefined)
  }
}
