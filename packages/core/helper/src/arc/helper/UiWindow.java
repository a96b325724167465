package arc.helper;

import java.util.ArrayList;
import java.util.List;

/** One window as AccessibilityWindowInfo describes it, with its tree (null where the window gave no root). */
public final class UiWindow {
    public String title = "";
    public int left, top, right, bottom;
    public boolean active;
    public boolean focused;
    public boolean accessibilityFocused;
    public int id;
    public int layer;
    /** AccessibilityWindowInfo's type as a name: TYPE_APPLICATION, TYPE_INPUT_METHOD, TYPE_SYSTEM… */
    public String type = "TYPE_APPLICATION";
    public UiNode root;
    /** Child windows (API 21+ getChild), written inside this window before its tree. */
    public final List<UiWindow> children = new ArrayList<UiWindow>();

    /** AccessibilityWindowInfo's TYPE_* numbers (stable since API 21, ACCESSIBILITY_OVERLAY 22, SPLIT_SCREEN_DIVIDER 24, MAGNIFICATION_OVERLAY 33). */
    public static String typeName(int type) {
        switch (type) {
            case 1: return "TYPE_APPLICATION";
            case 2: return "TYPE_INPUT_METHOD";
            case 3: return "TYPE_SYSTEM";
            case 4: return "TYPE_ACCESSIBILITY_OVERLAY";
            case 5: return "TYPE_SPLIT_SCREEN_DIVIDER";
            case 6: return "TYPE_MAGNIFICATION_OVERLAY";
            default: return "TYPE_" + type;
        }
    }
}
