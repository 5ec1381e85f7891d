package io.p2pbench.results;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * What became of one planned benchmark (a manifest entry's {@code status}, a round's, a rank part's): the type every
 * decision reads. Its JSON text is {@link #text()}, written and read only here, so manifests keep the words they
 * always had; text that is none of them is refused ({@link #of}), never read as some other outcome.
 */
public enum Outcome {
    /** Planned, not yet run (or never reached). */
    PENDING("pending"),
    /** Measured: its figures are in the result folder. */
    OK("ok"),
    /** Not run here, for a cause the entry names ({@code RunManifest.Entry#cause()}). */
    SKIPPED("skipped"),
    /** Run, and it did not give a figure: the fork failed, its data check failed, or a rank did not finish it. */
    FAILED("failed"),
    /** Run, and killed when it did not finish within its limit. */
    TIMEOUT("timeout"),
    /** Running when the run was interrupted (a signal, or another JMH run took JMH's lock). */
    INTERRUPTED("interrupted");

    private final String text;

    Outcome(String text) {
        this.text = text;
    }

    /** The word a manifest holds for it. */
    @JsonValue
    public String text() {
        return text;
    }

    /** The outcome a manifest's word names; an {@link IllegalArgumentException} of one line for any other text. */
    @JsonCreator
    public static Outcome of(String text) {
        for (Outcome o : values()) {
            if (o.text.equals(text)) {
                return o;
            }
        }
        throw new UnknownText("status", text, Arrays.stream(values()).map(Outcome::text)
                .collect(Collectors.joining(", ")));
    }

    /** The manifest's word, so that messages read as they always did. */
    @Override
    public String toString() {
        return text;
    }

    /**
     * Text a manifest holds where one of a fixed set of words belongs, none of them: the field's name, the text, the
     * words accepted. The manifest reader turns it into one line naming the file and the place of the value.
     */
    public static final class UnknownText extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        public UnknownText(String field, String text, String accepted) {
            super(field + " " + (text == null ? "null" : ManifestPaths.quote(text)) + " is not one this suite "
                    + "writes; accepted: " + accepted);
        }
    }
}
