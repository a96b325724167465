/**
 * `npm run demo`: writes the bundled `demo` snapshot (packages/core/demo) from the emulator's demo app as it starts
 * (packages/emulator/src/demo-app/demo-screen.ts):
 * window_dump.xml as uiautomator writes it, meta.json, and screen.png drawn from the same boxes with
 * @napi-rs/canvas. `--check` compares the XML and meta.json with what is committed and fails when stale
 * (test/demo.test.ts runs it).
 */
import {mkdir, readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

import {
  DEMO_HEIGHT as HEIGHT,
  DEMO_WIDTH as WIDTH,
  demoMeta,
  demoWindows,
  demoXml,
  initialDemoState,
  type DemoBox as Box,
  type DemoNode,
} from '@arc-cli/emulator/demo-app'

export {demoMeta, demoXml}

/** The app's windows as it starts, topmost first. */
const WINDOWS = demoWindows(initialDemoState())

const OUT = fileURLToPath(new URL('../packages/core/demo/', import.meta.url))

async function renderPng(): Promise<Buffer> {
  const {createCanvas} = await import('@napi-rs/canvas')
  const canvas = createCanvas(WIDTH, HEIGHT)
  const ctx = canvas.getContext('2d')
  const font = (size: number, bold = false) => `${bold ? 'bold ' : ''}${size}px "DejaVu Sans", sans-serif`
  ctx.fillStyle = '#fafafa'
  ctx.fillRect(0, 0, WIDTH, HEIGHT)
  const text = (
    value: string,
    [l, t, , b]: Box,
    color: string,
    size: number,
    bold = false,
    align: 'left' | 'center' = 'left',
    right = 0
  ) => {
    ctx.fillStyle = color
    ctx.font = font(size, bold)
    ctx.textAlign = align
    ctx.textBaseline = 'middle'
    ctx.fillText(value, align === 'center' ? (l + right) / 2 : l, (t + b) / 2)
  }
  const draw = (node: DemoNode, dark: boolean): void => {
    const [l, t, r, b] = node.bounds
    const w = r - l
    const h = b - t
    if (node.visible === false) return
    switch (node.paint) {
      case 'statusbar':
        ctx.fillStyle = '#283593'
        ctx.fillRect(l, t, w, h)
        break
      case 'toolbar':
        ctx.fillStyle = '#3949ab'
        ctx.fillRect(l, t, w, h)
        break
      case 'title':
        text(node.text ?? '', node.bounds, '#ffffff', node.bounds[3] - node.bounds[1] > 66 ? 52 : 34, true)
        break
      case 'icon': {
        ctx.strokeStyle = dark ? '#ffffff' : '#5c6bc0'
        ctx.lineWidth = 6
        const cx = (l + r) / 2
        const cy = (t + b) / 2
        const s = Math.min(w, h) / 4
        ctx.beginPath()
        if (node.desc?.startsWith('Delete')) {
          ctx.moveTo(cx - s, cy - s)
          ctx.lineTo(cx + s, cy + s)
          ctx.moveTo(cx + s, cy - s)
          ctx.lineTo(cx - s, cy + s)
        } else if (node.desc === 'Search') {
          ctx.arc(cx - s / 4, cy - s / 4, s * 0.75, 0, Math.PI * 2)
          ctx.moveTo(cx + s / 3, cy + s / 3)
          ctx.lineTo(cx + s, cy + s)
        } else {
          ctx.arc(cx, cy, s, 0, Math.PI * 2)
        }
        ctx.stroke()
        break
      }
      case 'field':
        ctx.fillStyle = '#ffffff'
        ctx.fillRect(l, t, w, h)
        ctx.fillStyle = '#3949ab'
        ctx.fillRect(l, b - 6, w, 6)
        text(node.hint ?? '', [l + 24, t, r, b], '#9e9e9e', 44)
        break
      case 'button':
        ctx.fillStyle = '#3949ab'
        ctx.fillRect(l, t, w, h)
        text(node.text ?? '', [l, t, r, b], '#ffffff', 44, true, 'center', r)
        break
      case 'row':
        ctx.fillStyle = '#e0e0e0'
        ctx.fillRect(l, b - 2, w, 2)
        break
      case 'checkbox':
        ctx.strokeStyle = '#3949ab'
        ctx.lineWidth = 6
        ctx.strokeRect(l + 6, t + 6, w - 12, h - 12)
        if (node.checked) {
          ctx.fillStyle = '#3949ab'
          ctx.fillRect(l + 18, t + 18, w - 36, h - 36)
        }
        break
      case 'label':
        text(node.text ?? '', node.bounds, '#212121', 46)
        break
      case 'muted':
        text(node.text ?? '', node.bounds, '#757575', 36)
        break
      case 'keyboard':
        ctx.fillStyle = '#eceff1'
        ctx.fillRect(l, t, w, h)
        break
      case 'key':
        ctx.fillStyle = '#ffffff'
        ctx.fillRect(l, t, w, h)
        text(
          node.text ?? (node.desc === 'Delete' ? '⌫' : node.desc === 'Done' ? '✓' : ''),
          [l, t, r, b],
          '#212121',
          48,
          false,
          'center',
          r
        )
        break
      case 'navbar':
        ctx.fillStyle = '#000000'
        ctx.fillRect(l, t, w, h)
        break
      case 'nav': {
        ctx.strokeStyle = '#ffffff'
        ctx.lineWidth = 5
        const cx = (l + r) / 2
        const cy = (t + b) / 2
        ctx.beginPath()
        if (node.desc === 'Back') {
          ctx.moveTo(cx + 20, cy - 24)
          ctx.lineTo(cx - 20, cy)
          ctx.lineTo(cx + 20, cy + 24)
          ctx.closePath()
        } else if (node.desc === 'Home') ctx.arc(cx, cy, 24, 0, Math.PI * 2)
        else ctx.rect(cx - 22, cy - 22, 44, 44)
        ctx.stroke()
        break
      }
      default:
        break
    }
    const childDark = dark || node.paint === 'toolbar' || node.paint === 'statusbar' || node.paint === 'navbar'
    for (const child of node.children ?? []) draw(child, childDark)
  }
  // Paint bottom window first: the dump lists the topmost window first.
  for (const window of [...WINDOWS].reverse()) draw(window, false)
  return canvas.encode('png')
}

async function main(): Promise<void> {
  const check = process.argv.includes('--check')
  const xml = demoXml()
  const meta = demoMeta()
  if (check) {
    const stale: string[] = []
    if ((await readFile(path.join(OUT, 'window_dump.xml'), 'utf8').catch(() => '')) !== xml)
      stale.push('window_dump.xml')
    if ((await readFile(path.join(OUT, 'meta.json'), 'utf8').catch(() => '')) !== meta) stale.push('meta.json')
    if (stale.length > 0) {
      console.error(
        `demo snapshot is stale: ${stale.join(', ')} differ from packages/emulator/src/demo-app/demo-screen.ts; run npm run demo`
      )
      process.exit(1)
    }
    console.log('demo snapshot is up to date')
    return
  }
  await mkdir(OUT, {recursive: true})
  await writeFile(path.join(OUT, 'window_dump.xml'), xml)
  await writeFile(path.join(OUT, 'meta.json'), meta)
  await writeFile(path.join(OUT, 'screen.png'), await renderPng())
  console.log(`wrote ${OUT}window_dump.xml, meta.json, screen.png`)
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await main()
