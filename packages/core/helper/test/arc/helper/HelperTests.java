package arc.helper;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The helper's pure parts on the JVM (framing, the dump's XML, gestures, typing, the request loop), with the Android
 * calls replaced by FakeDevice. No test framework: each check prints its name, and the first failure exits 1. Run by
 * test/helper/helper-jvm.test.ts wherever java and javac are installed.
 */
public final class HelperTests {
    private static int passed;

    public static void main(String[] args) throws Exception {
        if (args.length == 1 && args[0].equals("sample-dump")) {
            System.out.print(sampleDump());
            return;
        }
        framesRoundTrip();
        framesRefuseBrokenStreams();
        xmlEscapesAndStructure();
        xmlNafAndInvisible();
        gestureOneFinger();
        gesturePinch();
        gestureRefusesBadPaths();
        touchOps();
        touchesRefusedWhileAsleep();
        touchesRefusedWhileDreaming();
        numbersAndOptions();
        typingRestoresClipboard();
        typingRefusedBeforePasteKeyExists();
        keyAlwaysReleased();
        uiConnectUndoesEveryFailure();
        heldConnectionReadsStartFromAnEmptyCache();
        powerDumpSaysWhetherDreaming();
        serverSession();
        readsWaitForTheScreenToSettle();
        touchCutOffLiftsTheFingersDown();
        serverIdleRelease();
        hostGoneMidTouchLiftsTheFingersDown();
        hostGoneRunsNothingQueued();
        hostGoneMidKeyOrPasteFinishesIt();
        hostGoneWithARequestStuckEndsTheHelper();
        System.out.println("ok " + passed + " checks");
    }

    // ---- tiny assertion kit ----

    /** Sleeps without being cut short (a platform call that takes this long). */
    static void pause(long ms) {
        long until = System.currentTimeMillis() + ms;
        for (long left = ms; left > 0; left = until - System.currentTimeMillis()) {
            try {
                Thread.sleep(left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    static void check(boolean ok, String what) {
        if (!ok) {
            System.out.println("FAILED: " + what);
            System.exit(1);
        }
        passed++;
    }

    static void equal(Object actual, Object expected, String what) {
        boolean ok = expected == null ? actual == null : expected.equals(actual);
        check(ok, what + ": expected <" + expected + "> but got <" + actual + ">");
    }

    static HelperException fails(Runnable0 body, String code, String what) {
        try {
            body.run();
        } catch (HelperException e) {
            equal(e.code(), code, what + " (code)");
            return e;
        } catch (Exception e) {
            check(false, what + ": threw " + e);
        }
        check(false, what + ": did not fail");
        return null;
    }

    interface Runnable0 {
        void run() throws Exception;
    }

    static String utf8(byte[] b, int from) {
        try {
            return new String(b, from, b.length - from, "UTF-8");
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
    }

    // ---- framing ----

    static void framesRoundTrip() throws Exception {
        String[] words = {"type", "café 中文 👍 \u0000 \n\t\"'$`\\", ""};
        byte[] frame = Frames.encodeRequest(7, words);
        Frames.Request r = Frames.readRequest(new DataInputStream(new ByteArrayInputStream(frame)));
        equal(r.id, 7, "request id");
        equal(r.words, Arrays.asList(words), "words arrive byte for byte");
        equal(r.op(), "type", "op");
        equal(r.args().size(), 2, "args");
        check(Frames.readRequest(new DataInputStream(new ByteArrayInputStream(new byte[0]))) == null, "a clean end is null");

        byte[] response = Frames.encodeResponse(9, Frames.STATUS_ERROR, Frames.errorPayload("BAD_REQUEST", "nope"));
        ByteBuffer b = ByteBuffer.wrap(response);
        equal(b.getInt(), response.length - 4, "response length");
        equal(b.getInt(), 9, "response id");
        equal((int) b.get(), 1, "response status");
        equal(utf8(response, 9), "BAD_REQUEST\tnope", "error payload");
    }

    static void framesRefuseBrokenStreams() throws Exception {
        final byte[] frame = Frames.encodeRequest(1, "ping");
        ioFails(Arrays.copyOf(frame, frame.length - 1), "a frame cut short");
        ioFails(new byte[] {0x7f, 0, 0, 0}, "a frame longer than MAX_REQUEST");
        ioFails(new byte[] {0, 0, 0, 5, 0, 0, 0, 1, 0}, "a request without an operation");
        ByteArrayOutputStream bad = new ByteArrayOutputStream();
        bad.write(new byte[] {0, 0, 0, 11, 0, 0, 0, 1, 1, 0, 0, 0, 2, (byte) 0xc3, 0x28});
        ioFails(bad.toByteArray(), "a word that is not UTF-8");
        byte[] extra = Arrays.copyOf(frame, frame.length + 1);
        extra[3]++;
        ioFails(extra, "bytes after the words");
        byte[] claims = frame.clone();
        claims[12] = 99;
        ioFails(claims, "a word longer than its frame");
    }

    static void ioFails(byte[] bytes, String what) {
        try {
            Frames.readRequest(new DataInputStream(new ByteArrayInputStream(bytes)));
            check(false, what + " was read");
        } catch (IOException e) {
            passed++;
        }
    }

    // ---- XML ----

    static Map<Integer, int[]> size(int w, int h) {
        Map<Integer, int[]> sizes = new TreeMap<Integer, int[]>();
        sizes.put(0, new int[] {w, h});
        return sizes;
    }

    static void xmlEscapesAndStructure() {
        UiNode root = new UiNode().bounds(-10, 0, 2000, 2400);
        root.className = "android.widget.FrameLayout";
        root.packageName = "com.example";
        UiNode label = new UiNode().bounds(0, 0, 100, 50);
        label.text = "a&b <c> \"d\"\ne\tf\u0001g 👍 \ud800x";
        label.hint = "Search";
        root.add(label);
        UiWindow app = new UiWindow();
        app.title = "Example & co";
        app.right = 1080;
        app.bottom = 2400;
        app.active = app.focused = true;
        app.id = 12;
        app.layer = 3;
        app.root = root;
        UiWindow popup = new UiWindow();
        popup.type = UiWindow.typeName(3);
        app.children.add(popup);
        UiWindow ime = new UiWindow();
        ime.type = UiWindow.typeName(2);
        Map<Integer, List<UiWindow>> displays = new TreeMap<Integer, List<UiWindow>>();
        displays.put(2, Collections.singletonList(ime));
        displays.put(0, Arrays.asList(app));
        String xml = DisplaysXml.write(displays, size(1080, 2400), 1);
        check(xml.startsWith("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><displays><display id=\"0\"><window index=\"0\" title=\"Example &amp; co\" bounds=\"[0,0][1080,2400]\" active=\"true\" focused=\"true\" accessibility-focused=\"false\" id=\"12\" layer=\"3\" type=\"TYPE_APPLICATION\">"), "window element: " + xml);
        check(xml.contains("<window index=\"0\" title=\"\" bounds=\"[0,0][0,0]\" active=\"false\" focused=\"false\" accessibility-focused=\"false\" id=\"0\" layer=\"0\" type=\"TYPE_SYSTEM\"></window><hierarchy rotation=\"1\">"), "child window before the tree: " + xml);
        check(xml.contains("text=\"a&amp;b &lt;c&gt; &quot;d&quot;&#10;e&#9;f?g 👍 ?x\""), "attribute escaping: " + xml);
        check(xml.contains("hint=\"Search\" bounds=\"[0,0][100,50]\" />"), "hint and bounds: " + xml);
        check(xml.contains("bounds=\"[0,0][1080,2400]\"><node"), "bounds clipped to the display: " + xml);
        check(xml.indexOf("<display id=\"0\">") < xml.indexOf("<display id=\"2\">"), "displays in order");
        check(xml.endsWith("<display id=\"2\"><window index=\"0\" title=\"\" bounds=\"[0,0][0,0]\" active=\"false\" focused=\"false\" accessibility-focused=\"false\" id=\"0\" layer=\"0\" type=\"TYPE_INPUT_METHOD\"></window></display></displays>"), "a window without a root has no hierarchy: " + xml);
        check(!xml.contains("hint=\"\"") || label.hint != null, "no empty hint where none was given");
    }

    static void xmlNafAndInvisible() {
        UiNode root = new UiNode().bounds(0, 0, 100, 100);
        UiNode bare = new UiNode().bounds(0, 0, 10, 10);
        bare.clickable = true;
        UiNode hidden = new UiNode();
        hidden.visibleToUser = false;
        hidden.text = "secret";
        UiNode named = new UiNode().bounds(10, 10, 20, 20);
        named.clickable = true;
        UiNode inner = new UiNode();
        inner.contentDesc = "Play";
        named.add(inner);
        UiNode list = new UiNode();
        list.className = "android.widget.ListView";
        list.clickable = true;
        root.add(bare).add(hidden).add(null).add(named).add(list);
        UiWindow w = new UiWindow();
        w.root = root;
        Map<Integer, List<UiWindow>> displays = new TreeMap<Integer, List<UiWindow>>();
        displays.put(0, Collections.singletonList(w));
        String xml = DisplaysXml.write(displays, size(100, 100), 0);
        check(xml.contains("<node NAF=\"true\" index=\"0\""), "a clickable node that says nothing is NAF: " + xml);
        check(!xml.contains("secret"), "invisible children are left out");
        check(xml.contains("<node index=\"3\" text=\"\""), "the next child keeps its index: " + xml);
        check(xml.contains("<node index=\"4\" text=\"\" resource-id=\"\" class=\"android.widget.ListView\""), "lists are never NAF: " + xml);
    }

    /** A two-display document for the host's test to read with arc's own parser. */
    static String sampleDump() {
        UiNode field = new UiNode().bounds(40, 300, 1040, 420);
        field.className = "android.widget.EditText";
        field.packageName = "com.example";
        field.text = "caf\u00e9 \u4e2d\u6587 \ud83d\udc4d & <ok>";
        field.hint = "Search";
        field.focusable = field.focused = field.clickable = true;
        field.resourceId = "com.example:id/query";
        UiNode button = new UiNode().bounds(900, 2200, 1200, 2300);
        button.className = "android.widget.Button";
        button.packageName = "com.example";
        button.clickable = true;
        UiNode root = new UiNode().bounds(0, 0, 1080, 2400);
        root.className = "android.widget.FrameLayout";
        root.packageName = "com.example";
        root.add(field).add(button);
        UiWindow app = new UiWindow();
        app.title = "Example";
        app.right = 1080;
        app.bottom = 2400;
        app.active = app.focused = true;
        app.id = 7;
        app.layer = 1;
        app.root = root;
        UiNode barRoot = new UiNode().bounds(0, 0, 1080, 63);
        barRoot.className = "android.widget.FrameLayout";
        barRoot.packageName = "com.android.systemui";
        UiWindow bar = new UiWindow();
        bar.title = "Status bar";
        bar.type = UiWindow.typeName(3);
        bar.right = 1080;
        bar.bottom = 63;
        bar.id = 3;
        bar.layer = 2;
        bar.root = barRoot;
        UiNode castRoot = new UiNode().bounds(0, 0, 1920, 1080);
        castRoot.className = "android.widget.TextView";
        castRoot.packageName = "com.cast";
        castRoot.text = "Now playing";
        UiWindow cast = new UiWindow();
        cast.title = "Cast";
        cast.right = 1920;
        cast.bottom = 1080;
        cast.id = 9;
        cast.root = castRoot;
        Map<Integer, List<UiWindow>> displays = new TreeMap<Integer, List<UiWindow>>();
        displays.put(0, Arrays.asList(bar, app));
        displays.put(2, Collections.singletonList(cast));
        Map<Integer, int[]> sizes = size(1080, 2400);
        sizes.put(2, new int[] {1920, 1080});
        return DisplaysXml.write(displays, sizes, 0);
    }

    // ---- gestures ----

    static List<long[][]> paths(String... words) throws HelperException {
        List<long[][]> out = new ArrayList<long[][]>();
        for (int i = 0; i < words.length; i++) out.add(Gesture.parsePath(words[i], i));
        return out;
    }

    static void gestureOneFinger() throws Exception {
        List<Gesture.Step> steps = Gesture.plan(paths("10,20,0;110,220,100;210,420,300"));
        equal(steps.size(), 4, "down, two moves, up");
        equal(steps.get(0).action, Gesture.ACTION_DOWN, "first is DOWN");
        equal(steps.get(1).action, Gesture.ACTION_MOVE, "then MOVE");
        equal(steps.get(2).time, 300L, "last move at the end");
        equal(steps.get(3).action, Gesture.ACTION_UP, "lifted with UP");
        equal(steps.get(3).xs[0], 210f, "up where the path ends");
    }

    static void gesturePinch() throws Exception {
        List<Gesture.Step> steps = Gesture.plan(paths("500,500,0;300,300,200", "600,600,50;800,800,200"));
        StringBuilder s = new StringBuilder();
        for (Gesture.Step step : steps) s.append(step.time).append(':').append(step.maskedAction()).append('/').append(step.actionIndex()).append('x').append(step.ids.length).append(' ');
        equal(s.toString().trim(), "0:0/0x1 50:5/1x2 200:2/0x2 200:6/0x2 200:1/0x1", "pinch events");
        Gesture.Step second = steps.get(1);
        equal(second.xs[0], 450f, "the first finger is interpolated when the second lands");
        equal(second.xs[1], 600f, "the second finger lands where its path starts");
        equal(steps.get(4).ids[0], 1, "the second finger lifts last");
    }

    static void gestureRefusesBadPaths() {
        fails(new Runnable0() { public void run() throws Exception { Gesture.parsePath("1,2,0", 0); } }, HelperException.BAD_REQUEST, "one point");
        HelperException e = fails(new Runnable0() { public void run() throws Exception { Gesture.parsePath("1,2,5;3,4,5", 1); } }, HelperException.BAD_REQUEST, "times not increasing");
        check(e.getMessage().contains("path 1 point 1"), "names the point: " + e.getMessage());
        fails(new Runnable0() { public void run() throws Exception { Gesture.parsePath("1,2;3,4,5", 0); } }, HelperException.BAD_REQUEST, "a point without a time");
        fails(new Runnable0() { public void run() throws Exception { Gesture.parsePath("1,x,0;3,4,5", 0); } }, HelperException.BAD_REQUEST, "not a number");
        fails(new Runnable0() { public void run() throws Exception { Gesture.plan(new ArrayList<long[][]>()); } }, HelperException.BAD_REQUEST, "no path");
        final String[] eleven = new String[11];
        Arrays.fill(eleven, "1,1,0;2,2,10");
        fails(new Runnable0() { public void run() throws Exception { Gesture.plan(paths(eleven)); } }, HelperException.BAD_REQUEST, "eleven fingers");
    }

    /** Runs requests on a fresh server over the fake and returns the replies after the hello. */
    static List<Reply> serve(FakeDevice d, byte[]... frames) throws Exception {
        ByteArrayOutputStream requests = new ByteArrayOutputStream();
        for (byte[] f : frames) requests.write(f);
        Answers out = new Answers();
        new Server(d, new DataInputStream(new HostInput(requests.toByteArray(), out, frames.length)), out, 60000).run();
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(out.toByteArray()));
        read(in);
        List<Reply> replies = new ArrayList<Reply>();
        while (in.available() > 0) replies.add(read(in));
        return replies;
    }

    static String steps(List<Gesture.Step> steps) {
        StringBuilder s = new StringBuilder();
        for (Gesture.Step step : steps) s.append(step.time).append(':').append(step.maskedAction()).append('@').append((int) step.xs[0]).append(',').append((int) step.ys[0]).append(' ');
        return s.toString().trim();
    }

    static void touchOps() throws Exception {
        equal(steps(Gesture.tap(10, 20, 0)), "0:0@10,20 0:1@10,20", "a tap is DOWN then UP at once, as input tap");
        equal(steps(Gesture.doubleTap(5, 6)), "0:0@5,6 0:1@5,6 100:0@5,6 100:1@5,6", "a double tap: the second 100 ms after the first");
        equal(steps(Gesture.swipe(0, 0, 100, 0, 40)), "0:0@0,0 16:2@40,0 32:2@80,0 40:2@100,0 40:1@100,0", "a swipe moves every frame and lifts at its end");
        equal(steps(Gesture.swipe(7, 8, 7, 8, 0)), "0:0@7,8 0:1@7,8", "a swipe of no time is a tap");

        FakeDevice d = new FakeDevice();
        List<Reply> r = serve(d, Frames.encodeRequest(1, "tap", "10", "20"), Frames.encodeRequest(2, "double-tap", "5", "6"),
                Frames.encodeRequest(3, "swipe", "1", "2", "1", "2", "20"), Frames.encodeRequest(4, "tap", "10"),
                Frames.encodeRequest(5, "tap", "-1", "0"), Frames.encodeRequest(6, "swipe", "1", "2", "3", "4", "60001"));
        equal(r.get(0).status, Frames.STATUS_OK, "tap");
        equal(r.get(1).status, Frames.STATUS_OK, "double-tap");
        equal(r.get(2).status, Frames.STATUS_OK, "swipe (a long press)");
        equal(r.get(3).text(), "BAD_REQUEST\ttap takes 2 argument(s), got 1", "tap's argument count");
        equal(r.get(4).text(), "BAD_REQUEST\ttap x is \"-1\"; a whole number from 0 to 100000 is allowed", "a negative coordinate");
        equal(r.get(5).text(), "BAD_REQUEST\tswipe duration is \"60001\"; a whole number from 0 to 60000 is allowed", "a swipe longer than a minute");
        // Each touch's own down time; only its last event waits for the window.
        equal(d.stamps, Arrays.asList("0@0", "1@0 wait", "0@0", "1@0", "0@0", "1@0 wait", "0@0", "2@16", "2@20", "1@20 wait"), "down times and waits");
        check(d.log.contains("interactive? true"), "asked whether interactive first");

        // A refusal at the first event injected nothing: UNSUPPORTED, so the host may try another way.
        FakeDevice refused = new FakeDevice();
        refused.injectFailAt = 0;
        refused.injectFailure = new HelperException(HelperException.FAILED, "injectInputEvent failed: java.lang.SecurityException: INJECT_EVENTS");
        Reply first = serve(refused, Frames.encodeRequest(1, "tap", "1", "1")).get(0);
        check(first.text().startsWith("UNSUPPORTED\tnothing was injected: injectInputEvent failed"), first.text());
    }

    static void touchesRefusedWhileAsleep() throws Exception {
        FakeDevice d = new FakeDevice();
        d.awake = false;
        List<Reply> r = serve(d, Frames.encodeRequest(1, "tap", "10", "20"), Frames.encodeRequest(2, "double-tap", "1", "1"),
                Frames.encodeRequest(3, "swipe", "1", "1", "9", "9", "10"), Frames.encodeRequest(4, "gesture", "1,1,0;5,5,20", "9,9,0;6,6,20"),
                Frames.encodeRequest(5, "gesture", "1,x,0;5,5,20"));
        for (int i = 0; i < 4; i++) check(r.get(i).text().startsWith("DISPLAY_OFF\tthe display is off"), "touch " + (i + 1) + " refused while asleep: " + r.get(i).text());
        equal(r.get(4).text().substring(0, 12), "BAD_REQUEST\t", "a malformed gesture is refused as such first");
        equal(d.injected, 0, "nothing injected while asleep");
    }

    static void touchesRefusedWhileDreaming() throws Exception {
        // Interactive (isInteractive is AWAKE or DREAMING), but a screensaver shows: the dream would take the touch.
        FakeDevice d = new FakeDevice();
        d.dreaming = true;
        List<Reply> r = serve(d, Frames.encodeRequest(1, "tap", "10", "20"), Frames.encodeRequest(2, "double-tap", "1", "1"),
                Frames.encodeRequest(3, "swipe", "1", "1", "9", "9", "10"), Frames.encodeRequest(4, "gesture", "1,1,0;5,5,20", "9,9,0;6,6,20"));
        for (int i = 0; i < 4; i++) check(r.get(i).text().startsWith("DISPLAY_OFF\ta screensaver shows"), "touch " + (i + 1) + " refused while dreaming: " + r.get(i).text());
        equal(d.injected, 0, "nothing injected while dreaming");
        check(d.log.contains("dreaming? true"), "asked whether dreaming");

        // A release that will not say (the shell lacks READ_DREAM_STATE): refused before injecting, so the host may use input.
        FakeDevice unknown = new FakeDevice();
        unknown.dreamFailure = new HelperException(HelperException.UNSUPPORTED, "whether a screensaver shows is not known");
        Reply u = serve(unknown, Frames.encodeRequest(1, "tap", "1", "1")).get(0);
        check(u.text().startsWith("UNSUPPORTED\twhether a screensaver shows is not known"), u.text());
        equal(unknown.injected, 0, "nothing injected when the dream state is unknown");

        // The question itself failing (a RemoteException: FAILED) is still a refusal before anything was injected.
        FakeDevice broken = new FakeDevice();
        broken.dreamFailure = new HelperException(HelperException.FAILED, "isDreaming failed: android.os.DeadObjectException");
        Reply b = serve(broken, Frames.encodeRequest(1, "tap", "1", "1")).get(0);
        check(b.text().startsWith("UNSUPPORTED\tnothing was injected: isDreaming failed"), b.text());
        equal(broken.injected, 0, "nothing injected when the dream check failed");
    }

    static void numbersAndOptions() throws Exception {
        equal(Numbers.parse("-5", "x", -10, 10), -5L, "negative number");
        fails(new Runnable0() { public void run() throws Exception { Numbers.parse("1e3", "x", 0, 10000); } }, HelperException.BAD_REQUEST, "exponent");
        fails(new Runnable0() { public void run() throws Exception { Numbers.parse("11", "x", 0, 10); } }, HelperException.BAD_REQUEST, "out of range");
        fails(new Runnable0() { public void run() throws Exception { Numbers.parse("", "x", 0, 10); } }, HelperException.BAD_REQUEST, "empty");
        equal(Options.parse(new String[0]).idleMs, 2000L, "default idle");
        equal(Options.parse(new String[] {"--idle-ms", "0"}).idleMs, 0L, "idle 0");
        HelperException e = fails(new Runnable0() { public void run() throws Exception { Options.parse(new String[] {"--bogus"}); } }, HelperException.BAD_REQUEST, "unknown option");
        check(e.getMessage().contains("--bogus") && e.getMessage().contains("usage:"), "names the argument and the usage");
        fails(new Runnable0() { public void run() throws Exception { Options.parse(new String[] {"--idle-ms"}); } }, HelperException.BAD_REQUEST, "missing value");
    }

    // ---- typing and the loop, on a fake device ----

    static final class FakeDevice implements Device {
        Object clip = "user's photo";
        List<String> log = new ArrayList<String>();
        boolean held;
        int releases;
        HelperException keyFailure;
        HelperException injectFailure;
        int injectFailAt = -1;
        int injected;

        public String dumpWindows() {
            held = true;
            log.add("dump");
            if (hangUpInDump) {
                hangUp();
                try {
                    Thread.sleep(dumpStuckMs);
                } catch (InterruptedException e) {
                    log.add("dump interrupted");
                }
            }
            return "<displays/>";
        }
        public byte[] screenshot(int w, int h, int q, boolean png) throws HelperException {
            held = true;
            log.add("screenshot " + w + "x" + h + "@" + q + (png ? " png" : " jpeg"));
            return png ? new byte[] {(byte) 0x89, 'P', 'N'} : new byte[] {(byte) 0xff, (byte) 0xd8};
        }
        public void imeAction() throws HelperException {
            held = true;
            log.add("ime-action");
        }
        public String clipboardText() { return clip instanceof String && !clip.equals("user's photo") ? (String) clip : null; }
        public void setClipboardText(String text) {
            log.add("set " + text);
            clip = text;
            if (hangUpInClipboardSet) {
                hangUp();
                pause(200);
            }
        }
        public Object saveClipboard() { log.add("save"); return clip; }
        public void restoreClipboard(Object saved) { log.add("restore " + saved); clip = saved; }
        /** Thrown by the key's release (its ACTION_UP); keyFailure is thrown by its ACTION_DOWN. */
        HelperException keyUpFailure;
        /** Each key event asked: its action, code and whether it waits for the window. */
        List<String> keys = new ArrayList<String>();

        /** The host's end of the helper's input: hangUp() closes it, as adbd closes the stream when the host goes. */
        Closeable host;
        /** The sleep (0 = the first) at which the host goes away; that sleep then lasts until interrupted (20 s at most). */
        int hangUpAtSleep = -1;
        /** The host goes away while a key is down (its ACTION_DOWN injected), a paste's text is on the clipboard, a dump runs. */
        boolean hangUpInKeyDown;
        boolean hangUpInClipboardSet;
        boolean hangUpInDump;
        /** How long the dump then takes (ms; interrupted: it returns at once). */
        long dumpStuckMs;

        void hangUp() {
            try {
                host.close();
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
            log.add("host gone");
        }

        public void injectKey(int action, int code, int metaState, long downTime, long eventTime, boolean waitForFinish) throws HelperException {
            keys.add((action == Keys.ACTION_DOWN ? "down " : "up ") + code + (metaState == 0 ? "" : " meta " + metaState) + (waitForFinish ? " wait" : " async") + (eventTime >= downTime ? "" : " before its down time"));
            if (action == Keys.ACTION_DOWN && hangUpInKeyDown) {
                hangUp();
                pause(200);
            }
            if (action == Keys.ACTION_DOWN) {
                log.add("key " + code + " with " + clip);
                if (keyFailure != null) throw keyFailure;
            } else {
                log.add("key-up " + code);
                if (keyUpFailure != null) throw keyUpFailure;
            }
        }
        boolean awake = true;
        List<String> stamps = new ArrayList<String>();

        /** Thrown (unchecked) by the injection at injectFailAt instead of injectFailure. */
        RuntimeException injectThrows;
        /** The sleep before this event (0 = the first) is interrupted. */
        int interruptAt = -1;
        int sleeps;
        /** Each event that went out: its masked action and the pointer ids it carries. */
        List<String> pointers = new ArrayList<String>();

        public void inject(Gesture.Step step, long downTime, long eventTime, boolean waitForFinish) throws HelperException {
            if (injected++ == injectFailAt) {
                if (injectThrows != null) throw injectThrows;
                throw injectFailure;
            }
            log.add("inject " + step.maskedAction() + " at " + step.time);
            stamps.add(step.maskedAction() + "@" + (eventTime - downTime) + (waitForFinish ? " wait" : ""));
            pointers.add(step.maskedAction() + ":" + Arrays.toString(step.ids));
        }
        public boolean interactive() { log.add("interactive? " + awake); return awake; }
        boolean dreaming;
        HelperException dreamFailure;
        public boolean dreaming() throws HelperException {
            if (dreamFailure != null) throw dreamFailure;
            log.add("dreaming? " + dreaming);
            return dreaming;
        }
        /** A clock the test turns (-1: the real one): a sleep moves it to the time asked at once, and is noted. */
        long clock = -1;
        List<Long> sleptUntil = new ArrayList<Long>();
        /** When (on the clock) accessibility events arrive; lastEvent() sees those whose time has come. */
        List<Long> events = new ArrayList<Long>();
        public long lastEvent() {
            held = true;
            long last = Settle.NONE;
            for (long t : events) if (t <= uptimeMillis() && t > last) last = t;
            return last;
        }
        public long uptimeMillis() { return clock >= 0 ? clock : System.nanoTime() / 1000000; }
        public void sleepUntil(long time) throws InterruptedException {
            if (clock >= 0) {
                sleptUntil.add(time);
                if (sleeps++ == interruptAt) throw new InterruptedException();
                clock = Math.max(clock, time);
                return;
            }
            if (sleeps == hangUpAtSleep) {
                sleeps++;
                hangUp();
                Thread.sleep(20000);
                log.add("slept 20 s: not interrupted");
                return;
            }
            if (sleeps++ == interruptAt) throw new InterruptedException();
            long wait = time - uptimeMillis();
            if (wait > 0) Thread.sleep(wait);
        }
        public void release() { if (held) releases++; held = false; }
        public boolean holdsUiAutomation() { return held; }
        int sdk = 34;
        public int sdk() { return sdk; }
        public List<String> missing() { return Arrays.asList("clipboard"); }
    }

    static void typingRestoresClipboard() throws Exception {
        FakeDevice d = new FakeDevice();
        equal(Typist.type(d, "héllo 👍"), "restored", "typed");
        equal(d.log, Arrays.asList("save", "set héllo 👍", "key 279 with héllo 👍", "key-up 279", "restore user's photo"), "paste between save and restore");
        equal(d.clip, "user's photo", "the user's clipboard is back");

        final FakeDevice failing = new FakeDevice();
        failing.keyFailure = new HelperException(HelperException.UNSUPPORTED, "no input");
        fails(new Runnable0() { public void run() throws Exception { Typist.type(failing, "x"); } }, HelperException.UNSUPPORTED, "a failed paste");
        equal(failing.clip, "user's photo", "restored after a failed paste too");
        fails(new Runnable0() { public void run() throws Exception { Typist.type(new FakeDevice(), ""); } }, HelperException.BAD_REQUEST, "empty text");
    }

    /**
     * A key that went down is released on every path: a key-down the input manager answers false for (not finished
     * within its wait, or refused) may still have reached the window, which then holds the key down.
     */
    static void keyAlwaysReleased() throws Exception {
        final FakeDevice slow = new FakeDevice();
        slow.keyFailure = new HelperException(HelperException.FAILED, "the input manager refused the event");
        fails(new Runnable0() { public void run() throws Exception { Typist.type(slow, "x"); } }, HelperException.FAILED, "a paste whose key-down failed");
        equal(slow.log, Arrays.asList("save", "set x", "key 279 with x", "key-up 279", "restore user's photo"), "the paste key released, then the clipboard put back");

        // Over the request loop too (`key CODE`): the volume key released after its down failed.
        FakeDevice volume = new FakeDevice();
        volume.keyFailure = new HelperException(HelperException.FAILED, "refused");
        Reply r = serve(volume, Frames.encodeRequest(1, "key", "24")).get(0);
        equal(r.text(), "FAILED\trefused", "the key-down's failure is reported");
        equal(volume.keys.size(), 2, "the key released: " + volume.keys);
        check(volume.keys.get(1).startsWith("up 24"), "released: " + volume.keys);

        // The down queued at once, the up right behind it waiting for the window: nothing waits between the two.
        FakeDevice ok = new FakeDevice();
        Keys.press(ok, 66);
        equal(ok.keys, Arrays.asList("down 66 async", "up 66 wait"), "down queued, up waited for");

        // `key CODE META`: both events carry the modifier state, and no event is sent for the modifier key itself.
        FakeDevice alt = new FakeDevice();
        Reply altReply = serve(alt, Frames.encodeRequest(1, "key", "20", "18")).get(0);
        equal(altReply.status, Frames.STATUS_OK, "ALT+DPAD_DOWN served: " + altReply.text());
        equal(alt.keys, Arrays.asList("down 20 meta 18 async", "up 20 meta 18 wait"), "DPAD_DOWN with META_ALT_ON|META_ALT_LEFT_ON");
        FakeDevice badMeta = new FakeDevice();
        Reply bad = serve(badMeta, Frames.encodeRequest(1, "key", "20", "alt")).get(0);
        check(bad.text().startsWith("BAD_REQUEST\t"), "a meta state that is no number is refused: " + bad.text());
        check(bad.text().contains("meta state"), "the refusal names the meta state: " + bad.text());
        equal(badMeta.keys.size(), 0, "nothing injected for a bad meta state: " + badMeta.keys);
        Reply three = serve(new FakeDevice(), Frames.encodeRequest(1, "key", "20", "18", "1")).get(0);
        check(three.text().startsWith("BAD_REQUEST\t"), "three arguments are refused: " + three.text());

        // The down went out and the release failed: FAILED whatever the release's code (the key acted).
        final FakeDevice upFails = new FakeDevice();
        upFails.keyUpFailure = new HelperException(HelperException.UNSUPPORTED, "injectInputEvent takes other arguments on this release");
        HelperException e = fails(new Runnable0() { public void run() throws Exception { Keys.press(upFails, 66); } }, HelperException.FAILED, "a release that failed");
        check(e.getMessage().startsWith("the key went down, then its release failed (UNSUPPORTED)"), e.getMessage());

        // The down refused before anything went out (no input API): the release is tried too, and the down's
        // refusal is what the host reads, so it may use another way.
        final FakeDevice none = new FakeDevice();
        none.keyFailure = new HelperException(HelperException.UNSUPPORTED, "no InputManager instance on API 34");
        none.keyUpFailure = new HelperException(HelperException.UNSUPPORTED, "no InputManager instance on API 34");
        fails(new Runnable0() { public void run() throws Exception { Keys.press(none, 66); } }, HelperException.UNSUPPORTED, "no input API");
    }

    static void typingRefusedBeforePasteKeyExists() throws Exception {
        // KEYCODE_PASTE is API 24: on 6.0 a paste key types nothing, so the helper refuses before touching the clipboard.
        final FakeDevice old = new FakeDevice();
        old.sdk = 23;
        HelperException e = fails(new Runnable0() { public void run() throws Exception { Typist.type(old, "héllo"); } }, HelperException.UNSUPPORTED, "paste on API 23");
        check(e.getMessage().contains("KEYCODE_PASTE") && e.getMessage().contains("API 23"), "names the key and the release: " + e.getMessage());
        equal(old.log, new ArrayList<String>(), "nothing saved, set, pressed or restored on API 23");
        FakeDevice nougat = new FakeDevice();
        nougat.sdk = 24;
        equal(Typist.type(nougat, "x"), "restored", "API 24 pastes");
    }

    /** Steps that log what ran and fail where told. */
    static final class FakeConnect implements UiConnect.Steps {
        final List<String> log = new ArrayList<String>();
        Exception connectFailure;
        RuntimeException configureFailure;

        public void connect() throws Exception {
            log.add("connect");
            if (connectFailure != null) throw connectFailure;
        }

        public void configure() {
            log.add("configure");
            if (configureFailure != null) throw configureFailure;
        }

        public void undo() { log.add("undo"); }
    }

    static void uiConnectUndoesEveryFailure() throws Exception {
        FakeConnect ok = new FakeConnect();
        UiConnect.connect(ok);
        equal(ok.log, Arrays.asList("connect", "configure"), "a connection that worked is kept");

        // Android 11+: connectWithTimeout ran out with the service registered (Reflect.call wraps the cause).
        final FakeConnect late = new FakeConnect();
        late.connectFailure = new HelperException(HelperException.FAILED, "connectWithTimeout failed: java.util.concurrent.TimeoutException: Timeout while connecting UiAutomation@1",
                new java.util.concurrent.TimeoutException("Timeout while connecting UiAutomation@1"));
        fails(new Runnable0() { public void run() throws Exception { UiConnect.connect(late); } }, HelperException.UIAUTOMATION_BUSY, "a timed-out connect");
        equal(late.log, Arrays.asList("connect", "undo"), "a timed-out connect is unregistered");

        // Android 5-10: the same wait ran out as a RuntimeException.
        final FakeConnect old = new FakeConnect();
        old.connectFailure = new HelperException(HelperException.FAILED, "connect failed: java.lang.RuntimeException: Error while connecting UiAutomation",
                new RuntimeException("Error while connecting UiAutomation"));
        fails(new Runnable0() { public void run() throws Exception { UiConnect.connect(old); } }, HelperException.UIAUTOMATION_BUSY, "an old release's timed-out connect");
        equal(old.log, Arrays.asList("connect", "undo"), "an old release's timed-out connect is unregistered");

        final FakeConnect busy = new FakeConnect();
        busy.connectFailure = new HelperException(HelperException.FAILED, "connect failed: java.lang.IllegalStateException: UiAutomationService android.accessibilityservice.IAccessibilityServiceClient$Stub$Proxy@5already registered!",
                new IllegalStateException("UiAutomationService android.accessibilityservice.IAccessibilityServiceClient$Stub$Proxy@5already registered!"));
        HelperException e = fails(new Runnable0() { public void run() throws Exception { UiConnect.connect(busy); } }, HelperException.UIAUTOMATION_BUSY, "another client holds it");
        check(e.getMessage().startsWith("another tool holds UiAutomation"), e.getMessage());
        equal(busy.log, Arrays.asList("connect", "undo"), "undo runs (it finds nothing registered)");

        // Connected, then setServiceInfo failed: the connection would stay registered with nobody holding it.
        final FakeConnect half = new FakeConnect();
        half.configureFailure = new IllegalStateException("setServiceInfo: Error while setting AccessibilityServiceInfo");
        fails(new Runnable0() { public void run() throws Exception { UiConnect.connect(half); } }, HelperException.FAILED, "a failed configure");
        equal(half.log, Arrays.asList("connect", "configure", "undo"), "a connection whose configure failed is unregistered");

        final FakeConnect hidden = new FakeConnect();
        hidden.connectFailure = new HelperException(HelperException.UNSUPPORTED, "UiAutomation has no connect method on API 21");
        fails(new Runnable0() { public void run() throws Exception { UiConnect.connect(hidden); } }, HelperException.UNSUPPORTED, "a missing connect");
        equal(hidden.log, Arrays.asList("connect", "undo"), "undo after a missing connect too");
    }

    // ---- the accessibility cache of a held connection (UiCache), on fakes shaped as each release's classes ----

    /** A node cache as AccessibilityCache keeps it: filled by reads, emptied only by clear (or events, not modelled). */
    static final class FakeCache {
        final Map<String, String> nodes = new TreeMap<String, String>();
        int clears;

        void clear() { nodes.clear(); clears++; }

        /** What getChild answers: the cached node where there is one, else the screen's (then cached). */
        String child(String id, Map<String, String> screen) {
            if (!nodes.containsKey(id)) nodes.put(id, screen.get(id));
            return nodes.get(id);
        }
    }

    /** UiAutomation before API 34: no clearCache of its own; its connection id in a private field. */
    static class UiBefore34 {
        private int mConnectionId;
        UiBefore34(int id) { mConnectionId = id; }
    }

    /** UiAutomation from API 34: public boolean clearCache() (false where the connection has no cache). */
    static final class Ui34 extends UiBefore34 {
        final FakeCache cache;
        boolean connected = true;
        Ui34(int id, FakeCache cache) { super(id); this.cache = cache; }
        public boolean clearCache() {
            if (!connected) throw new IllegalStateException("Not connected!");
            if (cache == null) return false;
            cache.clear();
            return true;
        }
    }

    /** AccessibilityInteractionClient of API 21-32: one cache for the process, clearCache(). */
    static final class Client21 {
        static final FakeCache CACHE = new FakeCache();
        static Client21 instance = new Client21();
        public static Client21 getInstance() { return instance; }
        public void clearCache() { CACHE.clear(); }
    }

    /** AccessibilityInteractionClient of API 33+: one cache per connection, clearCache(int connectionId). */
    static final class Client33 {
        static final Map<Integer, FakeCache> CACHES = new TreeMap<Integer, FakeCache>();
        public static Client33 getInstance() { return new Client33(); }
        public void clearCache(int connectionId) {
            FakeCache c = CACHES.get(connectionId);
            if (c != null) c.clear();
        }
    }

    /** A release (or an OEM build) where the client has neither clearCache. */
    static final class ClientWithout {
        public static ClientWithout getInstance() { return new ClientWithout(); }
    }

    static void heldConnectionReadsStartFromAnEmptyCache() throws Exception {
        // The defect: a connection held between reads answers getChild from its cache. A tap moved the field from
        // y=100 to y=400; until the app's events arrive (up to 100 ms later) the cache still says 100.
        Map<String, String> screen = new TreeMap<String, String>();
        screen.put("field", "bounds 0,100");
        FakeCache cache = Client21.CACHE;
        equal(cache.child("field", screen), "bounds 0,100", "the first read fills the cache");
        screen.put("field", "bounds 0,400");
        equal(cache.child("field", screen), "bounds 0,100", "a held connection's next read is stale (the defect)");

        // API 21-32: the process-wide cache, through AccessibilityInteractionClient.getInstance().clearCache().
        equal(UiCache.clear(new UiBefore34(3), Client21.class), "AccessibilityInteractionClient.clearCache()", "API 21-32's way");
        equal(cache.child("field", screen), "bounds 0,400", "after the clear the read sees the screen as it is");

        // API 33: the connection's own cache, by its id (UiAutomation.mConnectionId); other connections' untouched.
        FakeCache mine = new FakeCache();
        FakeCache other = new FakeCache();
        Client33.CACHES.put(7, mine);
        Client33.CACHES.put(8, other);
        mine.nodes.put("field", "bounds 0,100");
        other.nodes.put("x", "y");
        equal(UiCache.clear(new UiBefore34(7), Client33.class), "AccessibilityInteractionClient.clearCache(connectionId)", "API 33's way");
        check(mine.nodes.isEmpty() && mine.clears == 1, "connection 7's cache cleared");
        equal(other.clears, 0, "connection 8's cache untouched");

        // API 34+: UiAutomation.clearCache() itself, before any hidden way.
        FakeCache own = new FakeCache();
        own.nodes.put("field", "bounds 0,100");
        int before = Client33.CACHES.get(7).clears;
        equal(UiCache.clear(new Ui34(7, own), Client33.class), "UiAutomation.clearCache()", "API 34's public way");
        check(own.nodes.isEmpty(), "cleared by UiAutomation.clearCache()");
        equal(Client33.CACHES.get(7).clears, before, "the hidden way not used where the public one works");
        // clearCache() answering false (no cache on that connection: nothing can be stale) is a clear too.
        equal(UiCache.clear(new Ui34(7, null), ClientWithout.class), "UiAutomation.clearCache()", "no cache to clear");
        // clearCache() throwing falls through to the hidden way.
        Ui34 refusing = new Ui34(7, own);
        refusing.connected = false;
        equal(UiCache.clear(refusing, Client33.class), "AccessibilityInteractionClient.clearCache(connectionId)", "after a refused public way");

        // No way: null, so AndroidDevice lets the connection go and connects again (a new connection starts empty).
        equal(UiCache.clear(new UiBefore34(1), ClientWithout.class), null, "a client without clearCache");
        equal(UiCache.clear(new UiBefore34(1), null), null, "no AccessibilityInteractionClient at all");
        Client21.instance = null;
        equal(UiCache.clear(new UiBefore34(1), Client21.class), null, "getInstance answering null");
        Client21.instance = new Client21();
    }

    static void powerDumpSaysWhetherDreaming() throws Exception {
        String head = "POWER MANAGER (dumpsys power)\n\nPower Manager State:\n  mDirty=0x0\n";
        equal(PowerDump.wakefulness(head + "  mWakefulness=Dreaming\n  mWakefulnessChanging=false\n"), "Dreaming", "the word");
        check(PowerDump.dreaming(head + "  mWakefulness=Dreaming\n"), "Dreaming is a dream");
        check(!PowerDump.dreaming(head + "  mWakefulness=Awake\n  mWakefulnessChanging=false\n"), "Awake is not");
        check(!PowerDump.dreaming(head + "  mWakefulnessChanging=false\n  mWakefulness=Awake\n"), "mWakefulnessChanging is another line");
        check(!PowerDump.dreaming(head + "  mWakefulness=Dozing\n"), "Dozing is not a dream (isInteractive is false there)");
        equal(PowerDump.wakefulness(head + "  mWakefulness=\n"), null, "an empty word");
        HelperException e = fails(new Runnable0() { public void run() throws Exception { PowerDump.dreaming("Display Power: state=ON\n"); } }, HelperException.UNSUPPORTED, "a dump without the line");
        check(e.getMessage().contains("nothing was injected"), e.getMessage());
    }

    /** A helper whose input is a pipe the test (the host) holds: closing it is the host going away. */
    static final class Hosted {
        final PipedOutputStream host = new PipedOutputStream();
        final Answers out = new Answers();
        final Server server;
        final Thread loop;
        volatile Throwable failed;

        Hosted(FakeDevice d) throws IOException {
            PipedInputStream helperIn = new PipedInputStream(host, 65536);
            d.host = host;
            server = new Server(d, new DataInputStream(helperIn), out, 60000);
            loop = new Thread(new Runnable() {
                public void run() {
                    try {
                        server.run();
                    } catch (Throwable t) {
                        failed = t;
                    }
                }
            }, "test-helper-loop");
        }

        Hosted send(byte[]... frames) throws IOException {
            for (byte[] f : frames) host.write(f);
            host.flush();
            return this;
        }

        /** Starts the loop, waits (20 s at most) until it ends, and returns the replies after the hello. */
        List<Reply> run() throws Exception {
            loop.start();
            loop.join(20000);
            check(!loop.isAlive(), "the helper's loop ended after the host went away");
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(out.toByteArray()));
            read(in);
            List<Reply> replies = new ArrayList<Reply>();
            while (in.available() > 0) replies.add(read(in));
            return replies;
        }
    }

    /**
     * The host's stream ending in the middle of a touch (Ctrl-C of `arc swipe`, a time limit, the MCP server killed, the
     * adb connection lost): the input thread sees the end, the touch sends no event more, and the fingers still down
     * are lifted with one ACTION_CANCEL naming only them. Before, the touch played on to its end with no host (over a
     * socket), or the helper died of SIGHUP with the fingers down (over adbd's PTY).
     */
    static void hostGoneMidTouchLiftsTheFingersDown() throws Exception {
        // A one-finger swipe of 1 s: the host goes during the third wait (after DOWN and one MOVE).
        FakeDevice swipe = new FakeDevice();
        swipe.hangUpAtSleep = 2;
        List<Reply> r = new Hosted(swipe).send(Frames.encodeRequest(1, "swipe", "0", "0", "100", "0", "1000")).run();
        equal(swipe.pointers, Arrays.asList("0:[0]", "2:[0]", "3:[0]"), "cut short: the finger lifted with ACTION_CANCEL, no MOVE or UP after the host went");
        check(!swipe.log.contains("slept 20 s: not interrupted"), "the wait was cut short: " + swipe.log);
        equal(swipe.stamps.get(2), "3@16", "the cancel carries the touch's down time");
        equal(r.size(), 1, "one answer, written for no one");
        check(r.get(0).text().startsWith("FAILED\tthe host went away (its stream ended) during the touch"), r.get(0).text());

        // Two fingers, the first already lifted (POINTER_UP at 20 ms); the host goes before the MOVE at 40 ms: the
        // cancel names the finger still down only.
        FakeDevice two = new FakeDevice();
        two.hangUpAtSleep = 4;
        new Hosted(two).send(Frames.encodeRequest(1, "gesture", "1,1,0;5,5,20", "9,9,0;6,6,40;7,7,60")).run();
        equal(two.pointers, Arrays.asList("0:[0]", "5:[0, 1]", "2:[0, 1]", "6:[0, 1]", "3:[1]"), "ACTION_CANCEL for the finger still down");

        // A long press (a swipe that does not move) the host leaves before its end: cancelled, so no click follows.
        FakeDevice press = new FakeDevice();
        press.hangUpAtSleep = 1;
        new Hosted(press).send(Frames.encodeRequest(1, "swipe", "50", "50", "50", "50", "2000")).run();
        equal(press.pointers, Arrays.asList("0:[0]", "3:[0]"), "a long press cut short is cancelled, never lifted with ACTION_UP");

        // A double tap whose host goes between its taps: the first tap stands (it was whole), the second never starts,
        // and nothing is down to cancel.
        FakeDevice twice = new FakeDevice();
        twice.hangUpAtSleep = 2;
        new Hosted(twice).send(Frames.encodeRequest(1, "double-tap", "5", "5")).run();
        equal(twice.pointers, Arrays.asList("0:[0]", "1:[0]"), "the second tap not sent, no cancel after a whole tap");
    }

    /** Requests still queued when the host went away run not at all: no one would read their answers. */
    static void hostGoneRunsNothingQueued() throws Exception {
        FakeDevice d = new FakeDevice();
        d.hangUpAtSleep = 1;
        List<Reply> r = new Hosted(d).send(Frames.encodeRequest(1, "swipe", "0", "0", "100", "0", "1000"), Frames.encodeRequest(2, "tap", "5", "5"), Frames.encodeRequest(3, "key", "24")).run();
        equal(d.pointers, Arrays.asList("0:[0]", "3:[0]"), "the swipe cancelled, the tap never sent");
        equal(d.keys.size(), 0, "the key never sent");
        equal(r.size(), 1, "only the request in progress answered");
    }

    /**
     * A key press or a paste in progress when the host goes ends as it would have: the key released, the user's
     * clipboard put back. Keys.press and Typist have no gap of their own; what took these away before was SIGHUP
     * killing the process (which the start command now ignores: helper-session's tests check that).
     */
    static void hostGoneMidKeyOrPasteFinishesIt() throws Exception {
        FakeDevice key = new FakeDevice();
        key.hangUpInKeyDown = true;
        new Hosted(key).send(Frames.encodeRequest(1, "key", "24")).run();
        equal(key.keys, Arrays.asList("down 24 async", "up 24 wait"), "the key released after the host went");

        FakeDevice paste = new FakeDevice();
        paste.hangUpInClipboardSet = true;
        new Hosted(paste).send(Frames.encodeRequest(1, "type", "héllo")).run();
        equal(paste.log, Arrays.asList("save", "set héllo", "host gone", "key 279 with héllo", "key-up 279", "restore user's photo"), "pasted, then the clipboard put back");
        equal(paste.clip, "user's photo", "the user's clipboard is back");
    }

    /**
     * A request stuck when the host goes (a hidden API that never answers) does not keep the helper alive: past the
     * grace the helper ends (Main halts the process, which ends its UiAutomation connection too). A request that
     * ends within the grace is waited for.
     */
    static void hostGoneWithARequestStuckEndsTheHelper() throws Exception {
        FakeDevice stuck = new FakeDevice();
        stuck.hangUpInDump = true;
        stuck.dumpStuckMs = 20000;
        final Hosted h = new Hosted(stuck);
        final List<String> halted = Collections.synchronizedList(new ArrayList<String>());
        h.server.exitIfStuck(100, new Runnable() {
            public void run() {
                halted.add("halt");
                h.loop.interrupt(); // the test's stand-in for the process ending: the stuck dump returns
            }
        });
        h.send(Frames.encodeRequest(1, "dump")).run();
        equal(halted, Arrays.asList("halt"), "the helper ended with the request still stuck");
        check(stuck.log.contains("dump interrupted"), "ended while stuck: " + stuck.log);

        // A read has nothing to finish: stuck, it ends the helper at once (READ_GRACE_MS), whatever the grace of actions.
        FakeDevice read = new FakeDevice();
        read.hangUpInDump = true;
        read.dumpStuckMs = 20000;
        final Hosted r = new Hosted(read);
        final List<String> readHalted = Collections.synchronizedList(new ArrayList<String>());
        r.server.exitIfStuck(60000, new Runnable() {
            public void run() {
                readHalted.add("halt");
                r.loop.interrupt();
            }
        });
        r.send(Frames.encodeRequest(1, "dump")).run();
        equal(readHalted, Arrays.asList("halt"), "a stuck read ends the helper without the actions' grace");
        check(!read.held, "UiAutomation let go at the end");

        // An action that ends within its grace is waited for (a key's press and release, 200 ms here).
        FakeDevice key = new FakeDevice();
        key.hangUpInKeyDown = true;
        final Hosted k = new Hosted(key);
        final List<String> notHalted = Collections.synchronizedList(new ArrayList<String>());
        k.server.exitIfStuck(10000, new Runnable() {
            public void run() {
                notHalted.add("halt");
            }
        });
        k.send(Frames.encodeRequest(1, "key", "24")).run();
        Thread.sleep(50);
        equal(notHalted.size(), 0, "an action that ends within the grace is waited for");
        equal(key.keys, Arrays.asList("down 24 async", "up 24 wait"), "and its key released");
    }

    /** The helper's stdout: every write is one frame (Frames.writeResponse), counted so the host knows what came. */
    static final class Answers extends ByteArrayOutputStream {
        private int frames;

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            super.write(b, off, len);
            frames++;
            notifyAll();
        }

        /** Waits until {@code n} frames (the hello included) came, or 10 s passed. */
        synchronized void await(int n) throws InterruptedException {
            long deadline = System.currentTimeMillis() + 10000;
            while (frames < n && System.currentTimeMillis() < deadline) wait(Math.max(1, deadline - System.currentTimeMillis()));
        }
    }

    /**
     * A host's stream as adb carries it: the requests, then open until every one was answered (or 10 s passed), then
     * its end. The host never ends its stream while it waits for an answer (adb's exec: cannot half-close), and the
     * helper runs nothing it reads after its input ended.
     */
    static final class HostInput extends InputStream {
        private final byte[] bytes;
        private final Answers answers;
        private final int requests;
        private int at;

        HostInput(byte[] bytes, Answers answers, int requests) {
            this.bytes = bytes;
            this.answers = answers;
            this.requests = requests;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) return 0;
            if (at == bytes.length) {
                try {
                    answers.await(requests + 1);
                } catch (InterruptedException e) {
                    throw new IOException(e);
                }
                return -1;
            }
            int n = Math.min(len, bytes.length - at);
            System.arraycopy(bytes, at, b, off, n);
            at += n;
            return n;
        }
    }

    /** One response read from the server's stdout. */
    static final class Reply {
        int id;
        int status;
        byte[] payload;

        String text() {
            return utf8(payload, 0);
        }
    }

    static Reply read(DataInputStream in) throws IOException {
        int length = in.readInt();
        Reply r = new Reply();
        r.id = in.readInt();
        r.status = in.readUnsignedByte();
        r.payload = new byte[length - 5];
        in.readFully(r.payload);
        return r;
    }

    static List<Long> tail(List<Long> list, int n) {
        return new ArrayList<Long>(list.subList(Math.max(0, list.size() - n), list.size()));
    }

    /** The dump's reply after the request loop ran these frames on a device whose clock the test turns. */
    static String dumpHead(FakeDevice d, byte[]... frames) throws Exception {
        List<Reply> replies = serve(d, frames);
        String text = replies.get(replies.size() - 1).text();
        check(text.endsWith("\n<displays/>"), "the document follows the head line: " + text);
        return text.substring(0, text.indexOf('\n'));
    }

    /**
     * A read right after an input waits for QUIET_MS without accessibility events, counted from the input itself (a
     * read 1 ms after a tap comes before the app sent anything), then from each event that came; the bound ends the
     * wait and the reply says so; a screen nobody touched lately reads at once.
     */
    static void readsWaitForTheScreenToSettle() throws Exception {
        // No input: the dump reads at once, without even asking for events.
        FakeDevice idle = new FakeDevice();
        idle.clock = 10000;
        equal(dumpHead(idle, Frames.encodeRequest(1, "dump")), "settled\t0", "no input: no wait");
        equal(idle.sleptUntil, new ArrayList<Long>(), "no sleep");

        // A tap, then a read with no event yet: quiet counts from the tap's end, not from the read or the connection.
        FakeDevice tapped = new FakeDevice();
        tapped.clock = 10000;
        equal(dumpHead(tapped, Frames.encodeRequest(1, "tap", "5", "5"), Frames.encodeRequest(2, "dump")), "settled\t" + Settle.QUIET_MS, "a read right after a tap waits QUIET_MS");
        equal(tail(tapped.sleptUntil, 1), Arrays.asList(10000 + Settle.QUIET_MS), "until QUIET_MS after the tap");

        // The click's event at once, the new window's 300 ms later: quiet counts from the last one.
        FakeDevice opening = new FakeDevice();
        opening.clock = 10000;
        opening.events.addAll(Arrays.asList(10010L, 10300L));
        equal(dumpHead(opening, Frames.encodeRequest(1, "tap", "5", "5"), Frames.encodeRequest(2, "dump")), "settled\t" + (300 + Settle.QUIET_MS), "quiet from the new window's event");
        equal(tail(opening.sleptUntil, 2), Arrays.asList(10000 + Settle.QUIET_MS, 10300 + Settle.QUIET_MS), "woke at 500, saw the event at 300, slept until 800");

        // A spinner: events every 100 ms. The bound ends the wait, and the read goes ahead, unsettled.
        FakeDevice spinner = new FakeDevice();
        spinner.clock = 10000;
        for (long t = 10000; t < 20000; t += 100) spinner.events.add(t);
        equal(dumpHead(spinner, Frames.encodeRequest(1, "key", "66"), Frames.encodeRequest(2, "dump")), "unsettled\t" + Settle.BOUND_MS, "a screen that never settles: read after the bound, said");
        check(spinner.log.contains("dump"), "it was read anyway");

        // The host's own action (over ADB: `input keyevent`, `am start`), reported as `dump SINCE_MS`.
        FakeDevice host = new FakeDevice();
        host.clock = 10000;
        equal(dumpHead(host, Frames.encodeRequest(1, "dump", "100")), "settled\t" + (Settle.QUIET_MS - 100), "quiet counted from the host's action 100 ms ago");
        FakeDevice old = new FakeDevice();
        old.clock = 10000;
        old.events.add(9990L);
        equal(dumpHead(old, Frames.encodeRequest(1, "dump", String.valueOf(Settle.BOUND_MS))), "settled\t0", "an action BOUND_MS ago: no wait");
        FakeDevice bad = new FakeDevice();
        check(serve(bad, Frames.encodeRequest(1, "dump", "-1")).get(0).text().startsWith("BAD_REQUEST\tdump since is \"-1\""), "a negative since is refused");
        check(!bad.log.contains("dump"), "and nothing read");
    }

    static void serverSession() throws Exception {
        FakeDevice d = new FakeDevice();
        ByteArrayOutputStream requests = new ByteArrayOutputStream();
        requests.write(Frames.encodeRequest(1, "ping"));
        requests.write(Frames.encodeRequest(2, "dump"));
        requests.write(Frames.encodeRequest(3, "screenshot", "540", "0", "80"));
        requests.write(Frames.encodeRequest(4, "screenshot", "540", "0", "0"));
        requests.write(Frames.encodeRequest(5, "clipboard-get"));
        requests.write(Frames.encodeRequest(6, "clipboard-set", "中文"));
        requests.write(Frames.encodeRequest(7, "clipboard-get"));
        requests.write(Frames.encodeRequest(8, "frobnicate"));
        requests.write(Frames.encodeRequest(9, "gesture", "1,1,0;5,5,20", "9,9,0;6,6,20"));
        requests.write(Frames.encodeRequest(10, "ping", "extra"));
        requests.write(Frames.encodeRequest(11, "release"));
        requests.write(Frames.encodeRequest(12, "screenshot", "0", "0", "100", "png"));
        requests.write(Frames.encodeRequest(13, "screenshot", "0", "0", "100", "gif"));
        requests.write(Frames.encodeRequest(14, "ime-action"));
        requests.write(Frames.encodeRequest(15, "quit"));
        requests.write(Frames.encodeRequest(16, "ping"));
        Answers out = new Answers();
        new Server(d, new DataInputStream(new HostInput(requests.toByteArray(), out, 16)), out, 60000).run();
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(out.toByteArray()));
        Reply hello = read(in);
        equal(hello.status, Frames.STATUS_HELLO, "hello first");
        equal(hello.text(), "arc-helper 1\t34\tclipboard", "hello names the protocol, the API level and what is missing");
        equal(read(in).text(), "pong", "ping");
        equal(read(in).text(), "settled\t0\n<displays/>", "dump: no input before it, so no wait");
        Reply shot = read(in);
        equal(shot.payload.length, 2, "screenshot bytes");
        Reply badQuality = read(in);
        equal(badQuality.status, Frames.STATUS_ERROR, "quality 0 refused");
        check(badQuality.text().startsWith("BAD_REQUEST\tscreenshot quality is \"0\""), badQuality.text());
        Reply other = read(in);
        equal(Arrays.toString(other.payload), "[2]", "a clipboard holding something other than text");
        equal(read(in).payload.length, 0, "clipboard-set");
        Reply text = read(in);
        equal((int) text.payload[0], 1, "clipboard text marker");
        equal(utf8(text.payload, 1), "中文", "clipboard text");
        Reply unknown = read(in);
        equal(unknown.id, 8, "error keeps the id");
        equal(unknown.text(), "BAD_REQUEST\tunknown operation \"frobnicate\"", "unknown operation");
        equal(read(in).status, Frames.STATUS_OK, "gesture");
        equal(read(in).text(), "BAD_REQUEST\tping takes 0 argument(s), got 1", "argument count");
        equal(read(in).text(), "released", "release while held");
        Reply png = read(in);
        equal(png.payload[0] & 0xff, 0x89, "a PNG screenshot where asked");
        Reply gif = read(in);
        equal(gif.text(), "BAD_REQUEST\tscreenshot format is \"gif\"; png or jpeg is allowed", "an unknown format refused");
        Reply ime = read(in);
        equal(ime.status, Frames.STATUS_OK, "ime-action");
        Reply quit = read(in);
        equal(quit.id, 15, "quit answered");
        equal(in.available(), 0, "nothing after quit");
        check(d.log.containsAll(Arrays.asList("inject 0 at 0", "inject 5 at 0", "inject 2 at 20", "inject 6 at 20", "inject 1 at 20")), "gesture events: " + d.log);
        check(d.log.containsAll(Arrays.asList("screenshot 540x0@80 jpeg", "screenshot 0x0@100 png", "ime-action")), "screenshot formats and ime-action: " + d.log);

        // A gesture cut off midway lifts the fingers with ACTION_CANCEL and reports the failure.
        FakeDevice cut = new FakeDevice();
        cut.injectFailAt = 1;
        cut.injectFailure = new HelperException(HelperException.FAILED, "refused");
        Answers o2 = new Answers();
        new Server(cut, new DataInputStream(new HostInput(Frames.encodeRequest(1, "gesture", "1,1,0;5,5,20"), o2, 1)), o2, 60000).run();
        DataInputStream in2 = new DataInputStream(new ByteArrayInputStream(o2.toByteArray()));
        read(in2);
        equal(read(in2).text(), "FAILED\trefused", "the failure is reported");
        equal(cut.log, Arrays.asList("interactive? true", "dreaming? false", "inject 0 at 0", "inject 3 at 0"), "cancelled after the failure");

        // Whatever the failure's own code, once an event went out it is FAILED: the host must not play the touch again.
        for (byte[] request : Arrays.asList(Frames.encodeRequest(1, "tap", "5", "5"), Frames.encodeRequest(2, "gesture", "1,1,0;5,5,20"))) {
            FakeDevice partial = new FakeDevice();
            partial.injectFailAt = 1;
            partial.injectFailure = new HelperException(HelperException.UNSUPPORTED, "injectInputEvent takes other arguments on this release");
            Reply reply = serve(partial, request).get(0);
            check(reply.text().startsWith("FAILED\tthe touch began, then failed (UNSUPPORTED): injectInputEvent takes"), "a touch cut off is FAILED: " + reply.text());
            equal(partial.injected, 3, "the finger lifted with ACTION_CANCEL after the failure");
        }
    }

    /**
     * However a touch is cut off after its first event, the fingers still down are lifted with one ACTION_CANCEL of
     * that touch, naming only the pointers down: a finger already lifted by ACTION_POINTER_UP is not in it.
     */
    static void touchCutOffLiftsTheFingersDown() throws Exception {
        // Two fingers; the first lifts at 20 ms (POINTER_UP), the second moves on to 40 ms, where injection fails.
        FakeDevice lifted = new FakeDevice();
        lifted.injectFailAt = 4;
        lifted.injectFailure = new HelperException(HelperException.FAILED, "refused");
        Reply r = serve(lifted, Frames.encodeRequest(1, "gesture", "1,1,0;5,5,20", "9,9,0;6,6,40")).get(0);
        equal(r.text(), "FAILED\trefused", "the failure is reported");
        equal(lifted.pointers, Arrays.asList("0:[0]", "5:[0, 1]", "2:[0, 1]", "6:[0, 1]", "3:[1]"), "cancelled with the finger still down only");
        equal(lifted.stamps.get(4), "3@20", "the cancel carries the touch's down time");

        // Interrupted between two events: the finger down is lifted too.
        FakeDevice interrupted = new FakeDevice();
        interrupted.interruptAt = 1;
        Reply i = serve(interrupted, Frames.encodeRequest(1, "gesture", "1,1,0;5,5,20")).get(0);
        equal(i.text(), "FAILED\tthe gesture was interrupted", "an interrupted touch is FAILED");
        equal(interrupted.pointers, Arrays.asList("0:[0]", "3:[0]"), "cancelled after the interruption");

        // An injection that throws an unchecked exception (MotionEvent, reflection) after the first event.
        FakeDevice thrown = new FakeDevice();
        thrown.injectFailAt = 2;
        thrown.injectThrows = new IllegalStateException("recycled twice");
        Reply t = serve(thrown, Frames.encodeRequest(1, "swipe", "0", "0", "100", "0", "40")).get(0);
        equal(t.text(), "FAILED\tjava.lang.IllegalStateException: recycled twice", "an unchecked failure is FAILED");
        equal(thrown.pointers, Arrays.asList("0:[0]", "2:[0]", "3:[0]"), "cancelled after the unchecked failure");

        // A double tap cut off after its first tap ended: nothing is down, nothing to cancel.
        FakeDevice between = new FakeDevice();
        between.injectFailAt = 2;
        between.injectFailure = new HelperException(HelperException.FAILED, "refused");
        serve(between, Frames.encodeRequest(1, "double-tap", "5", "5"));
        equal(between.pointers, Arrays.asList("0:[0]", "1:[0]"), "no cancel after a finished tap");
    }

    static void serverIdleRelease() throws Exception {
        final FakeDevice d = new FakeDevice();
        PipedOutputStream hostSide = new PipedOutputStream();
        final PipedInputStream helperIn = new PipedInputStream(hostSide, 65536);
        PipedInputStream hostIn = new PipedInputStream(65536);
        final PipedOutputStream helperOut = new PipedOutputStream(hostIn);
        Thread loop = new Thread(new Runnable() {
            public void run() {
                try {
                    new Server(d, new DataInputStream(helperIn), helperOut, 100).run();
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            }
        });
        loop.start();
        DataInputStream in = new DataInputStream(hostIn);
        read(in);
        hostSide.write(Frames.encodeRequest(1, "dump"));
        hostSide.flush();
        read(in);
        long deadline = System.currentTimeMillis() + 10000;
        while (d.releases == 0 && System.currentTimeMillis() < deadline) Thread.sleep(20);
        equal(d.releases, 1, "UiAutomation let go after the idle time");
        check(!d.held, "not held while idle");
        hostSide.write(Frames.encodeRequest(2, "dump"));
        hostSide.flush();
        read(in);
        hostSide.close();
        loop.join(10000);
        check(!loop.isAlive(), "the loop ends when the host closes stdin");
        check(!d.held, "released at the end");
    }
}
