import {defineTool, type CapabilityReport, z} from '@arc-cli/core'

const MARK = {yes: 'yes', partial: 'partly', no: 'no'} as const

/** The report as a table a person can paste into a bug report. */
export function formatReport(report: CapabilityReport): string {
  const a = report.android
  const head = `device ${report.serial}: Android ${a.release ?? '?'} (API ${a.sdk ?? '?'}), ${a.model ?? 'unknown model'}${a.build_type ? `, ${a.build_type} build` : ''}`
  const width = Math.max(...report.capabilities.map((c) => c.id.length), 'capability'.length)
  const rows = report.capabilities.map((c) => {
    const what = c.fallback ? `${c.detail}; arc: ${c.fallback}` : c.detail
    return `${c.id.padEnd(width)}  ${MARK[c.status].padEnd(6)}  ${what}`
  })
  const ms = (v: number | null) => (v === null ? 'failed' : `${v} ms`)
  const costs = `costs (measured now): a screen read ${ms(report.costs.read_ms)}, one input call ${ms(report.costs.input_ms)}`
  const served = report.capabilities.map((c) => `${c.id.padEnd(width)}  ${c.backend}`)
  return [
    head,
    costs,
    '',
    `${'capability'.padEnd(width)}  ${'works'.padEnd(6)}  how / what arc does instead`,
    ...rows,
    '',
    `${'capability'.padEnd(width)}  served by`,
    ...served,
  ].join('\n')
}

export const doctor = defineTool({
  name: 'doctor',
  title: 'What this device supports',
  description:
    'Probes the device without visible changes (Android version, UI dump with all windows, input tried with a harmless key, multi-touch through /dev/input, clipboard, screencap/screenrecord, cmd services) and prints a capability table: what serves each, what arc does for a missing one, what a read and an input call cost. Paste it into bug reports; --json for scripts.',
  kind: 'read',
  needs: {system: 'read'},
  group: 'system',
  input: z.object({}),
  cli: {id: 'doctor', examples: ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --json']},
  async handler({driver}) {
    const report = await driver.probeCapabilities()
    return {text: formatReport(report), data: {...report}}
  },
})
