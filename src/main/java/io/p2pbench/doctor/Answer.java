package io.p2pbench.doctor;

/**
 * One answer the machine gave, or why there is none: {@code value} is null exactly when
 * {@code unknown} says why (the call and status, the file and its problem).
 */
public record Answer<T>(T value, String unknown) {
    /** Checks that exactly one of value and reason is there. */
    public Answer {
        if ((value == null) == (unknown == null)) {
            throw new IllegalArgumentException("an answer holds a value or a reason, not both or neither");
        }
    }

    /** A known value. */
    public static <T> Answer<T> of(T value) {
        return new Answer<>(value, null);
    }

    /** No value, and why. */
    public static <T> Answer<T> unknown(String why) {
        return new Answer<>(null, why);
    }

    /** {@code value} when not null, else {@link #unknown(String)} with {@code why}. */
    public static <T> Answer<T> ofNullable(T value, String why) {
        return value != null ? of(value) : unknown(why == null || why.isBlank() ? "not reported" : why);
    }

    /** Whether there is a value. */
    public boolean known() {
        return value != null;
    }
}
