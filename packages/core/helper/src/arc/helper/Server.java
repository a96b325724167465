package arc.helper;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The request loop: reads framed requests, runs them one at a time on the device, writes one response for each, and
 * lets go of UiAutomation once no request came for the idle time, so other tools (uiautomator dump, Appium,
 * uiautomator2) can connect between arc's reads.
 *
 * <p>Operations: {@code ping}; {@code dump [SINCE_MS]} (every window, once the screen settled after the last input:
 * Settle; SINCE_MS: how long ago the host's last action on the device ended; payload: {@code settled} or
 * {@code unsettled}, a tab, the ms waited, a newline, then the {@code <displays>} document); {@code screenshot MAXW MAXH QUALITY [png|jpeg]} (default jpeg);
 * {@code ime-action} (the focused field's editor action); {@code clipboard-get} (payload: 0
 * empty, 1 then the text, 2 content that is not text); {@code clipboard-set TEXT}; {@code type TEXT} (payload:
 * {@code restored}, or {@code not-restored TAB reason}); {@code key CODE}; {@code gesture PATH...}; {@code tap X Y};
 * {@code double-tap X Y}; {@code swipe X1 Y1 X2 Y2 MS} (a long press: the same point twice); {@code release};
 * {@code quit}. Every touch (tap, double-tap, swipe, gesture) is checked first, then refused with DISPLAY_OFF
 * while the device is not interactive or a screensaver shows, before anything is injected.
 *
 * <p>The host going away (its stream closed: Ctrl-C, a time limit, arc exiting, the adb connection lost) is seen on a
 * thread of its own, which reads the requests: once the input ends, the touch in progress is cut short and its
 * fingers lifted with ACTION_CANCEL (play), no request waiting behind it runs, and the helper ends. From Android 7.0
 * adbd runs {@code exec:} on a PTY in raw mode, whose hangup sends SIGHUP; arc's start command ignores SIGHUP
 * ({@code trap '' HUP}), so the helper lives to see its input end (docs/devices.md, "When the host goes away").
 */
public final class Server {
    public static final String HELLO = "arc-helper 1";
    /**
     * How long the request in progress has, once the input ended, to finish (a touch's ACTION_CANCEL, a paste putting
     * the user's clipboard back) before the helper ends anyway: a request stuck in a hidden API must not keep the
     * process, and the UiAutomation connection it may hold, alive with no host.
     */
    public static final long HANGUP_GRACE_MS = 3000;
    /**
     * The grace of a request that changes nothing on the device (a read, a screenshot, the clipboard's read): once the
     * input ended there is nothing of it to finish, so a stuck one ends the helper at once, as SIGHUP did, and its
     * UiAutomation connection with it (a new helper's read would find UiAutomation taken meanwhile).
     */
    public static final long READ_GRACE_MS = 200;
    /** Put on the queue when the input ended cleanly. */
    private static final Object END = new Object();

    private final Device device;
    private final DataInputStream in;
    private final OutputStream out;
    private final long idleMs;
    private final Object lock = new Object();
    private long lastRequest;
    private volatile boolean done;
    /** What the input thread read: requests, then END or the IOException that broke the stream. */
    private final LinkedBlockingQueue<Object> incoming = new LinkedBlockingQueue<Object>();
    /** Guards hostGone and touching, so the input thread interrupts the loop's thread only inside play(). */
    private final Object touchLock = new Object();
    private volatile boolean hostGone;
    private boolean touching;
    private Thread loop;
    private long graceMs = HANGUP_GRACE_MS;
    private Runnable stuck;
    /** When (uptimeMillis) this helper's last input ended (a touch, a key, a paste, an editor action): Settle. */
    private long lastInput = Settle.NONE;
    /** The operation of the request in progress, set before the loop looks at hostGone; null between requests. */
    private volatile String current;

    public Server(Device device, DataInputStream in, OutputStream out, long idleMs) {
        this.device = device;
        this.in = in;
        this.out = out;
        this.idleMs = idleMs;
    }

    /** The hello the helper writes first: the protocol, the API level, and what this release lacks. */
    public byte[] hello() {
        StringBuilder s = new StringBuilder(HELLO).append('\t').append(device.sdk()).append('\t');
        List<String> missing = device.missing();
        for (int i = 0; i < missing.size(); i++) s.append(i == 0 ? "" : ",").append(missing.get(i));
        return Frames.utf8(s.toString());
    }

    /**
     * Once the input ended, {@code stuck} runs if the request in progress has not finished within {@code graceMs} (a
     * request that acts) or READ_GRACE_MS (one that changes nothing, or none): Main halts the process. Without it (the
     * JVM tests) the loop is only waited for.
     */
    public void exitIfStuck(long graceMs, Runnable stuck) {
        this.graceMs = graceMs;
        this.stuck = stuck;
    }

    /**
     * Serves until the host closes stdin or sends quit. A broken frame ends the loop (the stream cannot be trusted).
     * Once the input ended, cleanly or not, no request still queued runs: the host that sent it is gone and would
     * never read its answer.
     */
    public void run() throws IOException {
        loop = Thread.currentThread();
        synchronized (lock) {
            Frames.writeResponse(out, 0, Frames.STATUS_HELLO, hello());
            lastRequest = device.uptimeMillis();
        }
        Thread idle = new Thread(new Runnable() {
            public void run() {
                idleLoop();
            }
        }, "arc-helper-idle");
        idle.setDaemon(true);
        idle.start();
        Thread input = new Thread(new Runnable() {
            public void run() {
                readLoop();
            }
        }, "arc-helper-input");
        input.setDaemon(true);
        input.start();
        try {
            for (;;) {
                Object next = take();
                if (next == END) break;
                if (next instanceof IOException) throw (IOException) next;
                Frames.Request request = (Frames.Request) next;
                // Named before hostGone is read: the input thread sets hostGone, then reads this (both volatile), so
                // either this request does not run or its grace is the one the input thread gives.
                current = request.op();
                if (hostGone) break;
                synchronized (lock) {
                    respond(request);
                    lastRequest = device.uptimeMillis();
                }
                current = null;
                if (request.op().equals("quit")) break;
            }
        } finally {
            done = true;
            synchronized (lock) {
                device.release();
            }
        }
    }

    /** The next thing the input thread read; an interrupt (only ever sent inside play) is not one. */
    private Object take() {
        for (;;) {
            try {
                return incoming.take();
            } catch (InterruptedException e) {
                // not for this wait
            }
        }
    }

    /**
     * Reads requests until the input ends: a clean end (EOF: the host closed the stream, or a hung-up PTY's read), or
     * an IOException (EIO from a PTY whose master closed, a frame cut short, a broken frame).
     */
    private void readLoop() {
        Object end;
        try {
            for (;;) {
                Frames.Request request = Frames.readRequest(in);
                if (request == null) {
                    end = END;
                    break;
                }
                incoming.add(request);
            }
        } catch (IOException e) {
            end = e;
        } catch (RuntimeException e) {
            end = new IOException("reading the requests failed: " + e, e);
        }
        synchronized (touchLock) {
            hostGone = true;
            if (touching) loop.interrupt();
        }
        incoming.add(end);
        if (stuck != null) {
            String op = current;
            try {
                loop.join(op == null || changesNothing(op) ? READ_GRACE_MS : graceMs);
            } catch (InterruptedException e) {
                // end anyway
            }
            if (loop.isAlive()) stuck.run();
        }
    }

    /** Operations after which nothing on the device is left to finish or put back. */
    static boolean changesNothing(String op) {
        return op.equals("ping") || op.equals("dump") || op.equals("screenshot") || op.equals("clipboard-get") || op.equals("release") || op.equals("quit");
    }

    private void idleLoop() {
        while (!done) {
            try {
                Thread.sleep(Math.max(20, Math.min(idleMs, 200)));
            } catch (InterruptedException e) {
                return;
            }
            synchronized (lock) {
                if (!done && device.holdsUiAutomation() && device.uptimeMillis() - lastRequest >= idleMs) device.release();
            }
        }
    }

    /** Runs one request and writes its response (never throws for a failed request, only for a broken stdout). */
    void respond(Frames.Request request) throws IOException {
        byte[] payload;
        int status = Frames.STATUS_OK;
        try {
            payload = handle(request.op(), request.args());
        } catch (HelperException e) {
            status = Frames.STATUS_ERROR;
            payload = Frames.errorPayload(e.code(), e.getMessage());
        } catch (RuntimeException e) {
            status = Frames.STATUS_ERROR;
            payload = Frames.errorPayload(HelperException.FAILED, e.toString());
        }
        Frames.writeResponse(out, request.id, status, payload);
        if (idleMs == 0 && device.holdsUiAutomation()) device.release();
    }

    byte[] handle(String op, List<String> args) throws HelperException {
        if (!acts(op)) return handle1(op, args);
        try {
            return handle1(op, args);
        } finally {
            // Refused or not, it may have reached the app: the next read waits for the screen it changes (Settle).
            lastInput = device.uptimeMillis();
        }
    }

    /** Operations that send input to the app in front, whose screen may change after the answer. */
    static boolean acts(String op) {
        return op.equals("tap") || op.equals("double-tap") || op.equals("swipe") || op.equals("gesture") || op.equals("key") || op.equals("type") || op.equals("ime-action");
    }

    private byte[] handle1(String op, List<String> args) throws HelperException {
        if (op.equals("ping")) {
            count(op, args, 0);
            return Frames.utf8("pong");
        }
        if (op.equals("dump")) {
            if (args.size() > 1) throw new HelperException(HelperException.BAD_REQUEST, "dump takes 0 or 1 argument(s), got " + args.size());
            long input = lastInput;
            if (args.size() == 1) {
                long since = Numbers.parse(args.get(0), "dump since", 0, 600000);
                input = Math.max(input, device.uptimeMillis() - since);
            }
            Settle.Result settled = Settle.await(device, input);
            return Frames.utf8(settled.head() + device.dumpWindows());
        }
        if (op.equals("screenshot")) {
            if (args.size() != 3 && args.size() != 4)
                throw new HelperException(HelperException.BAD_REQUEST, "screenshot takes 3 or 4 argument(s), got " + args.size());
            int w = Numbers.parseInt(args.get(0), "screenshot max width", 0, 100000);
            int h = Numbers.parseInt(args.get(1), "screenshot max height", 0, 100000);
            int q = Numbers.parseInt(args.get(2), "screenshot quality", 1, 100);
            String format = args.size() == 4 ? args.get(3) : "jpeg";
            if (!format.equals("png") && !format.equals("jpeg"))
                throw new HelperException(HelperException.BAD_REQUEST, "screenshot format is \"" + format + "\"; png or jpeg is allowed");
            return device.screenshot(w, h, q, format.equals("png"));
        }
        if (op.equals("ime-action")) {
            count(op, args, 0);
            device.imeAction();
            return new byte[0];
        }
        if (op.equals("clipboard-get")) {
            count(op, args, 0);
            Object saved = device.saveClipboard();
            if (saved == null) return new byte[] {0};
            String text = device.clipboardText();
            if (text == null) return new byte[] {2};
            byte[] bytes = Frames.utf8(text);
            byte[] payload = new byte[bytes.length + 1];
            payload[0] = 1;
            System.arraycopy(bytes, 0, payload, 1, bytes.length);
            return payload;
        }
        if (op.equals("clipboard-set")) {
            count(op, args, 1);
            device.setClipboardText(args.get(0));
            return new byte[0];
        }
        if (op.equals("type")) {
            count(op, args, 1);
            return Frames.utf8(Typist.type(device, args.get(0)));
        }
        if (op.equals("key")) {
            // `key CODE` or `key CODE META`: META is the modifier state both events carry (KeyEvent META_* bits).
            if (args.size() != 1 && args.size() != 2)
                throw new HelperException(HelperException.BAD_REQUEST, op + " takes 1 or 2 arguments (key code, meta state), got " + args.size());
            int meta = args.size() == 2 ? Numbers.parseInt(args.get(1), "meta state", 0, Integer.MAX_VALUE) : 0;
            Keys.press(device, Numbers.parseInt(args.get(0), "key code", 0, 1000), meta);
            return new byte[0];
        }
        if (op.equals("gesture")) {
            if (args.isEmpty()) throw new HelperException(HelperException.BAD_REQUEST, "gesture needs at least one path (x,y,t;x,y,t)");
            List<long[][]> paths = new ArrayList<long[][]>();
            for (int i = 0; i < args.size(); i++) paths.add(Gesture.parsePath(args.get(i), i));
            touch(Gesture.plan(paths));
            return new byte[0];
        }
        if (op.equals("tap")) {
            count(op, args, 2);
            touch(Gesture.tap(coordinate(args, 0, "tap x"), coordinate(args, 1, "tap y"), 0));
            return new byte[0];
        }
        if (op.equals("double-tap")) {
            count(op, args, 2);
            touch(Gesture.doubleTap(coordinate(args, 0, "double-tap x"), coordinate(args, 1, "double-tap y")));
            return new byte[0];
        }
        if (op.equals("swipe")) {
            count(op, args, 5);
            float x1 = coordinate(args, 0, "swipe x1");
            float y1 = coordinate(args, 1, "swipe y1");
            float x2 = coordinate(args, 2, "swipe x2");
            float y2 = coordinate(args, 3, "swipe y2");
            touch(Gesture.swipe(x1, y1, x2, y2, Numbers.parse(args.get(4), "swipe duration", 0, Gesture.MAX_DURATION_MS)));
            return new byte[0];
        }
        if (op.equals("release")) {
            count(op, args, 0);
            boolean held = device.holdsUiAutomation();
            device.release();
            return Frames.utf8(held ? "released" : "not-held");
        }
        if (op.equals("quit")) {
            count(op, args, 0);
            return new byte[0];
        }
        throw new HelperException(HelperException.BAD_REQUEST, "unknown operation \"" + op + "\"");
    }

    private static float coordinate(List<String> args, int index, String what) throws HelperException {
        return Numbers.parseInt(args.get(index), what, 0, 100000);
    }

    /**
     * Plays a touch once the device is awake and shows no screensaver. While it is not interactive (asleep, dozing),
     * the input dispatcher passes an injected touch to no window (AOSP NativeInputManager::interceptMotionBeforeQueueing
     * gives injected events POLICY_FLAG_PASS_TO_USER only while interactive). While it dreams it is interactive
     * (PowerManagerInternal.isInteractive: AWAKE or DREAMING), but the dream's window is on top and takes the touch,
     * ending the dream (AOSP DreamService.dispatchTouchEvent), so the app gets nothing; {@code input}'s gate in the
     * host refuses unless {@code dumpsys power} says mWakefulness=Awake, for the same reason. Either way the touch is
     * refused with DISPLAY_OFF and nothing is sent.
     */
    private void touch(List<Gesture.Step> steps) throws HelperException {
        boolean interactive;
        boolean dreaming;
        try {
            interactive = device.interactive();
            dreaming = interactive && device.dreaming();
        } catch (HelperException e) {
            // Nothing was injected yet: a check that failed is a refusal before acting, never FAILED, which the host
            // reads as "may have acted".
            if (!e.code().equals(HelperException.FAILED)) throw e;
            throw new HelperException(HelperException.UNSUPPORTED, "nothing was injected: " + e.getMessage(), e);
        }
        if (!interactive)
            throw new HelperException(HelperException.DISPLAY_OFF, "the display is off (the device is not interactive): the touch would reach no window, so nothing was injected");
        if (dreaming)
            throw new HelperException(HelperException.DISPLAY_OFF, "a screensaver shows (the device is dreaming): the touch would go to the dream, not the app, so nothing was injected");
        play(steps);
    }

    /**
     * Sends each event at its time from the touch's start. A first finger going down (ACTION_DOWN) starts a touch of
     * its own, whose events carry its time as their down time (a double tap is two). The last event waits until the
     * window under it handled it, as {@code input} does, so the answer comes after the touch landed. A failure at the
     * first event injected nothing: UNSUPPORTED (the release refuses the shell's injection). After that, however the
     * touch was cut off (an injection refused or throwing, the thread interrupted), the fingers still down are lifted
     * with ACTION_CANCEL (Gesture.cancelAfter: its down time, only the pointers down) and the failure reported as
     * FAILED whatever its own code: the touch began, and the host reads UNSUPPORTED, BAD_REQUEST or UIAUTOMATION_BUSY
     * as "refused before acting", on which {@code auto} plays the touch again over {@code input}: twice.
     */
    private void play(List<Gesture.Step> steps) throws HelperException {
        synchronized (touchLock) {
            if (hostGone) throw new HelperException(HelperException.UNSUPPORTED, "nothing was injected: the host went away (its stream ended)");
            touching = true;
        }
        try {
            playSteps(steps);
        } finally {
            synchronized (touchLock) {
                touching = false;
                // An interrupt the input thread sent this touch is spent: the next request's sleeps are not cut short.
                Thread.interrupted();
            }
        }
    }

    private void playSteps(List<Gesture.Step> steps) throws HelperException {
        long start = device.uptimeMillis();
        long downTime = start;
        Gesture.Step last = null;
        HelperException failure;
        try {
            for (int i = 0; i < steps.size(); i++) {
                Gesture.Step step = steps.get(i);
                long at = start + step.time;
                device.sleepUntil(at);
                // The input ended while this touch plays (or just before its sleep): no event more, the fingers down
                // are lifted below. Checked after the sleep too, for a host gone between two events that need none.
                if (hostGone) throw new InterruptedException();
                if (step.maskedAction() == Gesture.ACTION_DOWN) downTime = at;
                device.inject(step, downTime, at, i == steps.size() - 1);
                last = step;
            }
            return;
        } catch (InterruptedException e) {
            // The loop owns this thread: the interruption ends this touch (the input thread sends it when the host's
            // stream ends), and the flag is not kept (play), so the next request's sleeps are not cut short too.
            if (hostGone && last == null) throw new HelperException(HelperException.UNSUPPORTED, "nothing was injected: the host went away (its stream ended)", e);
            failure = new HelperException(HelperException.FAILED, hostGone ? "the host went away (its stream ended) during the touch: the fingers down were lifted with ACTION_CANCEL" : "the gesture was interrupted", e);
        } catch (HelperException e) {
            if (last == null) throw new HelperException(HelperException.UNSUPPORTED, "nothing was injected: " + e.getMessage(), e);
            failure = e;
        } catch (RuntimeException e) {
            // MotionEvent.obtain, recycle or the reflected call failing outside the injection's own errors: the
            // event may have gone out.
            failure = new HelperException(HelperException.FAILED, e.toString(), e);
        }
        Gesture.Step cancel = last == null ? null : Gesture.cancelAfter(last);
        if (cancel != null) {
            try {
                device.inject(cancel, downTime, start + last.time, false);
            } catch (HelperException ignored) {
                // the first failure is the one to report
            } catch (RuntimeException ignored) {
                // the first failure is the one to report
            }
        }
        if (failure.code().equals(HelperException.FAILED)) throw failure;
        throw new HelperException(HelperException.FAILED, "the touch began, then failed (" + failure.code() + "): " + failure.getMessage(), failure);
    }

    private static void count(String op, List<String> args, int n) throws HelperException {
        if (args.size() != n) throw new HelperException(HelperException.BAD_REQUEST, op + " takes " + n + " argument(s), got " + args.size());
    }
}
