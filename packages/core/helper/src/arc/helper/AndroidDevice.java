package arc.helper;

import android.accessibilityservice.AccessibilityServiceInfo;
import android.app.UiAutomation;
import android.content.ClipData;
import android.content.ClipDescription;
import android.graphics.Bitmap;
import android.graphics.Rect;
import android.os.HandlerThread;
import android.os.IBinder;
import android.os.Looper;
import android.os.PersistableBundle;
import android.os.SystemClock;
import android.util.SparseArray;
import android.view.InputDevice;
import android.view.InputEvent;
import android.view.KeyCharacterMap;
import android.view.KeyEvent;
import android.view.MotionEvent;
import android.view.accessibility.AccessibilityEvent;
import android.view.accessibility.AccessibilityNodeInfo;
import android.view.accessibility.AccessibilityWindowInfo;

import java.io.ByteArrayOutputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The platform side, for the shell user an {@code app_process} runs as. API facts (not code) from AOSP
 * (UiAutomation, UiAutomationConnection, AccessibilityNodeInfoDumper, InputManager) and scrcpy's server (hidden
 * service calls by reflection, Apache-2.0):
 * <ul>
 * <li>UiAutomation: a hidden {@code UiAutomationConnection}, {@code new UiAutomation(Looper, connection)}, then
 * {@code connect(FLAG_DONT_SUPPRESS_ACCESSIBILITY_SERVICES)} (API 24+, so TalkBack keeps running), with
 * FLAG_RETRIEVE_INTERACTIVE_WINDOWS for every window; {@code getWindowsOnAllDisplays()} from API 30.</li>
 * <li>Input: the hidden {@code InputManager.getInstance().injectInputEvent(event, mode)} (InputManagerGlobal from
 * API 34); the shell holds INJECT_EVENTS.</li>
 * <li>Clipboard: {@code IClipboard} through {@code ServiceManager.getService("clipboard")}, as package
 * com.android.shell, whose methods gained a user id (API 29), an attribution tag (API 33, not on every 33 build) and a
 * device id (API 34); picked by the first parameter, the rest filled by type (Reflect.fill).</li>
 * <li>Power: {@code IPowerManager.isInteractive()} through {@code ServiceManager.getService("power")} (API 20+), the
 * state the input dispatcher consults before passing an injected touch on.</li>
 * <li>Dreams: {@code IDreamManager.isDreaming()} through {@code ServiceManager.getService("dreams")} (API 17+), as
 * the power manager's isInteractive is also true while a screensaver shows; it needs READ_DREAM_STATE, which the
 * shell holds only on newer releases (AOSP packages/Shell/AndroidManifest.xml: not on Android 10; on 15 under
 * "Permissions required to test ambient display"); where refused, {@code dumpsys power}'s mWakefulness (PowerDump).</li>
 * </ul>
 */
final class AndroidDevice implements Device {
    private static final String SHELL_PACKAGE = "com.android.shell";
    /** SystemUI's extra that keeps its clipboard overlay away from a clip the shell sets (Android 13+). */
    private static final String SUPPRESS_CLIPBOARD_OVERLAY = "com.android.systemui.SUPPRESS_CLIPBOARD_OVERLAY";
    /** UiAutomation.FLAG_DONT_SUPPRESS_ACCESSIBILITY_SERVICES (API 24). */
    private static final int FLAG_DONT_SUPPRESS_ACCESSIBILITY_SERVICES = 1;
    /** InputManager.INJECT_INPUT_EVENT_MODE_ASYNC and _WAIT_FOR_FINISH. */
    private static final int INJECT_ASYNC = 0;
    private static final int INJECT_WAIT_FOR_FINISH = 2;
    /** MotionEvent.FLAG_CANCELED (API 33; IInputConstants.INPUT_EVENT_FLAG_CANCELED). */
    private static final int FLAG_CANCELED = 0x20;
    private static final long CONNECT_TIMEOUT_MS = 5000;
    private static final int MAX_DEPTH = 500;

    private final int sdk = android.os.Build.VERSION.SDK_INT;
    private HandlerThread thread;
    private UiAutomation automation;
    /** When (uptimeMillis) a UiAutomation of this helper last received an accessibility event (Settle). */
    private volatile long lastEvent = Settle.NONE;
    private Object inputManager;
    private Method inject;
    private Object clipboard;
    private Object power;
    private Method isInteractive;
    private Object dreams;
    private Method isDreaming;
    /** The release has no dream manager to ask (no service, class or method): no screensaver can show. */
    private boolean noDreams;
    /** The release refuses isDreaming to the shell (no READ_DREAM_STATE): asked once, then dumpsys power is read. */
    private String dreamsRefused;

    public int sdk() {
        return sdk;
    }

    public List<String> missing() {
        List<String> missing = new ArrayList<String>();
        try {
            Class<?> connection = Reflect.type("android.app.UiAutomationConnection");
            connection.getDeclaredConstructor();
            UiAutomation.class.getDeclaredConstructor(Looper.class, Reflect.type("android.app.IUiAutomationConnection"));
        } catch (Exception e) {
            missing.add("uiautomation");
        }
        try {
            input();
        } catch (HelperException e) {
            missing.add("input");
        }
        try {
            clipboardService();
        } catch (HelperException e) {
            missing.add("clipboard");
        }
        if (sdk < Typist.PASTE_SDK) missing.add("paste");
        return missing;
    }

    public long uptimeMillis() {
        return SystemClock.uptimeMillis();
    }

    public void sleepUntil(long time) throws InterruptedException {
        long wait = time - SystemClock.uptimeMillis();
        if (wait > 0) Thread.sleep(wait);
    }

    public boolean holdsUiAutomation() {
        return automation != null;
    }

    public void release() {
        UiAutomation held = automation;
        automation = null;
        if (held == null) return;
        Method disconnect = Reflect.find(UiAutomation.class, "disconnect");
        if (disconnect == null) return;
        try {
            Reflect.call(disconnect, held);
        } catch (HelperException e) {
            // already gone: nothing is held either way
        }
    }

    // ---- UiAutomation ----

    /**
     * The connection for a read of windows or nodes. One kept from an earlier request (adb.helperHoldMs) answers
     * node queries from its accessibility cache, which only events (up to 100 ms late) update: its cache is
     * cleared first (UiCache), or, where the release offers no way to clear it, the connection is let go and a
     * new one serves the read. A new connection is cleared too: it starts empty where configure's setServiceInfo
     * ran (it clears the cache on every release), but API 21-32 share one cache per process, and configure skips
     * setServiceInfo where getServiceInfo answered null.
     */
    private UiAutomation forRead() throws HelperException {
        boolean kept = automation != null;
        UiAutomation ui = automation();
        if (UiCache.clear(ui, interactionClient()) != null || !kept) return ui;
        release();
        return automation();
    }

    private static Class<?> interactionClient() {
        try {
            return Class.forName(UiCache.CLIENT);
        } catch (Throwable e) {
            return null;
        }
    }

    private UiAutomation automation() throws HelperException {
        if (automation != null) return automation;
        if (thread == null) {
            thread = new HandlerThread("arc-helper-uiautomation");
            thread.start();
        }
        final Object connection;
        final UiAutomation ui;
        try {
            Constructor<?> cc = Reflect.type("android.app.UiAutomationConnection").getDeclaredConstructor();
            cc.setAccessible(true);
            connection = cc.newInstance();
            Constructor<UiAutomation> uc = UiAutomation.class.getDeclaredConstructor(Looper.class, Reflect.type("android.app.IUiAutomationConnection"));
            uc.setAccessible(true);
            ui = uc.newInstance(thread.getLooper(), connection);
        } catch (HelperException e) {
            throw e;
        } catch (Exception e) {
            throw new HelperException(HelperException.UNSUPPORTED, "cannot create a UiAutomation on API " + sdk + ": " + e, e);
        }
        UiConnect.connect(new UiConnect.Steps() {
            public void connect() throws Exception {
                AndroidDevice.this.connect(ui);
            }

            public void configure() {
                AccessibilityServiceInfo info = ui.getServiceInfo();
                if (info != null) {
                    info.flags |= AccessibilityServiceInfo.FLAG_RETRIEVE_INTERACTIVE_WINDOWS
                            | AccessibilityServiceInfo.FLAG_INCLUDE_NOT_IMPORTANT_VIEWS
                            | AccessibilityServiceInfo.FLAG_REPORT_VIEW_IDS;
                    ui.setServiceInfo(info);
                }
            }

            public void undo() {
                undoConnect(ui, connection);
            }
        });
        // Every event from now on moves the helper's event clock (Settle); the listener runs on the looper given to
        // the UiAutomation (AOSP UiAutomation: onAccessibilityEvent posts it to mLocalCallbackHandler), and gets a copy
        // of the event to recycle. The time taken is the event's arrival, not its getEventTime(): what was seen.
        ui.setOnAccessibilityEventListener(new UiAutomation.OnAccessibilityEventListener() {
            public void onAccessibilityEvent(AccessibilityEvent event) {
                lastEvent = SystemClock.uptimeMillis();
                event.recycle();
            }
        });
        automation = ui;
        return ui;
    }

    public long lastEvent() throws HelperException {
        automation();
        return lastEvent;
    }

    /**
     * Unregisters a UiAutomation whose connection failed part way. UiAutomation.disconnect() first: on 11+ after a
     * timeout (state FAILED) it unregisters and quits UiAutomation's own callback thread. Where it refuses (5-10:
     * "Not connected!", as the wait never saw the service; 11+: "Cannot call disconnect() while connecting" after
     * connect threw), the connection's own disconnect() unregisters what connect registered (AOSP
     * UiAutomationConnection.disconnect; it throws "Already disconnected." where nothing was registered).
     */
    private static void undoConnect(UiAutomation ui, Object connection) {
        Method disconnect = Reflect.find(UiAutomation.class, "disconnect");
        if (disconnect != null) {
            try {
                Reflect.call(disconnect, ui);
                return;
            } catch (HelperException e) {
                // refused: the connection's own disconnect below
            }
        }
        Method own = Reflect.find(connection.getClass(), "disconnect");
        if (own == null) return;
        try {
            Reflect.call(own, connection);
        } catch (HelperException e) {
            // nothing was registered
        }
    }

    /** connectWithTimeout(flags, ms) where it exists (API 30+), else connect(flags) (24+), else connect(). */
    private void connect(UiAutomation ui) throws HelperException {
        Method m = Reflect.find(UiAutomation.class, "connectWithTimeout", int.class, long.class);
        Object[] args = {FLAG_DONT_SUPPRESS_ACCESSIBILITY_SERVICES, CONNECT_TIMEOUT_MS};
        if (m == null) {
            m = Reflect.find(UiAutomation.class, "connect", int.class);
            args = new Object[] {FLAG_DONT_SUPPRESS_ACCESSIBILITY_SERVICES};
        }
        if (m == null) {
            m = Reflect.find(UiAutomation.class, "connect");
            args = new Object[0];
        }
        if (m == null) throw new HelperException(HelperException.UNSUPPORTED, "UiAutomation has no connect method on API " + sdk);
        Reflect.call(m, ui, args);
    }

    public String dumpWindows() throws HelperException {
        UiAutomation ui = forRead();
        Map<Integer, List<UiWindow>> displays = new TreeMap<Integer, List<UiWindow>>();
        Map<Integer, int[]> sizes = new TreeMap<Integer, int[]>();
        Method all = sdk >= 30 ? Reflect.find(UiAutomation.class, "getWindowsOnAllDisplays") : null;
        if (all != null) {
            SparseArray<?> byDisplay = (SparseArray<?>) Reflect.call(all, ui);
            for (int i = 0; i < byDisplay.size(); i++) {
                displays.put(byDisplay.keyAt(i), windows((List<?>) byDisplay.valueAt(i)));
            }
        } else {
            displays.put(0, windows(ui.getWindows()));
        }
        int rotation = 0;
        for (Integer id : displays.keySet()) {
            int[] info = displayInfo(id);
            if (info == null) continue;
            sizes.put(id, new int[] {info[0], info[1]});
            if (id == 0) rotation = info[2];
        }
        boolean any = false;
        for (List<UiWindow> list : displays.values()) any |= !list.isEmpty();
        if (!any) throw new HelperException(HelperException.FAILED, "UiAutomation listed no window");
        return DisplaysXml.write(displays, sizes, rotation);
    }

    private List<UiWindow> windows(List<?> infos) {
        List<UiWindow> out = new ArrayList<UiWindow>();
        Set<Integer> nested = new HashSet<Integer>();
        for (Object o : infos) collectChildIds((AccessibilityWindowInfo) o, nested, false);
        for (Object o : infos) {
            AccessibilityWindowInfo info = (AccessibilityWindowInfo) o;
            if (!nested.contains(info.getId())) out.add(window(info, 0));
        }
        return out;
    }

    private static void collectChildIds(AccessibilityWindowInfo info, Set<Integer> ids, boolean self) {
        if (self) ids.add(info.getId());
        for (int i = 0; i < info.getChildCount(); i++) {
            AccessibilityWindowInfo child = info.getChild(i);
            if (child != null) collectChildIds(child, ids, true);
        }
    }

    private UiWindow window(AccessibilityWindowInfo info, int depth) {
        UiWindow w = new UiWindow();
        Rect r = new Rect();
        info.getBoundsInScreen(r);
        w.left = r.left;
        w.top = r.top;
        w.right = r.right;
        w.bottom = r.bottom;
        Method title = Reflect.find(AccessibilityWindowInfo.class, "getTitle");
        if (title != null) {
            try {
                w.title = str(Reflect.call(title, info));
            } catch (HelperException e) {
                w.title = "";
            }
        }
        w.active = info.isActive();
        w.focused = info.isFocused();
        w.accessibilityFocused = info.isAccessibilityFocused();
        w.id = info.getId();
        w.layer = info.getLayer();
        w.type = UiWindow.typeName(info.getType());
        if (depth < 8) {
            for (int i = 0; i < info.getChildCount(); i++) {
                AccessibilityWindowInfo child = info.getChild(i);
                if (child != null) w.children.add(window(child, depth + 1));
            }
        }
        AccessibilityNodeInfo root = info.getRoot();
        if (root != null) w.root = node(root, 0);
        return w;
    }

    private UiNode node(AccessibilityNodeInfo info, int depth) {
        UiNode n = new UiNode();
        n.text = str(info.getText());
        n.resourceId = str(info.getViewIdResourceName());
        n.className = str(info.getClassName());
        n.packageName = str(info.getPackageName());
        n.contentDesc = str(info.getContentDescription());
        // The shell's uiautomator writes a hint attribute from Android 16 (API 36) only; writing it on older releases
        // would change the ids of edit fields between this dump and uiautomator's (the hint is part of their key).
        if (sdk >= 36) {
            Method hint = Reflect.find(AccessibilityNodeInfo.class, "getHintText");
            if (hint != null) {
                try {
                    n.hint = str(Reflect.call(hint, info));
                } catch (HelperException e) {
                    n.hint = null;
                }
            }
        }
        n.checkable = info.isCheckable();
        n.checked = info.isChecked();
        n.clickable = info.isClickable();
        n.enabled = info.isEnabled();
        n.focusable = info.isFocusable();
        n.focused = info.isFocused();
        n.scrollable = info.isScrollable();
        n.longClickable = info.isLongClickable();
        n.password = info.isPassword();
        n.selected = info.isSelected();
        n.visibleToUser = info.isVisibleToUser();
        Rect r = new Rect();
        info.getBoundsInScreen(r);
        n.bounds(r.left, r.top, r.right, r.bottom);
        if (depth < MAX_DEPTH) {
            for (int i = 0; i < info.getChildCount(); i++) {
                AccessibilityNodeInfo child = info.getChild(i);
                n.children.add(child == null ? null : node(child, depth + 1));
                if (child != null) child.recycle();
            }
        }
        return n;
    }

    private static String str(Object o) {
        return o == null ? "" : o.toString();
    }

    /** Width, height (current rotation) and rotation of a display, from DisplayManagerGlobal's DisplayInfo; null if hidden. */
    private static int[] displayInfo(int displayId) {
        try {
            Class<?> global = Class.forName("android.hardware.display.DisplayManagerGlobal");
            Object instance = global.getDeclaredMethod("getInstance").invoke(null);
            Object info = global.getMethod("getDisplayInfo", int.class).invoke(instance, displayId);
            if (info == null) return null;
            Class<?> c = info.getClass();
            Field w = c.getField("logicalWidth");
            Field h = c.getField("logicalHeight");
            Field rot = c.getField("rotation");
            return new int[] {w.getInt(info), h.getInt(info), rot.getInt(info)};
        } catch (Exception e) {
            return null;
        }
    }

    public byte[] screenshot(int maxWidth, int maxHeight, int quality, boolean png) throws HelperException {
        Bitmap shot = automation().takeScreenshot();
        if (shot == null) throw new HelperException(HelperException.FAILED, "UiAutomation.takeScreenshot gave no image (a secure window, or the screen is off)");
        try {
            int w = shot.getWidth();
            int h = shot.getHeight();
            double k = 1.0;
            if (maxWidth > 0 && w > maxWidth) k = Math.min(k, (double) maxWidth / w);
            if (maxHeight > 0 && h > maxHeight) k = Math.min(k, (double) maxHeight / h);
            Bitmap out = shot;
            if (k < 1.0) out = Bitmap.createScaledBitmap(shot, Math.max(1, (int) Math.round(w * k)), Math.max(1, (int) Math.round(h * k)), true);
            ByteArrayOutputStream encoded = new ByteArrayOutputStream(256 * 1024);
            Bitmap.CompressFormat format = png ? Bitmap.CompressFormat.PNG : Bitmap.CompressFormat.JPEG;
            if (!out.compress(format, quality, encoded)) throw new HelperException(HelperException.FAILED, (png ? "PNG" : "JPEG") + " compression failed");
            if (out != shot) out.recycle();
            return encoded.toByteArray();
        } finally {
            shot.recycle();
        }
    }

    // ---- The editor action ----

    public void imeAction() throws HelperException {
        if (sdk < 30) throw new HelperException(HelperException.UNSUPPORTED, "the editor action (AccessibilityAction.ACTION_IME_ENTER) needs Android 11 (API 30); this is API " + sdk);
        int action;
        try {
            action = Class.forName("android.R$id").getField("accessibilityActionImeEnter").getInt(null);
        } catch (Exception e) {
            throw new HelperException(HelperException.UNSUPPORTED, "android.R.id.accessibilityActionImeEnter is missing on API " + sdk, e);
        }
        AccessibilityNodeInfo field = forRead().findFocus(AccessibilityNodeInfo.FOCUS_INPUT);
        if (field == null) throw new HelperException(HelperException.FAILED, "no field has input focus: tap a text field first");
        try {
            if (!field.performAction(action)) throw new HelperException(HelperException.FAILED, "the focused field refused its editor action (it is not an editable text field, or it is disabled)");
        } finally {
            field.recycle();
        }
    }

    // ---- Clipboard ----

    private Object clipboardService() throws HelperException {
        if (clipboard != null) return clipboard;
        Class<?> sm = Reflect.type("android.os.ServiceManager");
        Method get = Reflect.find(sm, "getService", String.class);
        if (get == null) throw new HelperException(HelperException.UNSUPPORTED, "ServiceManager.getService is hidden on API " + sdk);
        IBinder binder = (IBinder) Reflect.call(get, null, "clipboard");
        if (binder == null) throw new HelperException(HelperException.UNSUPPORTED, "no clipboard service");
        Class<?> stub = Reflect.type("android.content.IClipboard$Stub");
        Method asInterface = Reflect.find(stub, "asInterface", IBinder.class);
        if (asInterface == null) throw new HelperException(HelperException.UNSUPPORTED, "IClipboard.Stub.asInterface is missing");
        clipboard = Reflect.call(asInterface, null, binder);
        return clipboard;
    }

    private Object clipboardCall(String name, Class<?> first, Object... leading) throws HelperException {
        Object service = clipboardService();
        Method m = Reflect.findByName(Reflect.type("android.content.IClipboard"), name, first);
        if (m == null) throw new HelperException(HelperException.UNSUPPORTED, "IClipboard." + name + " is missing on API " + sdk);
        return Reflect.call(m, service, Reflect.fill(m, leading));
    }

    /**
     * The clipboard as it is. While the device is locked (a secure lock screen shows) AOSP ClipboardService's
     * getPrimaryClip answers null whatever the clipboard holds (Android 10's and later's `|| isDeviceLocked(...)`
     * check): that null is no empty clipboard, so it is refused UNSUPPORTED, before anything is set or typed. Else a
     * read said "empty" for a full clipboard, and a paste typed on the lock screen put "empty" back: the user's clip
     * cleared.
     */
    public Object saveClipboard() throws HelperException {
        Object clip = clipboardCall("getPrimaryClip", String.class, SHELL_PACKAGE);
        if (clip == null && deviceLocked())
            throw new HelperException(HelperException.UNSUPPORTED, "the device is locked: Android hides the clipboard until it is unlocked (ClipboardService answers no clip while KeyguardManager.isDeviceLocked), so it was not read and nothing was set; unlock the device first");
        return clip;
    }

    /**
     * KeyguardManager.isDeviceLocked's answer, which ClipboardService asks: ITrustManager.isDeviceLocked(userId) from
     * API 22, with a device id from API 34, through ServiceManager.getService("trust") (no permission for the calling
     * user's own lock). False where the release cannot say (API 21 has no such method): the read stays as it was.
     */
    private boolean deviceLocked() {
        try {
            IBinder binder = service("trust");
            if (binder == null) return false;
            Method asInterface = Reflect.find(Reflect.type("android.app.trust.ITrustManager$Stub"), "asInterface", IBinder.class);
            Object trust = asInterface == null ? null : Reflect.call(asInterface, null, binder);
            Method m = Reflect.findByName(Reflect.type("android.app.trust.ITrustManager"), "isDeviceLocked", int.class);
            if (trust == null || m == null) return false;
            return Boolean.TRUE.equals(Reflect.call(m, trust, Reflect.fill(m, 0)));
        } catch (HelperException e) {
            return false;
        }
    }

    public String clipboardText() throws HelperException {
        ClipData clip = (ClipData) saveClipboard();
        if (clip == null || clip.getItemCount() == 0) return null;
        CharSequence text = clip.getItemAt(0).getText();
        return text == null ? null : text.toString();
    }

    public void setClipboardText(String text) throws HelperException {
        clipboardCall("setPrimaryClip", ClipData.class, quiet(ClipData.newPlainText(null, text)), SHELL_PACKAGE);
    }

    /**
     * Marks a clip the shell sets so SystemUI shows no clipboard overlay for it. From Android 13 SystemUI's
     * ClipboardListener opens its overlay (a preview of the clip over the app, for some seconds) on every new clip,
     * except where the clip's source is com.android.shell (or the device an emulator) and its description's extras
     * hold com.android.systemui.SUPPRESS_CLIPBOARD_OVERLAY true (AOSP frameworks/base packages/SystemUI
     * .../clipboardoverlay/ClipboardListener.java, shouldSuppressOverlay: "meant to suppress the overlay when the
     * emulator or a mirrored device is syncing the clipboard"). Without it each paste typed showed the overlay twice
     * (the text, then the user's clip put back), over the field typed into and in the next screen read. Extras the clip
     * had are kept. ClipDescription.get/setExtras are API 24 (by reflection: android.jar is API 23).
     */
    private Object quiet(Object clip) {
        if (sdk < 33 || !(clip instanceof ClipData)) return clip;
        ClipDescription description = ((ClipData) clip).getDescription();
        Method get = Reflect.find(ClipDescription.class, "getExtras");
        Method set = Reflect.find(ClipDescription.class, "setExtras", PersistableBundle.class);
        if (description == null || get == null || set == null) return clip;
        try {
            PersistableBundle had = (PersistableBundle) Reflect.call(get, description);
            PersistableBundle extras = had == null ? new PersistableBundle() : new PersistableBundle(had);
            extras.putBoolean(SUPPRESS_CLIPBOARD_OVERLAY, true);
            Reflect.call(set, description, extras);
        } catch (HelperException e) {
            // the overlay shows, as for any clip: the clip itself is still set
        }
        return clip;
    }

    public void restoreClipboard(Object saved) throws HelperException {
        if (saved != null) {
            clipboardCall("setPrimaryClip", ClipData.class, quiet(saved), SHELL_PACKAGE);
        } else if (sdk >= 28) {
            clipboardCall("clearPrimaryClip", String.class, SHELL_PACKAGE);
        } else {
            // No clear before API 28: an empty text clip is the closest to "nothing" the release allows.
            clipboardCall("setPrimaryClip", ClipData.class, ClipData.newPlainText(null, ""), SHELL_PACKAGE);
        }
    }

    // ---- Input ----

    private Method input() throws HelperException {
        if (inject != null) return inject;
        Object manager = null;
        Class<?> type = null;
        for (String name : new String[] {"android.hardware.input.InputManagerGlobal", "android.hardware.input.InputManager"}) {
            try {
                type = Class.forName(name);
                Method getInstance = type.getDeclaredMethod("getInstance");
                getInstance.setAccessible(true);
                manager = getInstance.invoke(null);
                if (manager != null) break;
            } catch (Exception e) {
                manager = null;
            }
        }
        if (manager == null) throw new HelperException(HelperException.UNSUPPORTED, "no InputManager instance on API " + sdk);
        Method m = Reflect.find(type, "injectInputEvent", InputEvent.class, int.class);
        if (m == null) throw new HelperException(HelperException.UNSUPPORTED, "InputManager.injectInputEvent is missing on API " + sdk);
        inputManager = manager;
        inject = m;
        return m;
    }

    private void send(InputEvent event, int mode) throws HelperException {
        Method m = input();
        Object ok = Reflect.call(m, inputManager, event, mode);
        if (Boolean.FALSE.equals(ok)) throw new HelperException(HelperException.FAILED, "the input manager refused the event " + event);
    }

    public void injectKey(int action, int keyCode, int metaState, long downTime, long eventTime, boolean waitForFinish) throws HelperException {
        send(new KeyEvent(downTime, eventTime, action, keyCode, 0, metaState, KeyCharacterMap.VIRTUAL_KEYBOARD, 0, 0, InputDevice.SOURCE_KEYBOARD),
                waitForFinish ? INJECT_WAIT_FOR_FINISH : INJECT_ASYNC);
    }

    public void inject(Gesture.Step step, long downTime, long eventTime, boolean waitForFinish) throws HelperException {
        int n = step.ids.length;
        MotionEvent.PointerProperties[] props = new MotionEvent.PointerProperties[n];
        MotionEvent.PointerCoords[] coords = new MotionEvent.PointerCoords[n];
        for (int i = 0; i < n; i++) {
            props[i] = new MotionEvent.PointerProperties();
            props[i].id = step.ids[i];
            props[i].toolType = MotionEvent.TOOL_TYPE_FINGER;
            coords[i] = new MotionEvent.PointerCoords();
            coords[i].x = step.xs[i];
            coords[i].y = step.ys[i];
            coords[i].pressure = step.maskedAction() == Gesture.ACTION_UP ? 0f : 1f;
            coords[i].size = 1f;
        }
        // An ACTION_CANCEL carries FLAG_CANCELED, as the input dispatcher's own cancels do (InputState.cpp) and as its
        // check of injected streams demands from Android 15 (input_verifier.rs: "For ACTION_CANCEL, must set
        // FLAG_CANCELED"); the bit was unused before Android 13 named it.
        int flags = step.maskedAction() == Gesture.ACTION_CANCEL ? FLAG_CANCELED : 0;
        MotionEvent event = MotionEvent.obtain(downTime, eventTime, step.action, n, props, coords, 0, 0, 1f, 1f, 0, 0,
                InputDevice.SOURCE_TOUCHSCREEN, flags);
        try {
            if (!waitForFinish) {
                send(event, INJECT_ASYNC);
                return;
            }
            // Waiting, the input manager says false when no window finished the event (none under it, or it did not
            // answer in time): the event went out all the same, and `input` ignores that answer too.
            Reflect.call(input(), inputManager, event, INJECT_WAIT_FOR_FINISH);
        } finally {
            event.recycle();
        }
    }

    // ---- Power ----

    /** A system service's binder by name (ServiceManager.getService, hidden); null when the release has none. */
    private IBinder service(String name) throws HelperException {
        Class<?> sm = Reflect.type("android.os.ServiceManager");
        Method get = Reflect.find(sm, "getService", String.class);
        if (get == null) throw new HelperException(HelperException.UNSUPPORTED, "ServiceManager.getService is hidden on API " + sdk);
        return (IBinder) Reflect.call(get, null, name);
    }

    /** IPowerManager through ServiceManager.getService("power"); isInteractive() is in it from API 20. */
    public boolean interactive() throws HelperException {
        if (power == null) {
            IBinder binder = service("power");
            if (binder == null) throw new HelperException(HelperException.UNSUPPORTED, "no power service");
            Method asInterface = Reflect.find(Reflect.type("android.os.IPowerManager$Stub"), "asInterface", IBinder.class);
            if (asInterface == null) throw new HelperException(HelperException.UNSUPPORTED, "IPowerManager.Stub.asInterface is missing");
            Object service = Reflect.call(asInterface, null, binder);
            Method m = Reflect.find(Reflect.type("android.os.IPowerManager"), "isInteractive");
            if (service == null || m == null) throw new HelperException(HelperException.UNSUPPORTED, "IPowerManager.isInteractive is missing on API " + sdk);
            power = service;
            isInteractive = m;
        }
        return Boolean.TRUE.equals(Reflect.call(isInteractive, power));
    }

    /**
     * IDreamManager through ServiceManager.getService("dreams") (Context.DREAM_SERVICE): isDreaming() is in it from
     * API 17. Where the release has no such service, interface or method, no screensaver can show there, so this says
     * false (the touch goes on as before the check existed). Where the release refuses the call to the shell
     * (SecurityException: DreamManagerService checks READ_DREAM_STATE, which AOSP's shell does not hold on Android 10
     * and before), the power manager's dump says it instead ({@code dumpsys power}'s mWakefulness, as the host's
     * {@code input} gate reads it): one process per touch on those releases, still less than {@code input}'s VM.
     */
    public boolean dreaming() throws HelperException {
        if (noDreams) return false;
        if (dreamsRefused != null) return PowerDump.dreaming(dumpsysPower());
        if (dreams == null) {
            Object service = null;
            Method m = null;
            try {
                IBinder binder = service("dreams");
                Method asInterface = binder == null ? null
                        : Reflect.find(Reflect.type("android.service.dreams.IDreamManager$Stub"), "asInterface", IBinder.class);
                if (asInterface != null) service = Reflect.call(asInterface, null, binder);
                if (service != null) m = Reflect.find(Reflect.type("android.service.dreams.IDreamManager"), "isDreaming");
            } catch (HelperException e) {
                if (!e.code().equals(HelperException.UNSUPPORTED)) throw e;
            }
            if (service == null || m == null) {
                noDreams = true;
                return false;
            }
            dreams = service;
            isDreaming = m;
        }
        try {
            return Boolean.TRUE.equals(Reflect.call(isDreaming, dreams));
        } catch (HelperException e) {
            if (!(e.getCause() instanceof SecurityException)) throw e;
            dreamsRefused = String.valueOf(e.getCause().getMessage());
            return PowerDump.dreaming(dumpsysPower());
        }
    }

    /** What {@code dumpsys power} prints (the shell holds DUMP); UNSUPPORTED where it cannot be run. */
    private static String dumpsysPower() throws HelperException {
        Process p = null;
        try {
            p = new ProcessBuilder("/system/bin/dumpsys", "power").redirectErrorStream(true).start();
            p.getOutputStream().close();
            java.io.InputStream in = p.getInputStream();
            ByteArrayOutputStream out = new ByteArrayOutputStream(64 * 1024);
            byte[] buffer = new byte[16 * 1024];
            for (int n; (n = in.read(buffer)) > 0;) out.write(buffer, 0, n);
            p.waitFor();
            return out.toString("UTF-8");
        } catch (Exception e) {
            throw new HelperException(HelperException.UNSUPPORTED, "whether a screensaver shows is not known: IDreamManager.isDreaming is refused to the shell and dumpsys power did not run (" + e + "), so nothing was injected", e);
        } finally {
            if (p != null) p.destroy();
        }
    }
}
