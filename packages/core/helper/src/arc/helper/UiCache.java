package arc.helper;

import java.lang.reflect.Field;
import java.lang.reflect.Method;

/**
 * Empties the accessibility cache a UiAutomation connection reads through, so that a read through a connection kept
 * from an earlier read (adb.helperHoldMs) sees the screen as it is, not as that earlier read saw it.
 *
 * <p>AOSP facts (frameworks/base core/java/android/view/accessibility, Android 5.0 to 15, read in the SDK sources of
 * API 21, 23, 24, 26, 28-35): AccessibilityInteractionClient keeps a cache of windows and nodes (AccessibilityCache:
 * one for the process up to API 32, one per connection from 33) that only accessibility events update, delivered to
 * the connection's looper after the fact. {@code AccessibilityWindowInfo.getRoot()} bypasses it, but
 * {@code AccessibilityNodeInfo.getChild()} asks it first (bypassCache false on every release), and so do
 * {@code getWindows()} / {@code getWindowsOnAllDisplays()} and, from API 33, {@code findFocus()}. From API 30 the root
 * comes without its descendants (a bypassing read prefetches nothing), so every node below a root is the cached one
 * where one is cached. Apps send TYPE_VIEW_SCROLLED and throttled TYPE_WINDOW_CONTENT_CHANGED events up to
 * ViewConfiguration's recurring accessibility event interval (100 ms) late, so a read just after a tap, a scroll or
 * typing returned the tree of the read before it. A new connection starts empty: UiAutomation.setServiceInfo clears
 * the cache on every release, and from API 33 each connection id gets a new one.
 *
 * <p>The ways to clear it, newest first: {@code UiAutomation.clearCache()} (public, API 34+);
 * {@code AccessibilityInteractionClient.getInstance().clearCache(int connectionId)} with the UiAutomation's
 * {@code mConnectionId} (API 33); {@code AccessibilityInteractionClient.getInstance().clearCache()} (API 21-32). Where
 * none works, the caller lets the connection go and connects again for the read.
 */
final class UiCache {
    /** The hidden class that holds the cache on every release. */
    static final String CLIENT = "android.view.accessibility.AccessibilityInteractionClient";

    private UiCache() {}

    /**
     * Clears the cache {@code ui} reads through; {@code client} is AccessibilityInteractionClient (null where the
     * release has none). Returns the way that worked, or null where none did (the caller must reconnect).
     */
    static String clear(Object ui, Class<?> client) {
        Method own = Reflect.find(ui.getClass(), "clearCache");
        if (own != null && invoke(own, ui)) return "UiAutomation.clearCache()";
        if (client == null) return null;
        Object instance = null;
        Method getInstance = Reflect.find(client, "getInstance");
        if (getInstance != null) {
            try {
                instance = getInstance.invoke(null);
            } catch (Exception e) {
                instance = null;
            }
        }
        if (instance == null) return null;
        Method byConnection = Reflect.find(client, "clearCache", int.class);
        Field id = field(ui.getClass(), "mConnectionId");
        if (byConnection != null && id != null) {
            try {
                if (invoke(byConnection, instance, id.getInt(ui))) return "AccessibilityInteractionClient.clearCache(connectionId)";
            } catch (IllegalAccessException e) {
                // the next way
            }
        }
        Method all = Reflect.find(client, "clearCache");
        if (all != null && invoke(all, instance)) return "AccessibilityInteractionClient.clearCache()";
        return null;
    }

    private static boolean invoke(Method m, Object target, Object... args) {
        try {
            m.invoke(target, args);
            return true;
        } catch (Exception e) {
            return false;
        } catch (LinkageError e) {
            return false;
        }
    }

    private static Field field(Class<?> type, String name) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            try {
                Field f = c.getDeclaredField(name);
                f.setAccessible(true);
                return f;
            } catch (NoSuchFieldException e) {
                // look further up
            } catch (RuntimeException e) {
                return null;
            }
        }
        return null;
    }
}
