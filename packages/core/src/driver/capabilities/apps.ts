/** The apps capability: the installed apps, starting and stopping them, installing, permissions, URLs. */

export type AppFilter = 'all' | 'user' | 'system'

export interface AppInfo {
  package_id: string
  /** Display label; over plain ADB this is the package name unless the device reports a label. */
  name: string
  /** Null where the device reports none (no versionName in the manifest, or a device that would not say). */
  version_name: string | null
  /** Null where the device reports none. */
  version_code: number | null
  is_system: boolean
}

export interface InstallOptions {
  /** `pm install -r`: reinstall over an installed version, keeping its data. */
  replace: boolean
  /** `-g`: grant every runtime permission the manifest declares. */
  grantAll: boolean
  /** `-d`: allow a lower version code than the installed one. */
  downgrade: boolean
  /** `-t`: allow an APK marked android:testOnly. */
  allowTest: boolean
}

/** One intent extra: `--es` (string), `--ei` (int) or `--ez` (boolean) of `am start`. */
export type IntentExtra =
  | {key: string; type: 'string'; value: string}
  | {key: string; type: 'int'; value: number}
  | {key: string; type: 'bool'; value: boolean}

/** What `openApp` starts besides the launcher: an activity of the package, and the intent it gets. */
export interface LaunchOptions {
  /** `.Name` (in the package), a fully qualified class name, as `am start -n PKG/ACTIVITY` takes it. */
  activity?: string
  /** The intent's action (`-a`). */
  action?: string
  /** The intent's data URI (`-d`). */
  data?: string
  extras?: IntentExtra[]
  /** The Android user to start it for (`am start --user N`; 10 is often a work profile); default: the current user. */
  user?: number
}

export interface AppsCapability {
  /** `user`: the apps of that Android user (`pm list packages --user N`); default: the system user, 0. */
  listApps(filter: AppFilter, user?: number): Promise<AppInfo[]>
  /**
   * Starts an app: its launcher activity, or `launch.activity` (`am start -n PKG/ACT`), with the intent's action,
   * data and extras when given.
   */
  openApp(packageId: string, launch?: LaunchOptions): Promise<void>
  /**
   * Stops an app (`am force-stop`): every user's copy, or only `user`'s (`--user N`; am's default is every user).
   */
  closeApp(packageId: string, user?: number): Promise<void>
  /** Installs an APK from a path on the host. */
  installApp(apkPath: string, options: InstallOptions): Promise<void>
  /**
   * Removes an app; `keepData` keeps its data and cache (`pm uninstall -k`). Without `user`, for every user (pm's
   * default); with it, only that user's copy (`pm uninstall --user N`).
   */
  uninstallApp(packageId: string, keepData: boolean, user?: number): Promise<void>
  /** Deletes an app's data and cache (`pm clear`): the system user's (0) copy, or `user`'s (`--user N`). */
  clearAppData(packageId: string, user?: number): Promise<void>
  /** Opens a URL or deep link with whatever app handles it (an ACTION_VIEW intent). */
  openUrl(url: string): Promise<void>
  /**
   * Grants (true) or revokes (false) a runtime permission, by its full name (`android.permission.CAMERA`), to the
   * system user's (0) copy of the app or `user`'s (`pm grant --user N`: permissions are kept per user).
   */
  setPermission(packageId: string, permission: string, granted: boolean, user?: number): Promise<void>
}
