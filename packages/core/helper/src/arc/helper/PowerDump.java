package arc.helper;

/**
 * Reads {@code dumpsys power}, the shell's other way to know whether a screensaver shows where the release refuses
 * IDreamManager.isDreaming to it. AOSP's DreamManagerService checks READ_DREAM_STATE in isDreaming on every release,
 * and the shell's manifest (frameworks/base packages/Shell/AndroidManifest.xml) does not ask for it on Android 10
 * and before (it does on 15, under "Permissions required to test ambient display"): there the helper could not
 * check for a dream at all and refused every touch, so a gesture of several fingers had no way left on Android 10,
 * where SELinux closes /dev/input to the shell. PowerManagerService's dump has written {@code mWakefulness=} with
 * Awake, Asleep, Dreaming or Dozing since Android 4.2; the host's {@code input} gate reads the same line.
 */
public final class PowerDump {
    private static final String KEY = "mWakefulness=";

    private PowerDump() {}

    /** The first {@code mWakefulness=WORD}'s word, or null where the dump has no such line. */
    public static String wakefulness(String dump) {
        int at = dump.indexOf(KEY);
        if (at < 0) return null;
        int from = at + KEY.length();
        int to = from;
        while (to < dump.length() && (Character.isLetterOrDigit(dump.charAt(to)) || dump.charAt(to) == '_')) to++;
        return to > from ? dump.substring(from, to) : null;
    }

    /**
     * Whether the dump says a dream shows (mWakefulness=Dreaming); HelperException UNSUPPORTED where it does not say
     * (no such line), so nothing is injected and the host's own gate decides.
     */
    public static boolean dreaming(String dump) throws HelperException {
        String wakefulness = wakefulness(dump);
        if (wakefulness == null)
            throw new HelperException(HelperException.UNSUPPORTED, "whether a screensaver shows is not known: IDreamManager.isDreaming is refused to the shell and dumpsys power has no mWakefulness line, so nothing was injected");
        return wakefulness.equals("Dreaming");
    }
}
