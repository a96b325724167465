/**
 * Text from outside (a device's answer, a file's line, a config key) as printed: control characters written out,
 * so no byte of it can drive the terminal. A leaf module: errors, config and the tools' human text all use it.
 */

const NAMED: Record<string, string> = {'\\': '\\\\', '\t': '\\t', '\r': '\\r', '\n': '\\n'}
const hex = (c: string) => NAMED[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`

/**
 * A table cell with every control character written out: tab, CR and LF as `\t`, `\r`, `\n`, the rest of C0, DEL
 * and C1 (ESC sequences, BEL) as `\xHH`, and backslash doubled so the escapes stay unambiguous. Everything else
 * (accents, CJK, emoji) is kept.
 */
export function printable(value: string): string {
  return value.replace(/[\\\u0000-\u001f\u007f-\u009f]/g, hex)
}

/**
 * A line of device text (a log line, the clipboard) as printed: tabs and backslashes kept as they are (a stack
 * trace's `\tat …`, a Windows path), CR and every other control character written out as `\r`, `\xHH`.
 */
export function printableLine(value: string): string {
  return value.replace(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g, hex)
}

/** Text of several lines as printed: each line as `printableLine` writes it, the line breaks kept. */
export function printableText(value: string): string {
  return value.split('\n').map(printableLine).join('\n')
}
