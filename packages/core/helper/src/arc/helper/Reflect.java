package arc.helper;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/** Small reflection helpers for the hidden and newer APIs android.jar (API 23) does not declare. */
final class Reflect {
    private Reflect() {}

    static Class<?> type(String name) throws HelperException {
        try {
            return Class.forName(name);
        } catch (ClassNotFoundException e) {
            throw new HelperException(HelperException.UNSUPPORTED, "this release has no " + name);
        }
    }

    /**
     * A method by name and parameter types, public or not, in the class or its superclasses; null when absent or when
     * the runtime will not hand it over (setAccessible refused): either way the helper does without it.
     */
    static Method find(Class<?> type, String name, Class<?>... params) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            try {
                Method m = c.getDeclaredMethod(name, params);
                m.setAccessible(true);
                return m;
            } catch (NoSuchMethodException e) {
                // look further up
            } catch (RuntimeException e) {
                return null;
            }
        }
        return null;
    }

    /** The first method of that name whose parameters start with {@code first} (any count after): releases add some. */
    static Method findByName(Class<?> type, String name, Class<?> first) {
        Method best = null;
        for (Method m : type.getMethods()) {
            if (!m.getName().equals(name)) continue;
            Class<?>[] p = m.getParameterTypes();
            if (first != null && (p.length == 0 || !p[0].equals(first))) continue;
            if (best == null || p.length < best.getParameterTypes().length) best = m;
        }
        return best;
    }

    static Object call(Method m, Object target, Object... args) throws HelperException {
        try {
            return m.invoke(target, args);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new HelperException(HelperException.FAILED, m.getName() + " failed: " + cause, cause);
        } catch (IllegalAccessException e) {
            throw new HelperException(HelperException.UNSUPPORTED, m.getName() + " is not accessible: " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new HelperException(HelperException.UNSUPPORTED, m.getName() + " takes other arguments on this release: " + e.getMessage(), e);
        }
    }

    /**
     * Arguments for a service method whose signature grew over releases ({@code getPrimaryClip(String pkg)}, then
     * {@code (pkg, int userId)}, then {@code (pkg, String attributionTag, int userId)}, then a device id): the values
     * given fill the leading parameters, then a String is the attribution tag (null) and each int a user or device
     * id (0).
     */
    static Object[] fill(Method m, Object... leading) {
        Class<?>[] p = m.getParameterTypes();
        Object[] args = new Object[p.length];
        for (int i = 0; i < p.length; i++) {
            if (i < leading.length) args[i] = leading[i];
            else if (p[i] == int.class) args[i] = 0;
            else if (p[i] == long.class) args[i] = 0L;
            else if (p[i] == boolean.class) args[i] = false;
            else args[i] = null;
        }
        return args;
    }
}
