/**
 * The demo device's screen, described once: scripts/make-demo.ts turns it into `window_dump.xml` (as
 * uiautomator would write it) and `screen.png` (drawn from the same boxes). Everything here is made up for
 * arc; no third-party screen is copied. It shows every case screen-state and annotate handle: a status bar,
 * an app window with a toolbar, a text field, buttons, a list with a row scrolled out of view, an on-screen
 * keyboard window and a navigation bar.
 */
export type Box = [number, number, number, number]

export interface DemoNode {
  cls: string
  bounds: Box
  pkg?: string
  res?: string
  text?: string
  desc?: string
  hint?: string
  clickable?: boolean
  longClickable?: boolean
  focusable?: boolean
  focused?: boolean
  scrollable?: boolean
  checkable?: boolean
  checked?: boolean
  visible?: boolean
  /** How the renderer paints it. */
  paint?:
    | 'statusbar'
    | 'toolbar'
    | 'title'
    | 'icon'
    | 'field'
    | 'button'
    | 'row'
    | 'checkbox'
    | 'label'
    | 'muted'
    | 'keyboard'
    | 'key'
    | 'navbar'
    | 'nav'
  children?: DemoNode[]
}

export const WIDTH = 1080
export const HEIGHT = 2400
export const DENSITY = 420
export const APP = 'dev.arc.demo.groceries'
export const ACTIVITY = '.ListActivity'
const IME = 'dev.arc.demo.keyboard'
const SYSUI = 'com.android.systemui'

const ITEMS = [
  ['Oat milk', '2 cartons', true],
  ['Sourdough bread', '1 loaf', false],
  ['Cherry tomatoes', '500 g', false],
  ['Free-range eggs', '12', true],
  ['Basmati rice', '1 kg', false],
  ['Dark chocolate 70%', '2 bars', false],
  ['Lemons', '4', false],
  ['Greek yoghurt', '2 pots', false],
  ['Coffee beans', '250 g', false],
] as const

const ROW_TOP = 399
const ROW_HEIGHT = 147
const LIST_BOTTOM = 1590

function row(i: number): DemoNode {
  const [name, qty, done] = ITEMS[i] as readonly [string, string, boolean]
  const top = ROW_TOP + i * ROW_HEIGHT
  const bottom = top + ROW_HEIGHT
  // Rows past the list's bottom edge are laid out but scrolled out of view.
  const visible = top < LIST_BOTTOM - 20
  const v = {visible}
  return {
    cls: 'android.widget.LinearLayout',
    res: `${APP}:id/item_row`,
    bounds: [0, top, WIDTH, bottom],
    clickable: true,
    longClickable: true,
    focusable: true,
    paint: 'row',
    ...v,
    children: [
      {
        cls: 'android.widget.CheckBox',
        res: `${APP}:id/item_done`,
        bounds: [42, top + 37, 115, bottom - 37],
        clickable: true,
        focusable: true,
        checkable: true,
        checked: done,
        paint: 'checkbox',
        ...v,
      },
      {
        cls: 'android.widget.TextView',
        res: `${APP}:id/item_name`,
        text: name,
        bounds: [147, top + 24, 760, top + 84],
        paint: 'label',
        ...v,
      },
      {
        cls: 'android.widget.TextView',
        res: `${APP}:id/item_qty`,
        text: qty,
        bounds: [147, top + 84, 760, bottom - 18],
        paint: 'muted',
        ...v,
      },
      {
        cls: 'android.widget.ImageButton',
        res: `${APP}:id/item_delete`,
        desc: `Delete ${name}`,
        bounds: [933, top + 31, 1038, bottom - 31],
        clickable: true,
        focusable: true,
        paint: 'icon',
        ...v,
      },
    ],
  }
}

const KEY_ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm']
const KB_TOP = 1590
const KEY_H = 150

function keyboard(): DemoNode {
  const keys: DemoNode[] = []
  KEY_ROWS.forEach((letters, r) => {
    const keyW = 108
    const indent = (WIDTH - letters.length * keyW) / 2
    for (let k = 0; k < letters.length; k++) {
      const left = Math.round(indent + k * keyW)
      const top = KB_TOP + 30 + r * KEY_H
      keys.push({
        cls: 'android.widget.Button',
        pkg: IME,
        text: letters[k],
        bounds: [left + 6, top, left + keyW - 6, top + KEY_H - 18],
        clickable: true,
        paint: 'key',
      })
    }
  })
  const bottomTop = KB_TOP + 30 + 3 * KEY_H
  keys.push(
    {
      cls: 'android.widget.Button',
      pkg: IME,
      desc: 'Delete',
      bounds: [912, KB_TOP + 30 + 2 * KEY_H, 1050, KB_TOP + 30 + 3 * KEY_H - 18],
      clickable: true,
      longClickable: true,
      paint: 'key',
    },
    {
      cls: 'android.widget.Button',
      pkg: IME,
      desc: 'Space',
      bounds: [246, bottomTop, 834, bottomTop + KEY_H - 18],
      clickable: true,
      paint: 'key',
    },
    {
      cls: 'android.widget.Button',
      pkg: IME,
      desc: 'Done',
      bounds: [846, bottomTop, 1050, bottomTop + KEY_H - 18],
      clickable: true,
      paint: 'key',
    }
  )
  return {
    cls: 'android.widget.FrameLayout',
    pkg: IME,
    res: `${IME}:id/keyboard_view`,
    bounds: [0, KB_TOP, WIDTH, 2274],
    paint: 'keyboard',
    children: keys,
  }
}

export const WINDOWS: DemoNode[] = [
  keyboard(),
  {
    cls: 'android.widget.FrameLayout',
    pkg: SYSUI,
    res: `${SYSUI}:id/navigation_bar_frame`,
    bounds: [0, 2274, WIDTH, HEIGHT],
    paint: 'navbar',
    children: [
      {
        cls: 'android.widget.ImageView',
        pkg: SYSUI,
        res: `${SYSUI}:id/back`,
        desc: 'Back',
        bounds: [120, 2274, 360, HEIGHT],
        clickable: true,
        longClickable: true,
        paint: 'nav',
      },
      {
        cls: 'android.widget.ImageView',
        pkg: SYSUI,
        res: `${SYSUI}:id/home`,
        desc: 'Home',
        bounds: [420, 2274, 660, HEIGHT],
        clickable: true,
        longClickable: true,
        paint: 'nav',
      },
      {
        cls: 'android.widget.ImageView',
        pkg: SYSUI,
        res: `${SYSUI}:id/recent_apps`,
        desc: 'Overview',
        bounds: [720, 2274, 960, HEIGHT],
        clickable: true,
        longClickable: true,
        paint: 'nav',
      },
    ],
  },
  {
    cls: 'android.widget.FrameLayout',
    pkg: SYSUI,
    res: `${SYSUI}:id/status_bar_container`,
    bounds: [0, 0, WIDTH, 63],
    paint: 'statusbar',
    children: [
      {
        cls: 'android.widget.TextView',
        pkg: SYSUI,
        res: `${SYSUI}:id/clock`,
        text: '9:41',
        bounds: [42, 0, 160, 63],
        paint: 'title',
      },
      {
        cls: 'android.widget.ImageView',
        pkg: SYSUI,
        res: `${SYSUI}:id/wifi_signal`,
        desc: 'Wi-Fi three bars.',
        bounds: [900, 8, 950, 55],
        paint: 'icon',
      },
      {
        cls: 'android.widget.LinearLayout',
        pkg: SYSUI,
        res: `${SYSUI}:id/battery`,
        desc: 'Battery 87 percent.',
        bounds: [960, 8, 1040, 55],
        paint: 'icon',
      },
    ],
  },
  {
    cls: 'android.widget.FrameLayout',
    bounds: [0, 0, WIDTH, 2274],
    children: [
      {
        cls: 'android.widget.LinearLayout',
        bounds: [0, 63, WIDTH, 2274],
        children: [
          {
            cls: 'android.view.ViewGroup',
            res: `${APP}:id/toolbar`,
            bounds: [0, 63, WIDTH, 210],
            paint: 'toolbar',
            children: [
              {cls: 'android.widget.TextView', text: 'Groceries', bounds: [42, 100, 600, 173], paint: 'title'},
              {
                cls: 'android.widget.ImageButton',
                res: `${APP}:id/action_search`,
                desc: 'Search',
                bounds: [828, 74, 954, 200],
                clickable: true,
                focusable: true,
                paint: 'icon',
              },
              {
                cls: 'android.widget.ImageView',
                desc: 'More options',
                bounds: [954, 74, 1080, 200],
                clickable: true,
                focusable: true,
                paint: 'icon',
              },
            ],
          },
          {
            cls: 'android.widget.LinearLayout',
            bounds: [0, 210, WIDTH, 378],
            children: [
              {
                cls: 'android.widget.EditText',
                res: `${APP}:id/new_item`,
                hint: 'Add an item',
                text: 'Add an item',
                bounds: [42, 231, 780, 357],
                clickable: true,
                focusable: true,
                focused: true,
                longClickable: true,
                paint: 'field',
              },
              {
                cls: 'android.widget.Button',
                res: `${APP}:id/add_button`,
                text: 'ADD',
                bounds: [801, 231, 1038, 357],
                clickable: true,
                focusable: true,
                paint: 'button',
              },
            ],
          },
          {
            cls: 'androidx.recyclerview.widget.RecyclerView',
            res: `${APP}:id/items`,
            bounds: [0, 378, WIDTH, LIST_BOTTOM],
            scrollable: true,
            focusable: true,
            children: ITEMS.map((_, i) => row(i)),
          },
        ],
      },
    ],
  },
]
