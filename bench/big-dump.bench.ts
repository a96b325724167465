/**
 * `npm run bench -- big-dump`: o200k tokens (gpt-tokenizer) of what get_screen_state answers by default on a
 * 10,000-node dump (a long list: 2,500 rows of a title, a subtitle, an icon and a button, most of them below the
 * screen), against the same screen with the bound lifted (`max_rows 0`) and in compact detail.
 */
import {buildScreenModel, MemoryDeviceState, type ScreenCapture} from '@arc-cli/core'
import {encode} from 'gpt-tokenizer/encoding/o200k_base'

import {DEFAULT_MAX_ROWS} from '../plugins/screen-state/src/row-budget.js'
import {screenStateView} from '../plugins/screen-state/src/screen-state-views.js'

function longListDump(rows: number): string {
  const node = (cls: string, text: string, bounds: string, clickable = false) =>
    `<node index="0" text="${text}" resource-id="com.example:id/${cls.toLowerCase()}" class="android.widget.${cls}" package="com.example" content-desc="" checkable="false" checked="false" clickable="${clickable}" enabled="true" focusable="${clickable}" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="${bounds}">`
  const parts: string[] = []
  for (let i = 0; i < rows; i++) {
    const top = 200 + i * 160
    parts.push(
      `${node('LinearLayout', '', `[0,${top}][1080,${top + 160}]`, true)}`,
      `${node('TextView', `Order ${i + 1}: oat milk, apples`, `[40,${top + 10}][800,${top + 70}]`)}</node>`,
      `${node('TextView', `Delivered ${1 + (i % 28)} Nov`, `[40,${top + 80}][800,${top + 140}]`)}</node>`,
      `${node('Button', 'Reorder', `[840,${top + 40}][1040,${top + 120}]`, true)}</node>`,
      '</node>'
    )
  }
  const root = `<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.example" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="true" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]">`
  return `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">${root}${parts.join('')}</node></hierarchy>`
}

export default async function bench(): Promise<void> {
  const xml = longListDump(2500)
  const capture: ScreenCapture = {
    xml,
    screen: {width: 1080, height: 2400, density: 420, rotation: 0},
    foreground: {},
    allWindows: true,
  }
  const model = buildScreenModel(capture)
  const nodes = model.hierarchy.nodeCount
  const tokens = (text: string) => encode(text).length
  const view = async (detail: 'full' | 'compact', maxRows: number) =>
    (await screenStateView(new MemoryDeviceState(), model, detail, 'off', maxRows)).text
  console.log(`| ${nodes}-node dump (${model.elements.length} element rows) | o200k tokens |`)
  console.log('| --- | ---: |')
  console.log(`| default (TSV, max_rows ${DEFAULT_MAX_ROWS}) | ${tokens(await view('full', DEFAULT_MAX_ROWS))} |`)
  console.log(`| compact (max_rows ${DEFAULT_MAX_ROWS}) | ${tokens(await view('compact', DEFAULT_MAX_ROWS))} |`)
  console.log(`| TSV, max_rows 0 (no bound) | ${tokens(await view('full', 0))} |`)
  console.log(`| raw XML | ${tokens(xml)} |`)
}
