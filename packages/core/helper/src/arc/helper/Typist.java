package arc.helper;

/**
 * Types any text (any script, emoji) into the focused field without switching the keyboard: the text goes on the
 * clipboard, KEYCODE_PASTE pastes it, and whatever the user had on the clipboard is put back, also when the paste
 * fails.
 */
public final class Typist {
    public static final int KEYCODE_PASTE = 279;

    private Typist() {}

    /** Returns "restored", or "not-restored TAB reason" when the user's clipboard could not be put back. */
    public static String type(Device device, String text) throws HelperException {
        if (text.isEmpty()) throw new HelperException(HelperException.BAD_REQUEST, "the text to type is empty");
        Object saved = device.saveClipboard();
        HelperException failure = null;
        try {
            device.setClipboardText(text);
            device.pressKey(KEYCODE_PASTE);
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
