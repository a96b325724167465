/**
 * The emulated device's input methods: Gboard (a system app, the default) and ADBKeyBoard, present while its
 * package is installed (scenario `adbKeyboard`, or `pm install` of an emulated APK named com.android.adbkeyboard).
 * The current one is the `secure default_input_method` setting, as on a device (`ime set` writes it, and a
 * `settings put` of it switches). A newly selected input method binds IME_BIND_MS later, as a service starting
 * does: until then `dumpsys input_method` shows it unbound and ADBKeyBoard's broadcasts reach no receiver.
 */

/** What the input methods live in: the device's settings and its installed packages (the virtual device). */
export interface ImeHost {
  readonly settings: Map<string, string>
  findPackage(name: string): unknown
}

export const GBOARD_IME = 'com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME'
export const ADB_KEYBOARD_IME = 'com.android.adbkeyboard/.AdbIME'
export const ADB_KEYBOARD_PACKAGE = 'com.android.adbkeyboard'

/** How long a selected input method takes to bind (its service starting and connecting). */
export const IME_BIND_MS = 250

const SETTING = 'secure/default_input_method'

/** Each input method the emulator knows, by the package that holds it. */
const SERVICES: Array<[pkg: string, id: string]> = [
  ['com.google.android.inputmethod.latin', GBOARD_IME],
  [ADB_KEYBOARD_PACKAGE, ADB_KEYBOARD_IME],
]

export class InputMethods {
  /** Enabled input methods (`ime enable` / `ime disable`), whether installed or not. */
  readonly enabled = new Set([GBOARD_IME])
  private boundFrom = 0

  constructor(private readonly device: ImeHost) {
    device.settings.set(SETTING, GBOARD_IME)
  }

  /** The input methods of installed packages (`ime list -a`). */
  installed(): string[] {
    return SERVICES.filter(([pkg]) => this.device.findPackage(pkg) !== undefined).map(([, id]) => id)
  }

  /** Installed and enabled (`ime list`). */
  enabledList(): string[] {
    return this.installed().filter((id) => this.enabled.has(id))
  }

  /** The setting's value: the current input method's id, or undefined when unset. */
  get current(): string | undefined {
    return this.device.settings.get(SETTING)
  }

  /** Makes `id` current (the setting changes, and its service starts binding); undefined clears the setting. */
  select(id: string | undefined): void {
    if (id === undefined) this.device.settings.delete(SETTING)
    else this.device.settings.set(SETTING, id)
    this.switched()
  }

  /** The setting changed: the input method it names starts binding. */
  switched(): void {
    this.boundFrom = Date.now() + IME_BIND_MS
  }

  /** Whether the current input method is installed and its service bound now. */
  bound(): boolean {
    const id = this.current
    return id !== undefined && this.installed().includes(id) && Date.now() >= this.boundFrom
  }

  /** `dumpsys input_method`'s lines on the current input method, as Android 10-13 print them. */
  dumpLines(): string {
    const id = this.current ?? 'null'
    const bound = this.bound()
    return `  mCurMethodId=${id}\n  mCurId=${id} mHaveConnection=${this.installed().includes(id)} mBoundToMethod=${bound} mVisibleBound=false\n`
  }

  /** The setting a `settings put|delete secure KEY` touched: a change of the current input method switches. */
  static isSetting(id: string): boolean {
    return id === SETTING
  }
}
