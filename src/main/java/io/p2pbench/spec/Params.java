package io.p2pbench.spec;

import java.util.Arrays;
import java.util.Map;

/** A manifest's parameter strings of one kind, read with errors that name the kind, the parameter and the value. */
final class Params {
    private final Kind kind;
    private final Map<String, String> values;

    Params(Kind kind, Map<String, String> values) {
        this.kind = kind;
        this.values = values;
    }

    /** The value of {@code name}; throws when it is absent. */
    String text(String name) {
        String v = values.get(name);
        if (v == null) {
            throw new IllegalArgumentException(kind.label() + " lacks parameter '" + name + "'");
        }
        return v;
    }

    /** The value of {@code name}, or null when absent (parameters added after results were first written). */
    String optional(String name) {
        return values.get(name);
    }

    <E extends Enum<E>> E enumValue(String name, Class<E> type) {
        return named(name, text(name), type);
    }

    <E extends Enum<E>> E named(String name, String value, Class<E> type) {
        try {
            return Enum.valueOf(type, value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(kind.label() + " parameter " + name + " = '" + value + "' is not one of "
                    + Arrays.toString(type.getEnumConstants()), e);
        }
    }

    long longValue(String name) {
        try {
            return Long.parseLong(text(name));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(kind.label() + " parameter " + name + " = '" + text(name)
                    + "' is not a whole number", e);
        }
    }

    int intValue(String name) {
        long v = longValue(name);
        if (v != (int) v) {
            throw new IllegalArgumentException(kind.label() + " parameter " + name + " = '" + v + "' is out of range");
        }
        return (int) v;
    }

    boolean booleanValue(String name) {
        String v = text(name);
        if (!v.equals("true") && !v.equals("false")) {
            throw new IllegalArgumentException(kind.label() + " parameter " + name + " = '" + v + "' is not true or false");
        }
        return Boolean.parseBoolean(v);
    }
}
