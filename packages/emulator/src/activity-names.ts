/** Activity names as Android prints them: fully qualified, or short (`.Main`) inside their package. */

/** Full activity name (`pkg/.Main` → `pkg.Main`). */
export function fullActivity(pkg: string, activity: string): string {
  return activity.startsWith('.') ? `${pkg}${activity}` : activity
}

/** Short form used in ActivityRecord lines (`pkg.Main` → `.Main`). */
export function shortActivity(pkg: string, activity: string): string {
  const full = fullActivity(pkg, activity)
  return full.startsWith(`${pkg}.`) ? full.slice(pkg.length) : full
}
