/**
 * Reads the adb server's `host:devices-l` answer. Each line is the serial padded to 22 columns, a space, the
 * state, then ` <devpath>` (USB only) and ` product:… model:… device:…` where known, then ` transport_id:N`
 * (transport.cpp append_transport). The state is one word except for a USB device the host may not open, which
 * Linux servers list as `no permissions (missing udev rules? …); see [URL]`, and a device without a serial is
 * listed as `(no serial number)`: so the line is read by the states adb knows, not split on spaces.
 */
import type {DeviceSummary} from '../device-driver.js'

/** connection_state_name (transport.cpp), and the no-permissions text (diagnose_usb), which ends `; see [URL]`. */
const STATE = String.raw`(?:offline|bootloader|device|host|recovery|rescue|sideload|unauthorized|authorizing|connecting|detached|unknown|no permissions[^\n]*?; see \[[^\]\n]*\])`
const LINE = new RegExp(String.raw`^(.+?) +(${STATE})(?= |$)(.*)$`)

export function parseDevicesLong(text: string): DeviceSummary[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const m = LINE.exec(line.replace(/\r$/, ''))
      // A state this table does not know yet: the first word is the serial, the second the state.
      const [serial, state, rest] = m ? [m[1] as string, m[2] as string, m[3] as string] : splitWords(line)
      const words = rest.trim().split(/ +/)
      const field = (prefix: string) => words.find((w) => w.startsWith(`${prefix}:`))?.slice(prefix.length + 1)
      const summary: DeviceSummary = {serial: serial.trim(), state}
      const model = field('model')
      const product = field('product')
      const transportId = field('transport_id')
      if (model) summary.model = model
      if (product) summary.product = product
      if (transportId) summary.transportId = transportId
      return summary
    })
}

function splitWords(line: string): [string, string, string] {
  const [serial = '', state = '', ...rest] = line.trim().split(/\s+/)
  return [serial, state, rest.join(' ')]
}
