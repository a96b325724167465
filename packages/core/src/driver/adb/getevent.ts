/**
 * Reads `getevent -pl` (adb.md §3.9): the input devices, their event types and axis ranges. Copes with the
 * forms real devices print: labels padded with spaces, `BTN_TOUCH*` (a key held down), truncated or unlabelled
 * codes, and the numeric `getevent -p` variant (`0035` instead of ABS_MT_POSITION_X).
 */

export interface AxisRange {
  min: number
  max: number
}

export interface InputDevice {
  path: string
  name: string
  /** ABS axes by label (ABS_MT_POSITION_X…), numeric codes mapped to labels. */
  abs: Map<string, AxisRange>
  keys: Set<string>
  props: Set<string>
}

/** The multi-touch ABS codes arc needs, for the numeric variant. */
const ABS_CODES: Record<string, string> = {
  '0000': 'ABS_X',
  '0001': 'ABS_Y',
  '002f': 'ABS_MT_SLOT',
  '0030': 'ABS_MT_TOUCH_MAJOR',
  '0031': 'ABS_MT_TOUCH_MINOR',
  '0035': 'ABS_MT_POSITION_X',
  '0036': 'ABS_MT_POSITION_Y',
  '0039': 'ABS_MT_TRACKING_ID',
  '003a': 'ABS_MT_PRESSURE',
}

const KEY_CODES: Record<string, string> = {'014a': 'BTN_TOUCH', '0145': 'BTN_TOOL_FINGER'}

export function parseGetevent(output: string): InputDevice[] {
  const devices: InputDevice[] = []
  let device: InputDevice | undefined
  let section: 'events' | 'props' | undefined
  let type: string | undefined
  for (const raw of output.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const line = raw.trimEnd()
    const added = /^add device \d+: (\S+)/.exec(line)
    if (added) {
      device = {path: added[1] as string, name: '', abs: new Map(), keys: new Set(), props: new Set()}
      devices.push(device)
      section = undefined
      continue
    }
    if (!device) continue
    const name = /^\s+name:\s+"(.*)"$/.exec(line)
    if (name) {
      device.name = name[1] as string
      continue
    }
    if (/^\s+events:$/.test(line)) {
      section = 'events'
      continue
    }
    if (/^\s+input props:$/.test(line)) {
      section = 'props'
      continue
    }
    if (section === 'props') {
      const prop = line.trim()
      if (prop && prop !== '<none>') device.props.add(prop)
      continue
    }
    if (section !== 'events') continue
    let body = line
    const head = /^\s+([A-Z]+)\s*\(([0-9a-f]{4})\):(.*)$/.exec(line)
    if (head) {
      type = head[1]
      body = head[3] as string
    }
    if (type === 'ABS') {
      for (const m of body.matchAll(/(\w+)\s*: value (-?\d+), min (-?\d+), max (-?\d+)/g)) {
        const label = ABS_CODES[(m[1] as string).toLowerCase()] ?? (m[1] as string)
        device.abs.set(label, {min: Number(m[3]), max: Number(m[4])})
      }
    } else if (type === 'KEY') {
      for (const word of body.trim().split(/\s+/).filter(Boolean)) {
        const key = word.replace(/\*$/, '')
        device.keys.add(KEY_CODES[key.toLowerCase()] ?? key)
      }
    }
  }
  return devices
}

/**
 * The touchscreen: a device with ABS_MT_POSITION_X and _Y; among several, one that says INPUT_PROP_DIRECT
 * first, then one with ABS_MT_SLOT (protocol B), then the lowest `/dev/input/eventN` (the official emulator
 * has eleven look-alike virtio ones, the first for the main display; getevent lists them in the folder's order,
 * which is not sorted on every device), then the first listed.
 */
export function findTouchscreen(devices: InputDevice[]): InputDevice | undefined {
  const touch = devices.filter((d) => d.abs.has('ABS_MT_POSITION_X') && d.abs.has('ABS_MT_POSITION_Y'))
  const score = (d: InputDevice) => (d.props.has('INPUT_PROP_DIRECT') ? 2 : 0) + (d.abs.has('ABS_MT_SLOT') ? 1 : 0)
  const number = (d: InputDevice) => Number(/\/event(\d+)$/.exec(d.path)?.[1] ?? Infinity)
  return [...touch].sort((a, b) => score(b) - score(a) || number(a) - number(b))[0]
}
