package io.p2pbench.launch;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.p2pbench.results.Outcome;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * How a rank of a job ended ({@code ranks/R/done.json}'s {@code state}): the type rank 0 decides on. Its JSON text
 * is {@link #text()}, written and read only here; other text is refused ({@link #of}).
 */
public enum RankEnd {
    /** Every step of the rank has its outcome, none failed. */
    COMPLETE("complete"),
    /** Some step failed, timed out or was never reached (a hung call ended the rank). */
    FAILED("failed"),
    /** The rank never ran its steps: no GPU for it, or the job could not be joined. */
    REFUSED("refused");

    private final String text;

    RankEnd(String text) {
        this.text = text;
    }

    /** The word {@code done.json} holds for it. */
    @JsonValue
    public String text() {
        return text;
    }

    /** The end a {@code done.json} word names; an {@link Outcome.UnknownText} of one line for any other text. */
    @JsonCreator
    public static RankEnd of(String text) {
        for (RankEnd e : values()) {
            if (e.text.equals(text)) {
                return e;
            }
        }
        throw new Outcome.UnknownText("state", text, Arrays.stream(values()).map(RankEnd::text)
                .collect(Collectors.joining(", ")));
    }

    /** The word, so that messages read as they always did. */
    @Override
    public String toString() {
        return text;
    }
}
