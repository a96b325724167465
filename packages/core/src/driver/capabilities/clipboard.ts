/** The clipboard capability. */

export interface ClipboardCapability {
  /** The clipboard's text, or null when it is empty. UNSUPPORTED where the device does not let arc read it. */
  getClipboard(): Promise<string | null>
  /** Puts text on the clipboard. UNSUPPORTED where the device does not let arc write it. */
  setClipboard(text: string): Promise<void>
}
