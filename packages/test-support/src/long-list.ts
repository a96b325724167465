/**
 * A long list as `arc emulate` shows it: a shop's list of 17 rows, 300 px each, in a RecyclerView from y 200 to
 * 2200, that dumps only the rows it has drawn. Each screen is the list scrolled by 1000 px more (the last one to
 * its end); swipes up inside the list lead to the next screen, down to the one before, and the last screen has
 * no swipe onward (swiping it again changes nothing, as a list at its end). "Oat milk" and "Olive oil" are on offer.
 */
import {writeFile} from 'node:fs/promises'
import path from 'node:path'

import {dumpXml, type NodeSpec} from './dump.js'

export const LIST_ROWS = [
  'Apples',
  'Bananas',
  'Carrots',
  'Dates',
  'Eggs',
  'Figs',
  'Grapes',
  'Honey',
  'Kiwis',
  'Lemons',
  'Mangoes',
  'Nuts',
  'Oat milk',
  'Olive oil',
  'Pears',
  'Quinoa',
  'Rice',
]
const ROW = 300
const [TOP, BOTTOM] = [200, 2200]
/** How far each screen is scrolled: the content is 5100 px, the list 2000, so 3100 is its end. */
export const LIST_PAGES = {page1: 0, page2: 1000, page3: 2000, page4: 3100} as const
const LIST = {resourceId: 'com.example.shop:id/list'}

function page(offset: number): string {
  const rows: NodeSpec[] = LIST_ROWS.flatMap((text, i) => {
    const top = TOP + ROW * i - offset
    if (top + ROW <= TOP || top >= BOTTOM) return []
    return [
      {
        cls: 'android.widget.TextView',
        text,
        res: 'com.example.shop:id/title',
        desc: text.startsWith('O') ? `${text} on offer` : '',
        attrs: {clickable: 'true'},
        bounds: [0, top, 1080, top + ROW],
      },
    ]
  })
  return dumpXml([
    {
      pkg: 'com.example.shop',
      bounds: [0, 0, 1080, 2400],
      children: [
        {
          cls: 'android.widget.TextView',
          text: 'Groceries',
          res: 'com.example.shop:id/toolbar_title',
          bounds: [40, 80, 600, 200],
        },
        {
          cls: 'androidx.recyclerview.widget.RecyclerView',
          res: LIST.resourceId,
          attrs: {scrollable: 'true', focusable: 'true'},
          bounds: [0, TOP, 1080, BOTTOM],
          children: rows,
        },
      ],
    },
  ])
}

/** Writes the four screens into `dir` and returns the emulator scenario's device (screens and swipe transitions). */
export async function longListDevice(dir: string) {
  const screens: Record<string, string> = {}
  for (const [name, offset] of Object.entries(LIST_PAGES)) {
    screens[name] = path.join(dir, `${name}.xml`)
    await writeFile(screens[name], page(offset))
  }
  const names = Object.keys(LIST_PAGES)
  const transitions = names.slice(1).flatMap((to, i) => {
    const from = names[i] as string
    return [
      {from, swipe: {direction: 'up' as const, inside: LIST}, to},
      {from: to, swipe: {direction: 'down' as const, inside: LIST}, to: from},
    ]
  })
  return {screens, initialScreen: 'page1', transitions}
}
