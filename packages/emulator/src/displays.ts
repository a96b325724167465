/**
 * Physical display ids (SurfaceFlinger's, what `screencap -d` takes and `dumpsys display` shows as
 * `uniqueId='local:…'`): the official emulator's first display, and the second display of its Pixel Fold image.
 */
export const MAIN_DISPLAY_ID = '4619827259835644672'
export const OTHER_DISPLAY_ID = '4619827551948147201'

/** What `screencap` prints on stderr when SurfaceFlinger has several displays and no `-d` was given (Android 14+). */
export const MULTIPLE_DISPLAYS_WARNING =
  '[Warning] Multiple displays were found, but no display id was specified! Defaulting to the first display found, ' +
  'however this default is not guaranteed to be consistent across captures. A display id should be specified.\n' +
  'A display ID can be specified with the [-d display-id] option.\n' +
  'See "dumpsys SurfaceFlinger --display-id" for valid display IDs.\n'
