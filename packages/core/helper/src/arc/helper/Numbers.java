package arc.helper;

/** Whole numbers in requests: decimal digits only, within a range, else BAD_REQUEST naming the field. */
public final class Numbers {
    private Numbers() {}

    public static long parse(String text, String what, long min, long max) throws HelperException {
        if (text.isEmpty() || text.length() > 12) throw bad(what, text, min, max);
        int i = text.charAt(0) == '-' ? 1 : 0;
        if (i == text.length()) throw bad(what, text, min, max);
        for (int k = i; k < text.length(); k++) {
            char c = text.charAt(k);
            if (c < '0' || c > '9') throw bad(what, text, min, max);
        }
        long value = Long.parseLong(text);
        if (value < min || value > max) throw bad(what, text, min, max);
        return value;
    }

    public static int parseInt(String text, String what, int min, int max) throws HelperException {
        return (int) parse(text, what, min, max);
    }

    private static HelperException bad(String what, String text, long min, long max) {
        return new HelperException(HelperException.BAD_REQUEST, what + " is \"" + text + "\"; a whole number from " + min + " to " + max + " is allowed");
    }
}
