package io.p2pbench.spec;

import io.p2pbench.transfer.SkipCause;

/**
 * Why a planned combination will not run here: the cause decisions read and the reason people read.
 *
 * @param cause the cause, as a type
 * @param reason the cause in words, one line
 */
public record Skip(SkipCause cause, String reason) {
    /** {@code reason} with {@code cause}, or null when {@code reason} is null (nothing to skip). */
    public static Skip of(SkipCause cause, String reason) {
        return reason == null ? null : new Skip(cause, reason);
    }
}
