/**
 * `dumpsys input_method`: whether the input method service last told the keyboard to show. Android 7-13 print it
 * on the service's flags line (`mShowRequested=false mShowExplicitly… mShowForced=false mInputShown=false`), 14+ on
 * a line of its own (`  mInputShown=false`). The IME's own dump further down has `mIsInputViewShown=`, which stays
 * true after the keyboard is hidden (shared/fixtures/device-output/dumpsys-input-method), so it is not read.
 */

/** True when any `mInputShown=` says true (one per user on releases that dump each), undefined when none is printed. */
export function parseInputShown(output: string): boolean | undefined {
  const values = [...output.matchAll(/(?:^|\s)mInputShown=(true|false)\b/gm)].map((m) => m[1] === 'true')
  return values.length === 0 ? undefined : values.some((v) => v)
}
