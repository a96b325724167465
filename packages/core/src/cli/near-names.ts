/** Near misses for what a user typed: commands (the command_not_found hook, `arc batch`) and flags (ArcCommand). */

/** Edit distance (insert, delete, substitute). */
export function distance(a: string, b: string): number {
  let previous = Array.from({length: b.length + 1}, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1)
      )
    }
    previous = current
  }
  return previous[b.length] as number
}

/** A name as compared: case, spaces, colons, dashes and underscores do not count (`screen_state` = `screen-state`). */
export const squashName = (s: string): string => s.toLowerCase().replace(/[\s:_-]+/g, '')

/** The closest names (as given: `screen-state`, `press back`), nearest first, at most three. */
export function nearest(typed: string, names: string[]): string[] {
  const want = squashName(typed)
  return names
    .map((name) => ({name, d: distance(want, squashName(name))}))
    .filter((s) => s.d <= Math.max(2, Math.floor(want.length / 3)))
    .sort((x, y) => x.d - y.d || x.name.localeCompare(y.name))
    .slice(0, 3)
    .map((s) => s.name)
}
