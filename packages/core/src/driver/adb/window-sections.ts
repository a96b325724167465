/**
 * The sections of a whole `dumpsys window -a`. The window manager prints every section from one dump, each under a
 * header line `WINDOW MANAGER <TITLE> (dumpsys window <name>)` and, with `-a`, closed by a line of dashes (AOSP
 * `WindowManagerService.doDump`). A section's text is what `dumpsys window <name>` prints alone: both paths call the
 * same dump method with every detail on (`dumpAll`); without `-a` the whole dump leaves out a window's layer, view
 * visibility and frame lines (`WindowState.dump`), so arc always asks with `-a`. In the real captures
 * (shared/fixtures/device-output/dumpsys-window, Android 7.1 to 13) each slice is byte for byte the separate capture.
 */

const HEADER = /^WINDOW MANAGER [^\n]*\(dumpsys window (\w+)\)/
const SEPARATOR = /^-{10,}\s*$/

/**
 * The text of section `name` (`displays`, `windows`…) of a whole window dump, from its header line up to the next
 * separator or section header; undefined when the output has no such section (then the caller asks for it alone).
 */
export function windowSection(output: string, name: string): string | undefined {
  const lines = output.replace(/^\uFEFF/, '').split('\n')
  const start = lines.findIndex((line) => HEADER.exec(line.replace(/\r$/, ''))?.[1] === name)
  if (start < 0) return undefined
  let end = start + 1
  while (end < lines.length) {
    const line = (lines[end] as string).replace(/\r$/, '')
    if (SEPARATOR.test(line) || HEADER.test(line)) break
    end++
  }
  const text = lines.slice(start, end).join('\n')
  // A section cut off by the end of the output keeps its text as printed; one that ends at a separator ends with
  // the newline before it, as the section printed alone does.
  return end < lines.length ? `${text}\n` : text
}
