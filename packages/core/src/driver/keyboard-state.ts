/**
 * Is the soft keyboard on screen? Two sources answer, and `arc keyboard` acts only where every source that
 * answered agrees: the input method service (`mInputShown`: it told the keyboard to show, which is what a BACK
 * then closes) and the window manager (the keyboard's window is drawn on the main display). They disagree for a
 * moment while the keyboard slides in or out, and for good where the service shows an input method whose window
 * stays off (a hardware keyboard attached): a BACK there would reach the app and leave the screen.
 */
import type {KeyboardState, WindowManagerState} from './device-driver.js'

/**
 * The window manager's word: a shown INPUT_METHOD window on display 0. False when the list has windows but no
 * shown keyboard among them (a keyboard on screen is a window); undefined without a window list.
 */
export function keyboardWindowShown(wm: WindowManagerState | undefined): boolean | undefined {
  if (!wm || wm.windows.length === 0) return undefined
  return wm.windows.some((w) => w.type === 'INPUT_METHOD' && w.displayId === 0 && w.visible)
}

/** `shown` / `hidden`: every source that answered says so; `mixed`: they disagree; `unknown`: none answered. */
export type KeyboardVerdict = 'shown' | 'hidden' | 'mixed' | 'unknown'

export function keyboardVerdict(state: KeyboardState): KeyboardVerdict {
  const said = [state.inputShown, state.windowShown].filter((v): v is boolean => v !== undefined)
  if (said.length === 0) return 'unknown'
  if (said.every((v) => v)) return 'shown'
  if (said.every((v) => !v)) return 'hidden'
  return 'mixed'
}
