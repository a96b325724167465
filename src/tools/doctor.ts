import {defineTool, type CapabilityReport, z} from '@arc-cli/core'

const MARK = {yes: 'yes', partial: 'partly', no: 'no'} as const

/** The report as a table a person can paste into a bug report. */
export function formatReport(report: CapabilityReport): string {
  const a = report.android
  const head = `device ${report.serial}: Android ${a.release ?? '?'} (API ${a.sdk ?? '?'}), ${a.model ?? 'unknown model'}${a.buildType ? `, ${a.buildType} build` : ''}`
  const width = Math.max(...report.capabilities.map((c) => c.id.length), 'capability'.length)
  const rows = report.capabilities.map((c) => {
    const what = c.fallback ? `${c.detail}; arc: ${c.fallback}` : c.detail
    return `${c.id.padEnd(width)}  ${MARK[c.status].padEnd(6)}  ${what}`
  })
  return [head, '', `${'capability'.padEnd(width)}  ${'works'.padEnd(6)}  how / what arc does instead`, ...rows].join('\n')
}

export const doctor = defineTool({
  name: 'doctor',
  cliId: 'doctor',
  title: 'What this device supports',
  description:
    'Probes the device without visible changes (Android version, UI dump with all windows, input, multi-touch through /dev/input, clipboard, screencap/screenrecord, cmd services) and prints a capability table with what arc does for each missing one. Paste it into bug reports; --json for scripts.',
  kind: 'read',
  needs: {system: 'read'},
  group: 'system',
  input: z.object({}),
  cli: {examples: ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --json']},
  async handler({driver}) {
    const report = await driver.probeCapabilities()
    return {text: formatReport(report), data: {...report}}
  },
})
