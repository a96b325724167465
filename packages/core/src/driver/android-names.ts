/**
 * What Android accepts as a package name and a permission name, checked before anything is sent, so a typo is an
 * INVALID_INPUT naming the input rather than a device error (or, worse, a different package).
 */

/** `com.example.app`: two or more dot-separated segments, each a letter then letters, digits or `_`. */
export const PACKAGE_NAME = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/

/** `android.permission.CAMERA`, `com.example.permission.X`: dot-separated Java-style segments. */
export const PERMISSION_NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$/

/** `CAMERA` → `android.permission.CAMERA`; a name with dots is taken as given. */
export function fullPermissionName(name: string): string {
  const trimmed = name.trim()
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(trimmed) ? `android.permission.${trimmed}` : trimmed
}
