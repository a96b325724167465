package arc.helper;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Turns finger paths into the motion events Android expects for them: the first finger's ACTION_DOWN, each later
 * finger's ACTION_POINTER_DOWN, ACTION_MOVE with every finger down at each moment any of them has a point, each
 * finger's ACTION_POINTER_UP but the last, whose lift is ACTION_UP. A finger without a point at a moment sits at
 * the place its path has then (linear between its points).
 *
 * <p>A path is written {@code x,y,t;x,y,t;...}: pixels and milliseconds from the gesture's start, at least two
 * points, times increasing.
 */
public final class Gesture {
    public static final int ACTION_DOWN = 0;
    public static final int ACTION_UP = 1;
    public static final int ACTION_MOVE = 2;
    public static final int ACTION_CANCEL = 3;
    public static final int ACTION_POINTER_DOWN = 5;
    public static final int ACTION_POINTER_UP = 6;
    /** Android's MotionEvent.ACTION_POINTER_INDEX_SHIFT. */
    public static final int POINTER_INDEX_SHIFT = 8;
    /** Ten fingers: what Android's input pipeline carries (MAX_POINTERS is 16, phones track 10). */
    public static final int MAX_FINGERS = 10;
    /** A gesture longer than a minute is a mistake, not a gesture. */
    public static final long MAX_DURATION_MS = 60000;
    /**
     * The gap between a double tap's first lift and its second touch: inside the window Android's GestureDetector
     * takes for a double tap (ViewConfiguration: more than DOUBLE_TAP_MIN_TIME, 40 ms, and at most
     * DOUBLE_TAP_TIMEOUT, 300 ms); two taps injected back to back would be two single taps.
     */
    public static final long DOUBLE_TAP_GAP_MS = 100;
    /** How often a one-finger swipe reports where the finger is (a 60 Hz touchscreen's frame). */
    public static final long SWIPE_FRAME_MS = 16;

    /** One motion event: when, what, and every finger down in it (pointer ids and places). */
    public static final class Step {
        public final long time;
        /** The action with the pointer index in its high byte, as MotionEvent.getAction() returns it. */
        public final int action;
        public final int[] ids;
        public final float[] xs;
        public final float[] ys;

        Step(long time, int action, int[] ids, float[] xs, float[] ys) {
            this.time = time;
            this.action = action;
            this.ids = ids;
            this.xs = xs;
            this.ys = ys;
        }

        public int maskedAction() {
            return action & 0xff;
        }

        public int actionIndex() {
            return action >> POINTER_INDEX_SHIFT;
        }
    }

    private Gesture() {}

    /** Parses one path word; HelperException BAD_REQUEST naming the path and what is wrong. */
    public static long[][] parsePath(String word, int index) throws HelperException {
        String[] points = word.split(";", -1);
        if (points.length < 2) throw bad("path " + index + " has " + points.length + " point(s); a path needs at least 2 (x,y,t;x,y,t)");
        long[][] out = new long[points.length][];
        for (int i = 0; i < points.length; i++) {
            String[] parts = points[i].split(",", -1);
            if (parts.length != 3) throw bad("path " + index + " point " + i + " is \"" + points[i] + "\"; a point is x,y,t");
            long[] p = new long[3];
            for (int k = 0; k < 3; k++) {
                p[k] = Numbers.parse(parts[k], "path " + index + " point " + i + (k == 0 ? " x" : k == 1 ? " y" : " time"), 0, k == 2 ? MAX_DURATION_MS : 100000);
            }
            if (i > 0 && p[2] <= out[i - 1][2]) throw bad("path " + index + " point " + i + " time " + p[2] + " is not after " + out[i - 1][2] + "; times must increase");
            out[i] = p;
        }
        return out;
    }

    /** The motion events for the paths, in time order. */
    public static List<Step> plan(List<long[][]> paths) throws HelperException {
        if (paths.isEmpty()) throw bad("a gesture needs at least one path");
        if (paths.size() > MAX_FINGERS) throw bad("a gesture has " + paths.size() + " paths; at most " + MAX_FINGERS + " fingers");
        TreeSet<Long> times = new TreeSet<Long>();
        for (long[][] path : paths) for (long[] p : path) times.add(p[2]);
        List<Step> steps = new ArrayList<Step>();
        List<Integer> down = new ArrayList<Integer>();
        for (long t : times) {
            boolean moved = false;
            for (int f = 0; f < paths.size(); f++) {
                long[][] path = paths.get(f);
                if (path[0][2] == t) {
                    down.add(f);
                    int action = down.size() == 1 ? ACTION_DOWN : ACTION_POINTER_DOWN | ((down.size() - 1) << POINTER_INDEX_SHIFT);
                    steps.add(snapshot(t, action, down, paths));
                } else if (down.contains(f) && hasPoint(path, t)) {
                    moved = true;
                }
            }
            if (moved) steps.add(snapshot(t, ACTION_MOVE, down, paths));
            for (int f = 0; f < paths.size(); f++) {
                long[][] path = paths.get(f);
                if (path[path.length - 1][2] != t) continue;
                int at = down.indexOf(f);
                int action = down.size() == 1 ? ACTION_UP : ACTION_POINTER_UP | (at << POINTER_INDEX_SHIFT);
                steps.add(snapshot(t, action, down, paths));
                down.remove(at);
            }
        }
        return steps;
    }

    /** A tap as {@code input tap} sends it: ACTION_DOWN then ACTION_UP at one place, at one moment ({@code at}). */
    public static List<Step> tap(float x, float y, long at) {
        List<Step> steps = new ArrayList<Step>();
        steps.add(one(at, ACTION_DOWN, x, y));
        steps.add(one(at, ACTION_UP, x, y));
        return steps;
    }

    /** Two taps at one place, the second DOUBLE_TAP_GAP_MS after the first. */
    public static List<Step> doubleTap(float x, float y) {
        List<Step> steps = tap(x, y, 0);
        steps.addAll(tap(x, y, DOUBLE_TAP_GAP_MS));
        return steps;
    }

    /**
     * One finger from (x1, y1) to (x2, y2) over {@code ms} milliseconds, as {@code input swipe} moves it: down at the
     * start, a move every SWIPE_FRAME_MS on the straight line between, lifted at the end; the same place twice is a
     * long press held that long.
     */
    public static List<Step> swipe(float x1, float y1, float x2, float y2, long ms) {
        List<Step> steps = new ArrayList<Step>();
        steps.add(one(0, ACTION_DOWN, x1, y1));
        for (long t = SWIPE_FRAME_MS; t < ms; t += SWIPE_FRAME_MS) {
            float k = (float) t / (float) ms;
            steps.add(one(t, ACTION_MOVE, x1 + (x2 - x1) * k, y1 + (y2 - y1) * k));
        }
        if (ms > 0) steps.add(one(ms, ACTION_MOVE, x2, y2));
        steps.add(one(ms, ACTION_UP, x2, y2));
        return steps;
    }

    private static Step one(long t, int action, float x, float y) {
        return new Step(t, action, new int[] {0}, new float[] {x}, new float[] {y});
    }

    /**
     * ACTION_CANCEL for the fingers still down once {@code last} went out: what ends a touch cut off midway, so no
     * finger stays down; null where none is (after ACTION_UP or ACTION_CANCEL). An ACTION_POINTER_UP event still
     * lists the finger it lifts (MotionEvent: the pointer at getActionIndex() is the one going up), so that finger is
     * left out: the input dispatcher takes ACTION_CANCEL only for the pointers down (AOSP frameworks/native
     * libs/input/rust/input_verifier.rs, ensure_touching_pointers_match; InputDispatcher::injectInputEvent checks every
     * injected stream with it from Android 15 and logs an "Inconsistent event" otherwise).
     */
    public static Step cancelAfter(Step last) {
        int masked = last.maskedAction();
        if (masked == ACTION_UP || masked == ACTION_CANCEL) return null;
        if (masked != ACTION_POINTER_UP) return new Step(last.time, ACTION_CANCEL, last.ids, last.xs, last.ys);
        int lifted = last.actionIndex();
        int n = last.ids.length - 1;
        int[] ids = new int[n];
        float[] xs = new float[n];
        float[] ys = new float[n];
        for (int i = 0, k = 0; i < last.ids.length; i++) {
            if (i == lifted) continue;
            ids[k] = last.ids[i];
            xs[k] = last.xs[i];
            ys[k] = last.ys[i];
            k++;
        }
        return new Step(last.time, ACTION_CANCEL, ids, xs, ys);
    }

    private static boolean hasPoint(long[][] path, long t) {
        for (long[] p : path) if (p[2] == t) return true;
        return false;
    }

    private static Step snapshot(long t, int action, List<Integer> down, List<long[][]> paths) {
        int n = down.size();
        int[] ids = new int[n];
        float[] xs = new float[n];
        float[] ys = new float[n];
        for (int i = 0; i < n; i++) {
            int f = down.get(i);
            ids[i] = f;
            float[] at = position(paths.get(f), t);
            xs[i] = at[0];
            ys[i] = at[1];
        }
        return new Step(t, action, ids, xs, ys);
    }

    /** Where a path is at time t: its point then, else linear between the points around t (clamped to its ends). */
    static float[] position(long[][] path, long t) {
        if (t <= path[0][2]) return new float[] {path[0][0], path[0][1]};
        for (int i = 1; i < path.length; i++) {
            long[] a = path[i - 1];
            long[] b = path[i];
            if (t <= b[2]) {
                float k = (float) (t - a[2]) / (float) (b[2] - a[2]);
                return new float[] {a[0] + (b[0] - a[0]) * k, a[1] + (b[1] - a[1]) * k};
            }
        }
        long[] last = path[path.length - 1];
        return new float[] {last[0], last[1]};
    }

    private static HelperException bad(String message) {
        return new HelperException(HelperException.BAD_REQUEST, message);
    }
}
