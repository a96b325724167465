/**
 * What arc can type. adb's `input text` types printable ASCII only (InputShellCommand injects key events per
 * character from the virtual keyboard map); an input method such as ADBKeyBoard commits any other text, except
 * control characters (line breaks, tabs: keys, not text) and lone UTF-16 surrogates (no UTF-8 for them).
 */

/** The characters `input text` cannot type (outside printable ASCII), each once, in order of appearance. */
export function untypable(text: string): string[] {
  return [...new Set([...text].filter((ch) => ch < ' ' || ch > '~'))]
}

/** The characters no typing path takes: control characters and lone surrogates, each once, in order. */
export function neverTypable(text: string): string[] {
  return [...new Set([...text].filter((ch) => /^[\p{Cc}\p{Cs}]$/u.test(ch)))]
}

/** Up to ten characters as `U+00E9 "é"`, then how many more, for error messages. */
export function describeChars(chars: string[]): string {
  const shown = chars
    .slice(0, 10)
    .map((ch) => `U+${(ch.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')} ${JSON.stringify(ch)}`)
  return shown.join(', ') + (chars.length > 10 ? ` and ${chars.length - 10} more` : '')
}
