package arc.helper;

import java.util.ArrayList;
import java.util.List;

/**
 * One accessibility node as the dump writes it: what AccessibilityNodeInfo said, copied out so that the writer
 * needs no Android classes (and the JVM tests can build trees by hand).
 */
public final class UiNode {
    public String text = "";
    public String resourceId = "";
    public String className = "";
    public String packageName = "";
    public String contentDesc = "";
    /** The hint (API 26+); null where the release has none, and then no attribute is written. */
    public String hint;
    public boolean checkable;
    public boolean checked;
    public boolean clickable;
    public boolean enabled = true;
    public boolean focusable;
    public boolean focused;
    public boolean scrollable;
    public boolean longClickable;
    public boolean password;
    public boolean selected;
    public boolean visibleToUser = true;
    /** Bounds in screen pixels: left, top, right, bottom (before clipping to the display). */
    public int left, top, right, bottom;
    /** Children, each at its index among the parent's children (null where the node gave none at that index). */
    public final List<UiNode> children = new ArrayList<UiNode>();

    public UiNode bounds(int l, int t, int r, int b) {
        left = l;
        top = t;
        right = r;
        bottom = b;
        return this;
    }

    public UiNode add(UiNode child) {
        children.add(child);
        return this;
    }
}
