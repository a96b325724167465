import {mkdir, writeFile} from 'node:fs/promises'
import path from 'node:path'

import {IDLE_STATE_ERROR} from '../faults.js'
import {logTime} from '../logcat-buffer.js'
import {sleep} from '../sleep.js'
import type {CommandContext} from './types.js'
import {windowsDocument} from './windows-dump.js'

/**
 * The frames of the exception a second UiAutomation dies with, as an Android 14 device printed them
 * (bytedance/Fastbot_Android#266; the uiautomator frames as DumpCommand calls UiAutomationShellWrapper.connect).
 */
const ALREADY_REGISTERED_FRAMES = [
  '\tat android.os.Parcel.createExceptionOrNull(Parcel.java:3030)',
  '\tat android.os.Parcel.createException(Parcel.java:3006)',
  '\tat android.os.Parcel.readException(Parcel.java:2989)',
  '\tat android.os.Parcel.readException(Parcel.java:2931)',
  '\tat android.view.accessibility.IAccessibilityManager$Stub$Proxy.registerUiTestAutomationService(IAccessibilityManager.java:845)',
  '\tat android.app.UiAutomationConnection.registerUiTestAutomationServiceLocked(UiAutomationConnection.java:558)',
  '\tat android.app.UiAutomationConnection.connect(UiAutomationConnection.java:112)',
  '\tat android.app.UiAutomation.connectWithTimeout(UiAutomation.java:337)',
  '\tat android.app.UiAutomation.connect(UiAutomation.java:289)',
  '\tat com.android.uiautomator.core.UiAutomationShellWrapper.connect(UiAutomationShellWrapper.java)',
  '\tat com.android.commands.uiautomator.DumpCommand.run(DumpCommand.java)',
  '\tat com.android.commands.uiautomator.Launcher.main(Launcher.java)',
]

/**
 * A second UiAutomation's death. `UiAutomationManager.registerUiTestAutomationServiceLocked` throws
 * `IllegalStateException("UiAutomationService " + serviceClient + "already registered!")` (no space before
 * "already", as every tracker quotes it: xiaocong/uiautomator#218, Fastbot_Android#46); DumpCommand connects outside
 * its try, so the exception leaves `main`, and app_process's handlers (AOSP RuntimeInit: LoggingHandler, then
 * KillApplicationHandler) log it to the crash buffer as `FATAL EXCEPTION: main` and kill the process with SIGKILL.
 * Nothing reaches the terminal; adbd reports the signal as exit status 128 + 9.
 */
function diesAlreadyRegistered(ctx: CommandContext): number {
  const device = ctx.device
  const pid = device.spawnPid()
  const proxy = `android.accessibilityservice.IAccessibilityServiceClient$Stub$Proxy@${(pid * 7919).toString(16).slice(-7)}`
  const now = new Date()
  const lines = [
    'FATAL EXCEPTION: main',
    `PID: ${pid}`,
    `java.lang.IllegalStateException: UiAutomationService ${proxy}already registered!`,
    ...ALREADY_REGISTERED_FRAMES,
  ]
  for (const message of lines) {
    device.appendLog(
      {level: 'E', tag: 'AndroidRuntime', message, pid, tid: pid, time: `${now.getFullYear()}-${logTime(now)}`},
      'crash'
    )
  }
  return 137
}

const USAGE = `Usage: uiautomator <subcommand> [options]

Available subcommands:

help: displays help message

runtest: executes UI automation tests
    runtest <class spec> [options]

dump: creates an XML dump of current UI hierarchy
    dump [--verbose][file]
      [--compressed]: dumps compressed layout information.
      [file]: the location where the dumped XML should be stored, default is
      /sdcard/window_dump.xml

events: prints out accessibility events until terminated
`

/**
 * `uiautomator dump [--compressed] [--windows] [file]`: writes the current screen's XML to the file (default
 * /sdcard/window_dump.xml) and prints `UI hierchary dumped to: <file>` (sic). `/dev/tty` is the caller's
 * terminal: the XML (no trailing newline) then the message go to stdout. `--windows` is ignored, as by AOSP's
 * uiautomator, unless the scenario gives the device a uiautomator that has it (`windowsDump`): then every window
 * comes in the `<displays>` form (windows-dump.ts).
 */
export async function uiautomator(ctx: CommandContext): Promise<number> {
  const [, sub, ...rest] = ctx.argv
  if (sub !== 'dump') {
    ctx.out(USAGE)
    return sub === 'help' || sub === undefined ? 0 : 1
  }
  const device = ctx.device
  // app_process starts a VM (timing.vmStartMs), then DumpCommand connects UiAutomation: one at a time, device-wide.
  await device.delay(device.timing.vmStartMs, ctx.signal)
  if (ctx.signal.aborted) return 137
  const release = device.holdUiAutomation('uiautomator dump')
  if (!release) return diesAlreadyRegistered(ctx)
  // The client going away kills the process: its UiAutomation goes with it (linkToDeath in the service).
  ctx.signal.addEventListener('abort', release, {once: true})
  try {
    // DumpCommand's uiAutomation.waitForIdle(1000, 10000), as AOSP UiAutomation.waitForIdle runs it: it returns once
    // no accessibility event came for idleMs, and throws (`could not get idle state`, on stderr, exit status 0)
    // once idleTimeoutMs pass without that. A new UiAutomation knows only the events sent after it connected; with
    // none yet, the call's own start counts as the last one, so a dump always waits idleMs at least. A screen change
    // an input started before the dump (transitionTo) sends its event when it shows, and the quiet counts from then;
    // an animated screen and a list still flinging send events all the time (lastAccessibilityEvent: now).
    if (!(await waitForIdle(ctx, device.timing.idleMs, device.timing.idleTimeoutMs))) {
      if (ctx.signal.aborted) return 137
      ctx.err(IDLE_STATE_ERROR)
      return 0
    }
    return await writeDump(ctx, rest)
  } finally {
    release()
  }
}

/**
 * UiAutomation.waitForIdle(idleMs, timeoutMs) for a UiAutomation connected now, in device ms (timing.scale applies):
 * true once the device's apps sent no accessibility event for idleMs, false once timeoutMs passed first (or the
 * caller went away).
 */
export async function waitForIdle(ctx: CommandContext, idleMs: number, timeoutMs: number): Promise<boolean> {
  const device = ctx.device
  const scale = device.timing.scale
  const start = performance.now()
  const quiet = idleMs * scale
  const deadline = start + timeoutMs * scale
  for (;;) {
    if (ctx.signal.aborted) return false
    const last = Math.max(start, device.lastAccessibilityEvent())
    const now = performance.now()
    if (now - last >= quiet) return true
    if (now >= deadline) return false
    await sleep(Math.max(1, Math.min(last + quiet, deadline) - now), ctx.signal)
  }
}

async function writeDump(ctx: CommandContext, rest: string[]): Promise<number> {
  const file = rest.find((a) => !a.startsWith('--')) ?? '/sdcard/window_dump.xml'
  const xml = rest.includes('--windows') && ctx.device.windowsDump ? windowsDocument(ctx.device) : ctx.device.dumpXml()
  if (file === '/dev/tty' || file === '/dev/stdout') {
    ctx.out(xml)
  } else {
    const host = ctx.device.files.hostPath(file, ctx.cwd)
    try {
      await mkdir(path.dirname(host), {recursive: true})
      await writeFile(host, xml)
    } catch (error) {
      ctx.err(
        `java.io.FileNotFoundException: ${file}: open failed: ${(error as NodeJS.ErrnoException).code ?? 'EIO'}\n`
      )
      return 0
    }
  }
  ctx.out(`UI hierchary dumped to: ${ctx.device.files.normalize(file, ctx.cwd)}\n`)
  return 0
}
