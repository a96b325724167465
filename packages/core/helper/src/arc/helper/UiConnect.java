package arc.helper;

/**
 * Connects UiAutomation so that no way out of the connection leaves it registered with the accessibility manager,
 * which serves one UiAutomation client device-wide: a registration this process no longer holds would lock out every
 * other tool (uiautomator dump, Appium, uiautomator2) and every later connect of this helper ("already registered")
 * for as long as the helper runs, which in a resident host is the host's life.
 *
 * <p>AOSP facts (frameworks/base core/java/android/app): UiAutomationConnection.connect registers the service with
 * the accessibility manager first, and only then does UiAutomation wait for it to come up. When that wait runs out,
 * UiAutomation throws (Android 5-10: RuntimeException "Error while connecting UiAutomation"; 11+: TimeoutException
 * from connectWithTimeout) with the service still registered, and nothing unregisters it until the process dies
 * (the registration is linked to the death of the connection's token). So on any failure after the attempt began,
 * {@link Steps#undo} runs: it unregisters whatever the attempt registered.
 */
final class UiConnect {
    private UiConnect() {}

    /** The three steps of a connection, each Android-side. */
    interface Steps {
        /** Registers and waits for the service (connect, connect(flags) or connectWithTimeout by release). */
        void connect() throws Exception;

        /** Sets what the service reports (every window, all views, view ids) once connected. */
        void configure() throws Exception;

        /** Unregisters whatever {@link #connect} registered; never throws (nothing registered is not a failure). */
        void undo();
    }

    /**
     * Runs the steps; on any failure undoes the connection and throws: UIAUTOMATION_BUSY where another client holds
     * UiAutomation or the service did not come up in time, UNSUPPORTED where the release takes other arguments or
     * hides the method, else FAILED.
     */
    static void connect(Steps steps) throws HelperException {
        boolean connected = false;
        try {
            steps.connect();
            steps.configure();
            connected = true;
        } catch (HelperException e) {
            throw classify(e);
        } catch (Exception e) {
            throw classify(new HelperException(HelperException.FAILED, "UiAutomation did not connect: " + e, e));
        } finally {
            if (!connected) steps.undo();
        }
    }

    /**
     * Another client registered (AOSP AccessibilityManagerService / UiAutomationManager, every release 5-16:
     * IllegalStateException "UiAutomationService ... already registered!"), or the service did not come up in time
     * (TimeoutException on 11+, "Error while connecting UiAutomation" before): UIAUTOMATION_BUSY, which the host
     * answers with its uiautomator fallback.
     */
    static HelperException classify(HelperException e) {
        if (!e.code().equals(HelperException.FAILED)) return e;
        String why = e.getMessage() + " " + e.getCause();
        if (why.contains("already registered") || why.contains("TimeoutException") || why.contains("Error while connecting")) {
            return new HelperException(HelperException.UIAUTOMATION_BUSY,
                    "another tool holds UiAutomation (uiautomator dump, Appium, uiautomator2, Maestro, monkey), or it did not connect in time: " + e.getCause(), e);
        }
        return e;
    }
}
