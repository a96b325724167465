package arc.helper;

/**
 * The wait before a read that follows an action: on a phone the screen a tap starts (an activity, a dialog) reaches
 * the accessibility tree only some hundreds of ms later (the click runs after ACTION_UP, then the activity starts and
 * its window animates in), so a read at once returns the old screen and an id read off it names an element that is
 * about to go. {@code uiautomator dump} waits for quiet (AOSP DumpCommand: UiAutomation.waitForIdle(1000, 10000));
 * the helper waits too, but only after an action, so a read of a screen nobody touched lately stays as cheap as
 * before, animated or not.
 *
 * <p>Quiet is QUIET_MS with no accessibility event, counted from the later of the last event the helper's
 * UiAutomation saw and the last input: the helper's own, or the host's action it reports ({@code dump SINCE_MS}).
 * Counting from the input matters: a read 1 ms after a tap comes before the app sent any event, and a UiAutomation
 * connected for this read (the helper lets go after each read) saw none of the events before it connected. 500 ms is
 * uiautomator's own quiet time after an action (UiAutomatorBridge.QUIET_TIME_TO_BE_CONSIDERD_IDLE_STATE). The wait
 * ends after BOUND_MS at most, counted from the read's start: a video or a spinner never goes quiet, and the read then
 * goes ahead and says so ({@code unsettled}) instead of failing as {@code uiautomator dump} does after its 10 s
 * (UiAutomatorBridge.TOTAL_TIME_TO_WAIT_FOR_IDLE_STATE). 3 s covers an activity start and its animation many times
 * (config_activityDefaultDur is 220 ms) while an animated screen right after an action costs 3 s, not 10. An input
 * older than BOUND_MS has had that long to settle: no wait.
 */
final class Settle {
    static final long QUIET_MS = 500;
    static final long BOUND_MS = 3000;
    /** No input known. */
    static final long NONE = Long.MIN_VALUE;

    /** How a read's wait ended: quiet came (or none was needed), or the bound passed first; and how long it took. */
    static final class Result {
        final boolean settled;
        final long waitedMs;

        Result(boolean settled, long waitedMs) {
            this.settled = settled;
            this.waitedMs = waitedMs;
        }

        /** The head line of a {@code dump} reply: {@code settled} or {@code unsettled}, a tab, the ms waited. */
        String head() {
            return (settled ? "settled" : "unsettled") + "\t" + waitedMs + "\n";
        }
    }

    private Settle() {}

    /**
     * Waits until QUIET_MS passed since the later of {@code lastInput} and the device's last accessibility event, at
     * most BOUND_MS from now; at once where {@code lastInput} is NONE or BOUND_MS old. An interrupt ends the wait as
     * the bound does.
     */
    static Result await(Device device, long lastInput) throws HelperException {
        long start = device.uptimeMillis();
        if (lastInput == NONE || start - lastInput >= BOUND_MS) return new Result(true, 0);
        long deadline = start + BOUND_MS;
        for (;;) {
            long last = Math.max(lastInput, device.lastEvent());
            long now = device.uptimeMillis();
            if (now - last >= QUIET_MS) return new Result(true, now - start);
            if (now >= deadline) return new Result(false, now - start);
            try {
                device.sleepUntil(Math.min(last + QUIET_MS, deadline));
            } catch (InterruptedException e) {
                return new Result(false, device.uptimeMillis() - start);
            }
        }
    }
}
