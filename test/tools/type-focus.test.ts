/**
 * Typing goes to whatever view has the input focus, not to a place: the typing tools tap a field that is not
 * focused, and only that field may take the keys and text that follow. A field whose tap opens another screen (a
 * search box that starts a search page with its own focused field, a date field that opens a dialog) leaves the
 * focus elsewhere; the text, or a clear's deletes, must then not be sent at all.
 */
import {mkdir, writeFile} from 'node:fs/promises'
import path from 'node:path'

import {expect} from 'chai'

import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {dumpXml, recordedWindow, type NodeSpec} from '@arc-cli/test-support/dump'
import {runArc} from '@arc-cli/test-support/run-arc'

const BOX = 'com.example:id/search_box'
const QUERY = 'com.example:id/query'

/** A home page with a search box (an EditText the app turns into a page of its own when tapped). */
const home = (boxText: string): NodeSpec[] => [
  {
    pkg: 'com.example',
    bounds: [0, 0, 1080, 2400],
    children: [
      {cls: 'android.widget.TextView', res: 'com.example:id/title', text: 'Shop', bounds: [0, 100, 1080, 200]},
      {
        cls: 'android.widget.EditText',
        res: BOX,
        text: boxText,
        attrs: {clickable: 'true', focusable: 'true', 'long-clickable': 'true'},
        bounds: [40, 300, 1040, 420],
      },
    ],
  },
]

/** The search page the box opens: its own field, focused, holding the last query. */
const search: NodeSpec[] = [
  {
    pkg: 'com.example',
    bounds: [0, 0, 1080, 2400],
    children: [
      {
        cls: 'android.widget.EditText',
        res: QUERY,
        text: 'last query',
        attrs: {clickable: 'true', focusable: 'true', focused: 'true', 'long-clickable': 'true'},
        bounds: [40, 100, 1040, 220],
      },
    ],
  },
]

/**
 * A note field that has the focus, and a date field the app made not focusable (it opens a picker, and takes no
 * typing): a tap on the date field leaves the focus on the note (AOSP View.onTouchEvent; docs/emulate.md).
 */
const form: NodeSpec[] = [
  {
    pkg: 'com.example',
    bounds: [0, 0, 1080, 2400],
    children: [
      {
        cls: 'android.widget.EditText',
        res: 'com.example:id/note',
        text: 'Call Ada',
        attrs: {focusable: 'true', focused: 'true', clickable: 'true'},
        bounds: [40, 300, 1040, 420],
      },
      {
        cls: 'android.widget.EditText',
        res: 'com.example:id/date',
        text: '',
        attrs: {focusable: 'false'},
        bounds: [40, 500, 1040, 620],
      },
    ],
  },
]

/**
 * A rename dialog over a form: each window keeps its own focused view (View.isFocused is per window, and
 * View.onInitializeAccessibilityNodeInfoInternal dumps it as `focused`), so the form's note field still says focused,
 * while the input dispatcher hands keys to the focused window alone (InputDispatcher findFocusedWindowTargetsLocked),
 * the dialog, whose own field takes them.
 */
const NOTE = 'com.example:id/note'
const LIST_NAME = 'com.example:id/list_name'
const DIALOG: [number, number, number, number] = [100, 900, 980, 1500]
const dialog: NodeSpec = {
  pkg: 'com.example',
  bounds: DIALOG,
  children: [
    {cls: 'android.widget.TextView', text: 'Rename list', bounds: [140, 940, 940, 1020]},
    {
      cls: 'android.widget.EditText',
      res: LIST_NAME,
      text: 'Groceries',
      attrs: {focusable: 'true', focused: 'true', clickable: 'true'},
      bounds: [140, 1060, 940, 1180],
    },
  ],
}
const formUnder: NodeSpec = {
  pkg: 'com.example',
  bounds: [0, 0, 1080, 2400],
  children: [
    {
      cls: 'android.widget.EditText',
      res: NOTE,
      text: 'Call Ada',
      attrs: {focusable: 'true', focused: 'true', clickable: 'true'},
      bounds: [40, 300, 1040, 420],
    },
  ],
}
/** A confirm dialog with buttons only over the same form: the input focus is on it, and nothing in it is focused. */
const confirm: NodeSpec = {
  pkg: 'com.example',
  bounds: DIALOG,
  children: [
    {cls: 'android.widget.TextView', text: 'Discard note?', bounds: [140, 940, 940, 1020]},
    {
      cls: 'android.widget.Button',
      text: 'Discard',
      attrs: {clickable: 'true', focusable: 'true'},
      bounds: [540, 1300, 940, 1420],
    },
  ],
}

describe('typing tools send text and keys only to the field the id named', function () {
  this.timeout(60_000)
  const h = useEmulator(async (dir) => {
    await writeFile(path.join(dir, 'home.xml'), dumpXml(home('Old')))
    await writeFile(path.join(dir, 'search.xml'), dumpXml(search))
    await writeFile(path.join(dir, 'form.xml'), dumpXml(form))
    const renaming = path.join(dir, 'renaming')
    await mkdir(renaming)
    // uiautomator lists the topmost window first.
    await writeFile(path.join(renaming, 'window_dump.xml'), dumpXml([dialog, formUnder]))
    const meta = {
      format: 'arc-snapshot/1',
      width: 1080,
      height: 2400,
      rotation: 0,
      package: 'com.example',
      activity: '.Main',
      allWindows: true,
      windowManager: {
        windows: [
          recordedWindow('Rename list', 'com.example', 'APPLICATION', 0, DIALOG),
          recordedWindow('com.example/com.example.Main', 'com.example', 'BASE_APPLICATION', 1, [0, 0, 1080, 2400]),
        ],
        focus: 'Rename list',
      },
    }
    await writeFile(path.join(renaming, 'meta.json'), JSON.stringify(meta))
    const confirming = path.join(dir, 'confirming')
    await mkdir(confirming)
    await writeFile(path.join(confirming, 'window_dump.xml'), dumpXml([confirm, formUnder]))
    const confirmMeta = {
      ...meta,
      windowManager: {
        ...meta.windowManager,
        windows: [
          recordedWindow('Discard note?', 'com.example', 'APPLICATION', 0, DIALOG),
          meta.windowManager.windows[1],
        ],
        focus: 'Discard note?',
      },
    }
    await writeFile(path.join(confirming, 'meta.json'), JSON.stringify(confirmMeta))
    return {
      devices: [],
      scenario: {
        devices: {
          'emu-1': {
            screens: {
              home: path.join(dir, 'home.xml'),
              search: path.join(dir, 'search.xml'),
              form: path.join(dir, 'form.xml'),
              renaming,
              confirming,
            },
            transitions: [{from: 'home', tap: {resourceId: BOX}, to: 'search'}],
          },
        },
      },
    }
  })
  const device = () => h.emu.device('emu-1')
  const arc = (...args: string[]) => runArc(args, {env: h.env})
  const textOf = (res: string) =>
    device()
      .dumpXml()
      .match(/<node\b[^>]*>/g)
      ?.find((t) => t.includes(`resource-id="${res}"`))
      ?.match(/\btext="([^"]*)"/)?.[1]
  const typedSince = (from: number) =>
    h.emu.commands
      .slice(from)
      .filter((c) => c.argv[0] === 'input' && (c.argv[1] === 'text' || c.argv[1] === 'keyevent'))
      .map((c) => c.argv.slice(1).join(' '))

  beforeEach(() => device().showScreen('home'))

  it('type append: the box opened a search page on its tap; nothing is typed into the search page’s field', async () => {
    const from = h.emu.commands.length
    const r = await arc('type', 'append', '--res-id', BOX, 'shoes', '--json')
    expect(device().screenName).to.equal('search')
    expect(textOf(QUERY)).to.equal('last query')
    expect(typedSince(from)).to.deep.equal([])
    expect(r.code, r.stdout + r.stderr).to.equal(8)
    const error = JSON.parse(r.stdout) as {error: {code: string; message: string; details: {reason: string}}}
    expect(error.error.code).to.equal('DEVICE_COMMAND_FAILED')
    expect(error.error.details.reason).to.equal('FOCUS_NOT_TAKEN')
    expect(error.error.message).to.match(/nothing was typed/)
  })

  it('type clear: the deletes meant for the box never reach the search page’s field', async () => {
    const from = h.emu.commands.length
    const r = await arc('type', 'clear', '--res-id', BOX)
    expect(device().screenName).to.equal('search')
    expect(textOf(QUERY)).to.equal('last query')
    expect(typedSince(from)).to.deep.equal([])
    expect(r.code, r.stderr).to.equal(8)
    expect(r.stderr).to.match(/FOCUS_NOT_TAKEN|did not take the focus/)
  })

  it('a field that does not take the focus on a touch: the text is not typed into the field that kept it', async () => {
    device().showScreen('form')
    const from = h.emu.commands.length
    const r = await arc('type', 'append', '--res-id', 'com.example:id/date', '2026-11-27')
    expect(textOf('com.example:id/note')).to.equal('Call Ada')
    expect(typedSince(from)).to.deep.equal([])
    expect(r.code, r.stderr).to.equal(8)
    expect(r.stderr).to.include('the focus is on another field')
  })

  for (const [words, what] of [
    [['type', 'append', '--res-id', NOTE, ' tomorrow'], 'the text'],
    [['type', 'clear', '--res-id', NOTE], 'the deletes'],
  ] as const) {
    it(`${words.slice(0, 2).join(' ')}: a field focused under a dialog that has the input focus: ${what} never reach the dialog's field`, async () => {
      device().showScreen('renaming')
      const from = h.emu.commands.length
      const fromHelper = device().helperRequests.length
      const r = await arc(...words, '--json')
      expect(textOf(LIST_NAME)).to.equal('Groceries')
      expect(textOf(NOTE)).to.equal('Call Ada')
      expect(typedSince(from)).to.deep.equal([])
      // Nor by the on-device helper (its paste, its keys).
      const helperActs = device()
        .helperRequests.slice(fromHelper)
        .filter(([op]) => ['type', 'key', 'tap', 'double-tap', 'swipe', 'gesture', 'ime-action'].includes(op!))
      expect(helperActs).to.deep.equal([])
      expect(r.code, r.stdout + r.stderr).to.equal(8)
      const error = JSON.parse(r.stdout) as {error: {code: string; message: string; details: {reason: string}}}
      expect(error.error.details.reason).to.equal('FOCUS_IN_OTHER_WINDOW')
      expect(error.error.message).to.include('Rename list')
    })
  }

  it('press key ENTER with a dialog holding the input focus and nothing focused in it: refused, no key sent', async () => {
    device().showScreen('confirming')
    const from = h.emu.commands.length
    const fromHelper = device().helperRequests.length
    const r = await arc('press', 'key', 'ENTER', '--json')
    expect(typedSince(from)).to.deep.equal([])
    expect(
      device()
        .helperRequests.slice(fromHelper)
        .filter(([op]) => op === 'key')
    ).to.deep.equal([])
    expect(r.code, r.stdout + r.stderr).to.equal(9)
    expect(r.stdout).to.include('Discard note?')
  })
})
