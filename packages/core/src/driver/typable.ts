/** What adb's `input text` can type: printable ASCII only (InputShellCommand injects key events per character). */

/** The characters `input text` cannot type (outside printable ASCII), each once, in order of appearance. */
export function untypable(text: string): string[] {
  return [...new Set([...text].filter((ch) => ch < ' ' || ch > '~'))]
}

/** Up to ten characters as `U+00E9 "é"`, then how many more, for error messages. */
export function describeChars(chars: string[]): string {
  const shown = chars.slice(0, 10).map((ch) => `U+${(ch.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')} ${JSON.stringify(ch)}`)
  return shown.join(', ') + (chars.length > 10 ? ` and ${chars.length - 10} more` : '')
}
