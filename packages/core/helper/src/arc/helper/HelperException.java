package arc.helper;

/**
 * A failure the helper reports to the host as an error frame: a stable code the host maps to a fallback or an
 * error of its own, and a message for people.
 */
public final class HelperException extends Exception {
    /** The request was malformed: unknown operation, wrong argument count, a number out of range. */
    public static final String BAD_REQUEST = "BAD_REQUEST";
    /** Another process holds the UiAutomation service (uiautomator dump, Appium, uiautomator2, Maestro). */
    public static final String UIAUTOMATION_BUSY = "UIAUTOMATION_BUSY";
    /** A hidden or newer API this release lacks, or refuses to the shell user. */
    public static final String UNSUPPORTED = "UNSUPPORTED";
    /**
     * A touch was refused before anything was injected: the display is not interactive (asleep, dozing), where the
     * input dispatcher passes an injected touch to no window.
     */
    public static final String DISPLAY_OFF = "DISPLAY_OFF";
    /** The device answered, but not with what was asked (no root node, an empty screenshot). */
    public static final String FAILED = "FAILED";

    private final String code;

    public HelperException(String code, String message) {
        super(message);
        this.code = code;
    }

    public HelperException(String code, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
    }

    public String code() {
        return code;
    }
}
