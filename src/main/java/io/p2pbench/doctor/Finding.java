package io.p2pbench.doctor;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.List;
import java.util.Locale;

/**
 * One result of one check on one subject.
 *
 * @param subject {@code host}, a GPU ({@code GPU0}, or its PCI bus id when the driver could not be
 *     read), a PCIe port ({@code 0000:02:08.0}), or a pair ({@code GPU0-GPU1})
 * @param summary one sentence: what was found and what it does to peer copies
 * @param evidence where it was read: the file, register or call, with the value seen
 * @param fix what to change, empty when nothing needs to
 */
public record Finding(Check check, String subject, Status status, String summary, List<String> evidence,
                      String fix) {

    /** How a finding bears on peer copies. */
    public enum Status {
        /** Explains why P2P is off, goes through the CPU, or is slower than the link allows. */
        CAUSE,
        /** May explain it: confirm as {@code fix} says. */
        CHECK,
        /** Could not be read; {@code summary} says what and why. Never a guess. */
        UNKNOWN,
        /** A fact that explains figures but needs no change. */
        INFO,
        /** Checked, and nothing stands in the way. */
        OK;

        /** The label in text and JSON output. */
        @JsonValue
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Copies the lists. */
    public Finding {
        evidence = List.copyOf(evidence);
        fix = fix == null ? "" : fix;
    }

    /** A finding without evidence lines beyond {@code evidence}. */
    static Finding of(Check check, String subject, Status status, String summary, String fix, String... evidence) {
        return new Finding(check, subject, status, summary, List.of(evidence), fix);
    }

    /** A finding that could not be read. */
    static Finding unknown(Check check, String subject, String summary, String... evidence) {
        return new Finding(check, subject, Status.UNKNOWN, summary, List.of(evidence), "");
    }

    /** Whether this is a cause or a possible one (what a pair lists as why it is off or slow). */
    public boolean matters() {
        return status == Status.CAUSE || status == Status.CHECK;
    }
}
