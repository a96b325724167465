/**
 * The demo app's screen, described once, for any state of the app: scripts/make-demo.ts turns its first state
 * into the bundled `demo` snapshot (`window_dump.xml` as uiautomator would write it, and `screen.png` drawn from
 * the same boxes), and `arc emulate` runs it as a live app (demo-app.ts) whose every state is drawn from here.
 * Everything here is made up for arc; no third-party screen is copied. It shows every case screen-state and
 * annotate handle: a status bar, an app window with a toolbar, a text field, buttons, a list whose next row is laid
 * out under its edge (not visible, so not in the dump: demo-xml.ts), an on-screen keyboard window and a navigation
 * bar; and, once a row's delete button is tapped, a dialog window over the app.
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
    | 'scrim'
    | 'dialog'
    | 'text-button'
  children?: DemoNode[]
}

export const WIDTH = 1080
export const HEIGHT = 2400
export const DENSITY = 420
export const APP = 'dev.arc.demo.groceries'
export const ACTIVITY = '.ListActivity'
const IME = 'dev.arc.demo.keyboard'
const SYSUI = 'com.android.systemui'

/** One row of the groceries list. */
export interface DemoItem {
  name: string
  qty: string
  done: boolean
}

/** What the demo app shows: its rows, how far the list is scrolled, the new-item field and an open dialog. */
export interface DemoState {
  items: DemoItem[]
  /** The first row shown: the list scrolls a whole row at a time. */
  first: number
  /** What the new-item field holds ('' shows its hint). */
  field: string
  /** The delete dialog, open for this row (an index into `items`). */
  confirmDelete?: number
}

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

export const ROW_TOP = 399
export const ROW_HEIGHT = 147
export const LIST_TOP = 378
export const LIST_BOTTOM = 1590
/** Rows wholly inside the list: scrolling ends where the last row is one of them. */
export const ROWS_SHOWN = Math.floor((LIST_BOTTOM - ROW_TOP) / ROW_HEIGHT)

/** The app as it starts: the bundled `demo` snapshot. */
export function initialDemoState(): DemoState {
  return {items: ITEMS.map(([name, qty, done]) => ({name, qty, done})), first: 0, field: ''}
}

/** The furthest the list scrolls (its first row then): the last row wholly shown. */
export function lastFirstRow(state: DemoState): number {
  return Math.max(0, state.items.length - ROWS_SHOWN)
}

function row(item: DemoItem, slot: number): DemoNode {
  const {name, qty, done} = item
  const top = ROW_TOP + slot * ROW_HEIGHT
  const bottom = top + ROW_HEIGHT
  // A row whose top is within 20 px of the list's bottom edge is laid out but not visible to the user.
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

const DIALOG: Box = [66, 930, 1014, 1470]

/** The delete dialog's window: an AlertDialog with the row's name, a message and two buttons. */
function dialog(item: DemoItem): DemoNode {
  const [l, t, r, b] = DIALOG
  return {
    cls: 'android.widget.FrameLayout',
    bounds: DIALOG,
    paint: 'dialog',
    children: [
      {
        cls: 'android.widget.TextView',
        res: `${APP}:id/alertTitle`,
        text: `Delete ${item.name}?`,
        bounds: [l + 72, t + 66, r - 72, t + 150],
        paint: 'label',
      },
      {
        cls: 'android.widget.TextView',
        res: 'android:id/message',
        text: 'It leaves the list for good.',
        bounds: [l + 72, t + 180, r - 72, t + 260],
        paint: 'muted',
      },
      {
        cls: 'android.widget.Button',
        res: 'android:id/button2',
        text: 'Cancel',
        bounds: [r - 560, b - 170, r - 300, b - 44],
        clickable: true,
        focusable: true,
        paint: 'text-button',
      },
      {
        cls: 'android.widget.Button',
        res: 'android:id/button1',
        text: 'Delete',
        bounds: [r - 276, b - 170, r - 48, b - 44],
        clickable: true,
        focusable: true,
        paint: 'text-button',
      },
    ],
  }
}

/** Where the dialog's window lies (a tap outside it cancels the dialog). */
export const DIALOG_BOUNDS: Box = DIALOG

/**
 * The windows of the screen in this state, topmost first as uiautomator lists them: the keyboard (while the field
 * has the focus: a dialog takes it), the navigation and status bars, the dialog, the app.
 */
export function demoWindows(state: DemoState): DemoNode[] {
  const open = state.confirmDelete === undefined ? undefined : state.items[state.confirmDelete]
  const rows: DemoNode[] = []
  for (let i = state.first; i < state.items.length; i++) {
    const slot = i - state.first
    // Rows past the list's bottom edge are not laid out at all (RecyclerView recycles them).
    if (ROW_TOP + slot * ROW_HEIGHT >= LIST_BOTTOM) break
    rows.push(row(state.items[i]!, slot))
  }
  const [kb, nav, status, app] = WINDOWS
  const field = app!.children![0]!.children![1]!.children![0]!
  const withState: DemoNode = {
    ...app!,
    children: [
      {
        ...app!.children![0]!,
        children: [
          app!.children![0]!.children![0]!,
          {
            ...app!.children![0]!.children![1]!,
            children: [
              {...field, text: state.field === '' ? field.hint : state.field, focused: open === undefined},
              app!.children![0]!.children![1]!.children![1]!,
            ],
          },
          {...app!.children![0]!.children![2]!, children: rows},
        ],
      },
    ],
  }
  return open ? [nav!, status!, dialog(open), withState] : [kb!, nav!, status!, withState]
}

/** One of the navigation bar's three buttons (systemui's back, home, recent_apps): a 240 px wide icon from `left`. */
function navButton(id: string, desc: string, left: number): DemoNode {
  return {
    cls: 'android.widget.ImageView',
    pkg: SYSUI,
    res: `${SYSUI}:id/${id}`,
    desc,
    bounds: [left, 2274, left + 240, HEIGHT],
    clickable: true,
    longClickable: true,
    paint: 'nav',
  }
}

const WINDOWS: DemoNode[] = [
  keyboard(),
  {
    cls: 'android.widget.FrameLayout',
    pkg: SYSUI,
    res: `${SYSUI}:id/navigation_bar_frame`,
    bounds: [0, 2274, WIDTH, HEIGHT],
    paint: 'navbar',
    children: [
      navButton('back', 'Back', 120),
      navButton('home', 'Home', 420),
      navButton('recent_apps', 'Overview', 720),
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
            children: ITEMS.map(([name, qty, done], i) => row({name, qty, done}, i)),
          },
        ],
      },
    ],
  },
]
