package io.p2pbench.results;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * Where a run stands (a manifest's {@code state}): the type every decision reads. Its JSON text is {@link #text()},
 * written and read only here; text that is none of these words is refused ({@link #of}).
 */
public enum RunStatus {
    /** Still running, or stopped without a word (the process was killed before it could say). */
    RUNNING("running"),
    /** Every planned benchmark has its outcome. */
    COMPLETE("complete"),
    /** Stopped before the end: a signal, JMH's lock taken by another run, or a rank of a job that did not finish. */
    INTERRUPTED("interrupted");

    private final String text;

    RunStatus(String text) {
        this.text = text;
    }

    /** The word a manifest holds for it. */
    @JsonValue
    public String text() {
        return text;
    }

    /** The state a manifest's word names; an {@link Outcome.UnknownText} of one line for any other text. */
    @JsonCreator
    public static RunStatus of(String text) {
        for (RunStatus s : values()) {
            if (s.text.equals(text)) {
                return s;
            }
        }
        throw new Outcome.UnknownText("state", text, Arrays.stream(values()).map(RunStatus::text)
                .collect(Collectors.joining(", ")));
    }

    /** The manifest's word, so that messages read as they always did. */
    @Override
    public String toString() {
        return text;
    }
}
