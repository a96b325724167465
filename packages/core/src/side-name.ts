/**
 * The stem of the side files a write makes beside its target (`.NAME.PID.tmp`, `.NAME.arc-XXXXXXXX.tmp`): the
 * target's own name where the side file's name still fits a file system's limit, else a shorter stem made from it.
 *
 * A file name may be 255 bytes on Linux (ext4, f2fs, tmpfs: NAME_MAX), on Android's storage and on macOS, and a side
 * file is the name plus some 20 bytes: a target named with 236 bytes or more (80 characters of Chinese are 240) got
 * ENAMETOOLONG for its temporary file, so a name the file system takes could not be written at all. The short stem
 * is the name's first bytes (whole characters) and the first 8 hex digits of the name's SHA-256: the same name always
 * gives the same stem, so a later write still finds the side files a killed one left.
 */
import {createHash} from 'node:crypto'

/** The most bytes in one file name on the file systems arc writes to. */
export const NAME_MAX_BYTES = 255

/** Bytes a side file adds around its stem, at most: `.` before, `.PID.RANDOM.tmp` or `.arc-XXXXXXXX.tmp` after. */
const SIDE_ROOM = 24

export function sideStem(name: string): string {
  if (Buffer.byteLength(name) + SIDE_ROOM <= NAME_MAX_BYTES) return name
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 8)
  // `~` and the hash: 9 bytes; the rest of the room is the name's first whole characters.
  let keep = ''
  let bytes = 0
  for (const char of name) {
    const size = Buffer.byteLength(char)
    if (bytes + size + 9 + SIDE_ROOM > NAME_MAX_BYTES) break
    keep += char
    bytes += size
  }
  return `${keep}~${hash}`
}
