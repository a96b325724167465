/**
 * Android key events by name (the `KeyEvent.KEYCODE_*` constants, through Android 15) and number, and the one way
 * arc resolves what a user typed (`VOLUME_UP`, `keycode_volume_up`, `24`) to a key it can send.
 */
import {InvalidInputError} from '../errors/arc-error.js'

/** Names in code order; a name's index plus its offset is its code (gaps are written as separate runs). */
const RUNS: Array<[number, string]> = [
  [
    0,
    'UNKNOWN SOFT_LEFT SOFT_RIGHT HOME BACK CALL ENDCALL 0 1 2 3 4 5 6 7 8 9 STAR POUND DPAD_UP DPAD_DOWN DPAD_LEFT DPAD_RIGHT DPAD_CENTER VOLUME_UP VOLUME_DOWN POWER CAMERA CLEAR',
  ],
  [29, 'A B C D E F G H I J K L M N O P Q R S T U V W X Y Z'],
  [
    55,
    'COMMA PERIOD ALT_LEFT ALT_RIGHT SHIFT_LEFT SHIFT_RIGHT TAB SPACE SYM EXPLORER ENVELOPE ENTER DEL GRAVE MINUS EQUALS LEFT_BRACKET RIGHT_BRACKET BACKSLASH SEMICOLON APOSTROPHE SLASH AT NUM HEADSETHOOK FOCUS PLUS MENU NOTIFICATION SEARCH',
  ],
  [
    85,
    'MEDIA_PLAY_PAUSE MEDIA_STOP MEDIA_NEXT MEDIA_PREVIOUS MEDIA_REWIND MEDIA_FAST_FORWARD MUTE PAGE_UP PAGE_DOWN PICTSYMBOLS SWITCH_CHARSET',
  ],
  [
    96,
    'BUTTON_A BUTTON_B BUTTON_C BUTTON_X BUTTON_Y BUTTON_Z BUTTON_L1 BUTTON_R1 BUTTON_L2 BUTTON_R2 BUTTON_THUMBL BUTTON_THUMBR BUTTON_START BUTTON_SELECT BUTTON_MODE',
  ],
  [
    111,
    'ESCAPE FORWARD_DEL CTRL_LEFT CTRL_RIGHT CAPS_LOCK SCROLL_LOCK META_LEFT META_RIGHT FUNCTION SYSRQ BREAK MOVE_HOME MOVE_END INSERT FORWARD MEDIA_PLAY MEDIA_PAUSE MEDIA_CLOSE MEDIA_EJECT MEDIA_RECORD',
  ],
  [131, 'F1 F2 F3 F4 F5 F6 F7 F8 F9 F10 F11 F12 NUM_LOCK'],
  [
    144,
    'NUMPAD_0 NUMPAD_1 NUMPAD_2 NUMPAD_3 NUMPAD_4 NUMPAD_5 NUMPAD_6 NUMPAD_7 NUMPAD_8 NUMPAD_9 NUMPAD_DIVIDE NUMPAD_MULTIPLY NUMPAD_SUBTRACT NUMPAD_ADD NUMPAD_DOT NUMPAD_COMMA NUMPAD_ENTER NUMPAD_EQUALS NUMPAD_LEFT_PAREN NUMPAD_RIGHT_PAREN',
  ],
  [
    164,
    'VOLUME_MUTE INFO CHANNEL_UP CHANNEL_DOWN ZOOM_IN ZOOM_OUT TV WINDOW GUIDE DVR BOOKMARK CAPTIONS SETTINGS TV_POWER TV_INPUT STB_POWER STB_INPUT AVR_POWER AVR_INPUT PROG_RED PROG_GREEN PROG_YELLOW PROG_BLUE APP_SWITCH',
  ],
  [
    188,
    'BUTTON_1 BUTTON_2 BUTTON_3 BUTTON_4 BUTTON_5 BUTTON_6 BUTTON_7 BUTTON_8 BUTTON_9 BUTTON_10 BUTTON_11 BUTTON_12 BUTTON_13 BUTTON_14 BUTTON_15 BUTTON_16',
  ],
  [
    204,
    'LANGUAGE_SWITCH MANNER_MODE 3D_MODE CONTACTS CALENDAR MUSIC CALCULATOR ZENKAKU_HANKAKU EISU MUHENKAN HENKAN KATAKANA_HIRAGANA YEN RO KANA ASSIST BRIGHTNESS_DOWN BRIGHTNESS_UP MEDIA_AUDIO_TRACK SLEEP WAKEUP PAIRING MEDIA_TOP_MENU 11 12 LAST_CHANNEL',
  ],
  [
    230,
    'TV_DATA_SERVICE VOICE_ASSIST TV_RADIO_SERVICE TV_TELETEXT TV_NUMBER_ENTRY TV_TERRESTRIAL_ANALOG TV_TERRESTRIAL_DIGITAL TV_SATELLITE TV_SATELLITE_BS TV_SATELLITE_CS TV_SATELLITE_SERVICE TV_NETWORK TV_ANTENNA_CABLE TV_INPUT_HDMI_1 TV_INPUT_HDMI_2 TV_INPUT_HDMI_3 TV_INPUT_HDMI_4 TV_INPUT_COMPOSITE_1 TV_INPUT_COMPOSITE_2 TV_INPUT_COMPONENT_1 TV_INPUT_COMPONENT_2 TV_INPUT_VGA_1 TV_AUDIO_DESCRIPTION TV_AUDIO_DESCRIPTION_MIX_UP TV_AUDIO_DESCRIPTION_MIX_DOWN TV_ZOOM_MODE TV_CONTENTS_MENU TV_MEDIA_CONTEXT_MENU TV_TIMER_PROGRAMMING HELP',
  ],
  [
    260,
    'NAVIGATE_PREVIOUS NAVIGATE_NEXT NAVIGATE_IN NAVIGATE_OUT STEM_PRIMARY STEM_1 STEM_2 STEM_3 DPAD_UP_LEFT DPAD_DOWN_LEFT DPAD_UP_RIGHT DPAD_DOWN_RIGHT MEDIA_SKIP_FORWARD MEDIA_SKIP_BACKWARD MEDIA_STEP_FORWARD MEDIA_STEP_BACKWARD SOFT_SLEEP CUT COPY PASTE',
  ],
  [
    280,
    'SYSTEM_NAVIGATION_UP SYSTEM_NAVIGATION_DOWN SYSTEM_NAVIGATION_LEFT SYSTEM_NAVIGATION_RIGHT ALL_APPS REFRESH THUMBS_UP THUMBS_DOWN PROFILE_SWITCH',
  ],
  [
    289,
    'VIDEO_APP_1 VIDEO_APP_2 VIDEO_APP_3 VIDEO_APP_4 VIDEO_APP_5 VIDEO_APP_6 VIDEO_APP_7 VIDEO_APP_8 FEATURED_APP_1 FEATURED_APP_2 FEATURED_APP_3 FEATURED_APP_4 DEMO_APP_1 DEMO_APP_2 DEMO_APP_3 DEMO_APP_4',
  ],
  [
    305,
    'KEYBOARD_BACKLIGHT_DOWN KEYBOARD_BACKLIGHT_UP KEYBOARD_BACKLIGHT_TOGGLE STYLUS_BUTTON_PRIMARY STYLUS_BUTTON_SECONDARY STYLUS_BUTTON_TERTIARY STYLUS_BUTTON_TAIL RECENT_APPS MACRO_1 MACRO_2 MACRO_3 MACRO_4',
  ],
]

/** Short name (no `KEYCODE_`) → code. */
export const KEYCODES: ReadonlyMap<string, number> = new Map(
  RUNS.flatMap(([first, names]) => names.split(' ').map((name, i): [string, number] => [name, first + i]))
)
const NAMES = new Map([...KEYCODES].map(([name, code]) => [code, name]))

/**
 * The API level that added a code, for the codes added since Android 6.0 (API 23; every code below 260 is older):
 * the KeyEvent reference's "Added in API level", and the API differences reports of 28 (ALL_APPS, REFRESH), 33
 * (VIDEO_APP_*, FEATURED_APP_*, DEMO_APP_*) and 34 (KEYBOARD_BACKLIGHT_*, STYLUS_BUTTON_*, RECENT_APPS, MACRO_*)
 * (developer.android.com/sdk/api_diff/N/changes/android.view.KeyEvent). First code of a run, and its level.
 */
const ADDED: Array<[number, number]> = [
  [260, 23], // NAVIGATE_PREVIOUS … NAVIGATE_OUT
  [264, 24], // STEM_PRIMARY … DPAD_DOWN_RIGHT
  [272, 23], // MEDIA_SKIP_FORWARD … MEDIA_STEP_BACKWARD
  [276, 24], // SOFT_SLEEP, CUT, COPY, PASTE
  [280, 25], // SYSTEM_NAVIGATION_UP, SYSTEM_NAVIGATION_DOWN
  [282, 26], // SYSTEM_NAVIGATION_LEFT, SYSTEM_NAVIGATION_RIGHT
  [284, 28], // ALL_APPS, REFRESH
  [286, 29], // THUMBS_UP, THUMBS_DOWN, PROFILE_SWITCH
  [289, 33], // VIDEO_APP_1 … DEMO_APP_4
  [305, 34], // KEYBOARD_BACKLIGHT_DOWN … MACRO_4
]

/**
 * The API level from which a device knows the key `code` names (undefined: every release arc meets, or a code past
 * the table). A release older than that cannot send it: `input keyevent NAME` turns a name its KeyEvent does not
 * know into KEYCODE_UNKNOWN, sends that and exits 0 (AOSP InputShellCommand.runKeyEvent and, up to Android 11,
 * cmds/input Input.java: KeyEvent.keyCodeFromString gives KEYCODE_UNKNOWN for a name it cannot read), so the press
 * would report success and do nothing.
 */
export function keyAddedIn(code: number): number | undefined {
  if (code < 260 || !NAMES.has(code)) return undefined
  let level: number | undefined
  for (const [first, api] of ADDED) if (code >= first) level = api
  return level
}

/** Codes newer devices may define beyond this table are still sent by number, up to this bound. */
export const MAX_KEYCODE = 999

export interface ResolvedKey {
  /** `KEYCODE_VOLUME_UP`, or `KEYCODE_<n>` for a number arc has no name for. */
  key: string
  code: number
  /** The short name (`VOLUME_UP`), or the number as text when arc has no name for it. */
  label: string
  /** What `input keyevent` is sent: the name when the user gave one, else the number. */
  word: string | number
}

const HOW_TO_FIND =
  'Key names are Android KeyEvent constants with or without KEYCODE_ (VOLUME_UP, DPAD_CENTER, MENU, POWER, 5…): docs/devices.md lists them all, or pass the number (24).'

/** Resolves `VOLUME_UP`, `KEYCODE_VOLUME_UP`, `volume_up`, `24` or 24; an InvalidInputError names the input otherwise. */
export function resolveKey(input: string | number, label = 'key'): ResolvedKey {
  const text = String(input).trim()
  if (typeof input === 'number' || /^\d+$/.test(text)) {
    const code = Number(text)
    if (!Number.isInteger(code) || code < 0 || code > MAX_KEYCODE) {
      throw new InvalidInputError(
        `${label}: ${JSON.stringify(String(input))} is not an Android keycode: numbers run from 0 to ${MAX_KEYCODE}`,
        {
          details: {key: input},
          actions: [HOW_TO_FIND],
        }
      )
    }
    const name = NAMES.get(code)
    return {key: `KEYCODE_${name ?? code}`, code, label: name ?? String(code), word: code}
  }
  const short = text.toUpperCase().replace(/^KEYCODE_/, '')
  const code = KEYCODES.get(short)
  if (code === undefined) {
    const near = suggestions(short)
    throw new InvalidInputError(
      `${label}: unknown Android key ${JSON.stringify(String(input))}${near.length > 0 ? ` (did you mean ${near.join(', ')}?)` : ''}`,
      {details: {key: input, suggestions: near}, actions: [HOW_TO_FIND]}
    )
  }
  return {key: `KEYCODE_${short}`, code, label: short, word: `KEYCODE_${short}`}
}

/** Up to three known names that contain the input or share its first word. */
function suggestions(short: string): string[] {
  if (short === '' || !/^[A-Z0-9_]+$/.test(short)) return []
  const first = short.split('_')[0] as string
  const names = [...KEYCODES.keys()]
  const containing = names.filter((n) => n.includes(short) || (short.length >= 3 && short.includes(n) && n.length >= 3))
  const sameStart = names.filter((n) => first.length >= 3 && n.startsWith(first))
  return [...new Set([...containing, ...sameStart])].slice(0, 3)
}
