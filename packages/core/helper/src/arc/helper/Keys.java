package arc.helper;

/**
 * A key pressed and released, the release sent on every path once the press was tried. The input manager's answer
 * for a key-down says little of where it went: waiting, it answers false when the focused window did not finish the
 * event within the injection's time (AOSP InputManagerService: INJECTION_TIMEOUT_MILLIS, 30 s), the event delivered
 * all the same; the window then holds the key down (the dispatcher's InputState keeps it as a key memento until a
 * focus change cancels it), and a modifier or volume key stays pressed. {@code input keyevent} likewise sends its
 * key-up whatever its key-down's injection answered (AOSP InputShellCommand.sendKeyEvent ignores the result); a
 * release whose press never arrived is passed on by the dispatcher as it is (InputState::trackKey lets an
 * inconsistent key-up through).
 *
 * <p>The press is queued without waiting, the release right behind it waits for the window, so the window has
 * handled both when this returns (one window's events are handled in order) and nothing lies between the two: a
 * host that gives up on the request (its limit is below the input manager's 30 s) or a helper ended meanwhile
 * cannot leave the key down.
 */
public final class Keys {
    /** KeyEvent.ACTION_DOWN and ACTION_UP. */
    public static final int ACTION_DOWN = 0;
    public static final int ACTION_UP = 1;

    private Keys() {}

    /** Presses and releases {@code keyCode} with no modifier. */
    public static void press(Device device, int keyCode) throws HelperException {
        press(device, keyCode, 0);
    }

    /**
     * Presses and releases {@code keyCode}, both events carrying {@code metaState} (KeyEvent's META_* bits: ALT+DPAD_DOWN
     * is a DPAD_DOWN whose state says ALT is held, as a keyboard's dispatcher stamps it), with no event for the modifier
     * key itself: nothing is left held, and a field's sticky modifier state (MetaKeyKeyListener, which a lone ALT press
     * and release would set for the next key) is not touched. The press's failure is the one reported (UNSUPPORTED where nothing could
     * be injected, so the host may use another way); a release failing after a press that went out is FAILED
     * whatever its code, since the key acted.
     */
    public static void press(Device device, int keyCode, int metaState) throws HelperException {
        long down = device.uptimeMillis();
        HelperException failure = null;
        try {
            device.injectKey(ACTION_DOWN, keyCode, metaState, down, down, false);
        } catch (HelperException e) {
            failure = e;
        } catch (RuntimeException e) {
            failure = new HelperException(HelperException.FAILED, e.toString(), e);
        }
        try {
            device.injectKey(ACTION_UP, keyCode, metaState, down, device.uptimeMillis(), true);
        } catch (HelperException e) {
            if (failure == null)
                failure = e.code().equals(HelperException.FAILED) ? e : new HelperException(HelperException.FAILED, "the key went down, then its release failed (" + e.code() + "): " + e.getMessage(), e);
        } catch (RuntimeException e) {
            if (failure == null) failure = new HelperException(HelperException.FAILED, "the key went down, then its release failed: " + e, e);
        }
        if (failure != null) throw failure;
    }
}
