/** Android KeyEvent codes `input keyevent` accepts by name (KEYCODE_ prefix optional), the common subset. */
const KEYCODES: Record<string, number> = {
  UNKNOWN: 0, SOFT_LEFT: 1, SOFT_RIGHT: 2, HOME: 3, BACK: 4, CALL: 5, ENDCALL: 6,
  0: 7, 1: 8, 2: 9, 3: 10, 4: 11, 5: 12, 6: 13, 7: 14, 8: 15, 9: 16, STAR: 17, POUND: 18,
  DPAD_UP: 19, DPAD_DOWN: 20, DPAD_LEFT: 21, DPAD_RIGHT: 22, DPAD_CENTER: 23, VOLUME_UP: 24, VOLUME_DOWN: 25,
  POWER: 26, CAMERA: 27, CLEAR: 28,
  A: 29, B: 30, C: 31, D: 32, E: 33, F: 34, G: 35, H: 36, I: 37, J: 38, K: 39, L: 40, M: 41, N: 42, O: 43,
  P: 44, Q: 45, R: 46, S: 47, T: 48, U: 49, V: 50, W: 51, X: 52, Y: 53, Z: 54,
  COMMA: 55, PERIOD: 56, ALT_LEFT: 57, ALT_RIGHT: 58, SHIFT_LEFT: 59, SHIFT_RIGHT: 60, TAB: 61, SPACE: 62,
  SYM: 63, EXPLORER: 64, ENVELOPE: 65, ENTER: 66, DEL: 67, GRAVE: 68, MINUS: 69, EQUALS: 70,
  LEFT_BRACKET: 71, RIGHT_BRACKET: 72, BACKSLASH: 73, SEMICOLON: 74, APOSTROPHE: 75, SLASH: 76, AT: 77,
  NUM: 78, HEADSETHOOK: 79, FOCUS: 80, PLUS: 81, MENU: 82, NOTIFICATION: 83, SEARCH: 84,
  MEDIA_PLAY_PAUSE: 85, MEDIA_STOP: 86, MEDIA_NEXT: 87, MEDIA_PREVIOUS: 88, PAGE_UP: 92, PAGE_DOWN: 93,
  ESCAPE: 111, FORWARD_DEL: 112, CTRL_LEFT: 113, CTRL_RIGHT: 114, MOVE_HOME: 122, MOVE_END: 123,
  INSERT: 124, VOLUME_MUTE: 164, APP_SWITCH: 187, SETTINGS: 176, BRIGHTNESS_DOWN: 220, BRIGHTNESS_UP: 221,
  SLEEP: 223, WAKEUP: 224, ASSIST: 219, CUT: 277, COPY: 278, PASTE: 279,
}

const NAMES_BY_CODE = new Map(Object.entries(KEYCODES).map(([name, code]) => [code, `KEYCODE_${name}`]))

/** The code for `66`, `ENTER` or `KEYCODE_ENTER`; undefined when unknown. */
export function keyCode(key: string | number): number | undefined {
  if (typeof key === 'number') return key
  if (/^\d+$/.test(key)) return Number(key)
  return KEYCODES[key.toUpperCase().replace(/^KEYCODE_/, '')]
}

export function keyName(code: number): string {
  return NAMES_BY_CODE.get(code) ?? `KEYCODE_${code}`
}
