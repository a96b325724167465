package arc.helper;

import java.util.List;
import java.util.Map;

/**
 * Writes the {@code <displays>} document that {@code uiautomator dump --windows} writes (AOSP
 * AccessibilityNodeInfoDumper: one {@code <display id>} per display, its windows topmost first, each
 * {@code <window index title bounds active focused accessibility-focused id layer type>} holding its child windows
 * and then a {@code <hierarchy rotation>} with the window's tree), so that arc reads the helper's dump with the parser
 * and element ids it uses for uiautomator's.
 *
 * <p>As uiautomator does: a node's children that are not visible to the user are left out; bounds are clipped to the
 * display; a clickable, enabled node with no text and no description whose subtree has none either is marked
 * {@code NAF="true"} (except grids, lists and tables); characters XML 1.0 cannot hold are written as '?'.
 */
public final class DisplaysXml {
    private static final String[] NAF_EXCLUDED = {"GridView", "GridLayout", "ListView", "TableLayout"};

    private final StringBuilder out = new StringBuilder(64 * 1024);
    private int width;
    private int height;

    /**
     * The whole document. {@code displays}: display id to its windows, topmost first (a sorted map keeps the ids in
     * order); {@code sizes}: each display's width and height in the current rotation, for clipping.
     */
    public static String write(Map<Integer, List<UiWindow>> displays, Map<Integer, int[]> sizes, int rotation) {
        DisplaysXml xml = new DisplaysXml();
        xml.out.append("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><displays>");
        for (Map.Entry<Integer, List<UiWindow>> display : displays.entrySet()) {
            int[] size = sizes.get(display.getKey());
            xml.width = size == null ? Integer.MAX_VALUE : size[0];
            xml.height = size == null ? Integer.MAX_VALUE : size[1];
            xml.out.append("<display id=\"").append(display.getKey()).append("\">");
            List<UiWindow> windows = display.getValue();
            for (int i = 0; i < windows.size(); i++) xml.window(windows.get(i), i, rotation);
            xml.out.append("</display>");
        }
        xml.out.append("</displays>");
        return xml.out.toString();
    }

    private void window(UiWindow w, int index, int rotation) {
        out.append("<window");
        attr("index", Integer.toString(index));
        attr("title", w.title);
        attr("bounds", bounds(w.left, w.top, w.right, w.bottom));
        attr("active", bool(w.active));
        attr("focused", bool(w.focused));
        attr("accessibility-focused", bool(w.accessibilityFocused));
        attr("id", Integer.toString(w.id));
        attr("layer", Integer.toString(w.layer));
        attr("type", w.type);
        out.append('>');
        for (int i = 0; i < w.children.size(); i++) window(w.children.get(i), i, rotation);
        if (w.root != null) {
            out.append("<hierarchy rotation=\"").append(rotation).append("\">");
            node(w.root, 0);
            out.append("</hierarchy>");
        }
        out.append("</window>");
    }

    private void node(UiNode n, int index) {
        out.append("<node");
        if (!nafExcluded(n) && !nafCheck(n)) attr("NAF", "true");
        attr("index", Integer.toString(index));
        attr("text", n.text);
        attr("resource-id", n.resourceId);
        attr("class", n.className);
        attr("package", n.packageName);
        attr("content-desc", n.contentDesc);
        attr("checkable", bool(n.checkable));
        attr("checked", bool(n.checked));
        attr("clickable", bool(n.clickable));
        attr("enabled", bool(n.enabled));
        attr("focusable", bool(n.focusable));
        attr("focused", bool(n.focused));
        attr("scrollable", bool(n.scrollable));
        attr("long-clickable", bool(n.longClickable));
        attr("password", bool(n.password));
        attr("selected", bool(n.selected));
        attr("visible-to-user", bool(n.visibleToUser));
        if (n.hint != null) attr("hint", n.hint);
        attr("bounds", bounds(clip(n.left, width), clip(n.top, height), clip(n.right, width), clip(n.bottom, height)));
        boolean any = false;
        for (int i = 0; i < n.children.size(); i++) {
            UiNode child = n.children.get(i);
            if (child == null || !child.visibleToUser) continue;
            if (!any) out.append('>');
            any = true;
            node(child, i);
        }
        out.append(any ? "</node>" : " />");
    }

    private static int clip(int value, int max) {
        return value < 0 ? 0 : value > max ? max : value;
    }

    private static boolean nafExcluded(UiNode n) {
        for (String suffix : NAF_EXCLUDED) if (n.className.endsWith(suffix)) return true;
        return false;
    }

    /** False where the node is "not accessibility friendly": clickable and enabled, yet nothing in it says what it is. */
    private static boolean nafCheck(UiNode n) {
        boolean naf = n.clickable && n.enabled && n.contentDesc.isEmpty() && n.text.isEmpty();
        if (!naf) return true;
        return childSays(n);
    }

    private static boolean childSays(UiNode n) {
        for (UiNode child : n.children) {
            if (child == null || !child.visibleToUser) continue;
            if (!child.contentDesc.isEmpty() || !child.text.isEmpty()) return true;
            if (childSays(child)) return true;
        }
        return false;
    }

    private static String bool(boolean b) {
        return b ? "true" : "false";
    }

    private static String bounds(int l, int t, int r, int b) {
        return "[" + l + "," + t + "][" + r + "," + b + "]";
    }

    private void attr(String name, String value) {
        out.append(' ').append(name).append("=\"");
        escape(value == null ? "" : value);
        out.append('"');
    }

    /** XML attribute escaping; a character XML 1.0 cannot hold (and a lone surrogate) becomes '?'. */
    private void escape(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&': out.append("&amp;"); continue;
                case '<': out.append("&lt;"); continue;
                case '>': out.append("&gt;"); continue;
                case '"': out.append("&quot;"); continue;
                case '\n': out.append("&#10;"); continue;
                case '\r': out.append("&#13;"); continue;
                case '\t': out.append("&#9;"); continue;
                default: break;
            }
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                out.append(c).append(s.charAt(++i));
            } else if (c < 0x20 || Character.isSurrogate(c) || c == 0xFFFE || c == 0xFFFF) {
                out.append('?');
            } else {
                out.append(c);
            }
        }
    }
}
