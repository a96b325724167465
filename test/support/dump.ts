import type {ScreenCapture} from '@arc-cli/core'

export interface NodeSpec {
  cls?: string
  text?: string
  desc?: string
  res?: string
  pkg?: string
  bounds?: [number, number, number, number]
  attrs?: Record<string, string>
  children?: NodeSpec[]
}

function esc(v: string): string {
  return v.replace(/[&<>"\n\t\r]/g, (c) => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\n': '&#10;', '\t': '&#9;', '\r': '&#13;'})[c] as string)
}

/** Builds a uiautomator-style dump from a compact spec, for unit tests. */
export function dumpXml(windows: NodeSpec[], rotation = 0): string {
  const node = (n: NodeSpec, index: number): string => {
    const b = n.bounds ?? [0, 0, 100, 100]
    const attrs: Record<string, string> = {
      index: String(index),
      text: n.text ?? '',
      'resource-id': n.res ?? '',
      class: n.cls ?? 'android.widget.FrameLayout',
      package: n.pkg ?? 'com.example',
      'content-desc': n.desc ?? '',
      clickable: 'false',
      enabled: 'true',
      focusable: 'false',
      focused: 'false',
      scrollable: 'false',
      'long-clickable': 'false',
      password: 'false',
      ...n.attrs,
      bounds: `[${b[0]},${b[1]}][${b[2]},${b[3]}]`,
    }
    const open = `<node ${Object.entries(attrs).map(([k, v]) => `${k}="${esc(v)}"`).join(' ')}`
    return n.children?.length ? `${open}>${n.children.map(node).join('')}</node>` : `${open} />`
  }
  return `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="${rotation}">${windows.map(node).join('')}</hierarchy>`
}

export function capture(xml: string, screen = {width: 1080, height: 2400}, extra: Partial<ScreenCapture> = {}): ScreenCapture {
  return {xml, screen: {...screen, density: 420, rotation: 0}, foreground: {}, allWindows: true, ...extra}
}
