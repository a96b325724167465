package arc.helper;

import java.util.List;

/**
 * What the helper asks of Android: the one seam between the protocol (tested on the JVM) and the platform's hidden
 * APIs (AndroidDevice, reached by reflection). Each method throws HelperException with a code the host maps to a
 * fallback: UNSUPPORTED where this release lacks the API, UIAUTOMATION_BUSY where another tool holds UiAutomation.
 */
public interface Device {
    /** The {@code <displays>} document of every window on every display the release reports. */
    String dumpWindows() throws HelperException;

    /**
     * An image of display 0 in its current rotation, scaled to fit maxWidth x maxHeight (0: no limit), never up: a
     * PNG where {@code png}, else a JPEG of that quality.
     */
    byte[] screenshot(int maxWidth, int maxHeight, int quality, boolean png) throws HelperException;

    /**
     * Performs the focused text field's editor action (the keyboard's action key: search, send, go, done) as an
     * accessibility service does (AccessibilityAction.ACTION_IME_ENTER, Android 11+); FAILED where no field has
     * input focus or the field refuses it, UNSUPPORTED before Android 11.
     */
    void imeAction() throws HelperException;

    /** The clipboard's first item as text; null when the clipboard is empty. */
    String clipboardText() throws HelperException;

    /** Puts plain text on the clipboard. */
    void setClipboardText(String text) throws HelperException;

    /** The clipboard as it is (any content, not only text), to be put back with restoreClipboard; null when empty. */
    Object saveClipboard() throws HelperException;

    /** Puts back what saveClipboard returned (clears the clipboard for null, where the release can). */
    void restoreClipboard(Object saved) throws HelperException;

    /**
     * Injects one key event (KeyEvent.ACTION_DOWN or ACTION_UP of a virtual keyboard, stamped {@code downTime},
     * {@code eventTime}, with the modifier state {@code metaState}: KeyEvent's META_* bits, 0 for none): queued for dispatch, or with {@code waitForFinish} returning once the focused window
     * finished handling it. FAILED where the input manager answers that it did not (refused, or not finished in
     * its time); Keys.press pairs the two.
     */
    void injectKey(int action, int keyCode, int metaState, long downTime, long eventTime, boolean waitForFinish) throws HelperException;

    /**
     * Injects one motion event of a touch (stamped {@code downTime}, {@code eventTime}): queued for dispatch, or with
     * {@code waitForFinish} returning once the window under it finished handling it, as {@code input} injects. A
     * touch no window took (none there, or it did not answer in time) is not a failure there, as {@code input tap}
     * exits 0 for it.
     */
    void inject(Gesture.Step step, long downTime, long eventTime, boolean waitForFinish) throws HelperException;

    /**
     * Whether the device is interactive (awake) now: IPowerManager.isInteractive, the state the input dispatcher
     * reads before it passes an injected touch to any window. UNSUPPORTED where the release hides it.
     */
    boolean interactive() throws HelperException;

    /**
     * Whether a screensaver (a dream) shows now: IDreamManager.isDreaming. The device is interactive then (the power
     * manager's wakefulness is DREAMING, and isInteractive is true for it), yet a touch goes to the dream's window,
     * which ends the dream and keeps the touch (AOSP DreamService.dispatchTouchEvent), so the app gets nothing. False
     * where the release has no dream manager; UNSUPPORTED where it refuses the question to the shell.
     */
    boolean dreaming() throws HelperException;

    /**
     * When (uptimeMillis) the helper's UiAutomation last received an accessibility event, Settle.NONE before any. It
     * connects UiAutomation first where none is held: a UiAutomation receives only the events sent while it is
     * connected (UiAutomation.setOnAccessibilityEventListener).
     */
    long lastEvent() throws HelperException;

    /** Milliseconds on the clock input events are stamped with (SystemClock.uptimeMillis on Android). */
    long uptimeMillis();

    /** Sleeps until the clock reads {@code time}. */
    void sleepUntil(long time) throws InterruptedException;

    /** Lets go of UiAutomation (so other tools can connect); the next read connects again. */
    void release();

    /** Whether UiAutomation is held now. */
    boolean holdsUiAutomation();

    /** The Android API level. */
    int sdk();

    /** Names of what is missing on this release, for the hello line (empty when everything resolved). */
    List<String> missing();
}
