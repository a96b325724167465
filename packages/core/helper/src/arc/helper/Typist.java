package arc.helper;

/**
 * Types any text (any script, emoji) into the focused field without switching the keyboard: the text goes on the
 * clipboard, KEYCODE_PASTE pastes it, and whatever the user had on the clipboard is put back, also when the paste
 * fails.
 */
public final class Typist {
    /** KeyEvent.KEYCODE_PASTE: from Android 7.0 (API 24) only, as are KEYCODE_CUT and KEYCODE_COPY (277, 278). */
    public static final int KEYCODE_PASTE = 279;
    /**
     * The first release that knows KEYCODE_PASTE. Android 6.0's KeyEvent ends at KEYCODE_MEDIA_STEP_BACKWARD (275,
     * LAST_KEYCODE; AOSP frameworks/base core/java/android/view/KeyEvent.java, and the API 23 android.jar this helper
     * is built against has no KEYCODE_PASTE), so before API 24 the key reaches the field as an unknown code, pastes
     * nothing, and the injection still succeeds: a paste that typed nothing, reported as typed.
     */
    public static final int PASTE_SDK = 24;

    private Typist() {}

    /** Returns "restored", or "not-restored TAB reason" when the user's clipboard could not be put back. */
    public static String type(Device device, String text) throws HelperException {
        if (text.isEmpty()) throw new HelperException(HelperException.BAD_REQUEST, "the text to type is empty");
        if (device.sdk() < PASTE_SDK)
            throw new HelperException(HelperException.UNSUPPORTED, "typing by paste needs KEYCODE_PASTE, which Android has from 7.0 (API " + PASTE_SDK + "); this is API " + device.sdk() + ": nothing was typed");
        Object saved = device.saveClipboard();
        HelperException failure = null;
        try {
            device.setClipboardText(text);
            Keys.press(device, KEYCODE_PASTE);
        } catch (HelperException e) {
            failure = e;
        }
        String restored = "restored";
        try {
            device.restoreClipboard(saved);
        } catch (HelperException e) {
            restored = "not-restored\t" + e.getMessage();
        }
        if (failure != null) throw failure;
        return restored;
    }
}
