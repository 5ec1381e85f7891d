package io.p2pbench.doctor;

import java.util.List;

/**
 * One ordered pair: how a copy from {@code src} to {@code dst} travels, over what, and why it is
 * off or slow.
 *
 * @param src the source GPU's label ({@code GPU0}, or its PCI bus id without a driver)
 * @param dst the destination GPU's label
 * @param route what lies between them, e.g. {@code 18 NVLinks through NVSwitch (NV18)}
 * @param link the link class as {@code nvidia-smi topo -m} names it, {@code ?} when unknown
 * @param unconfirmed what could not be read that might change the verdict, empty when nothing
 * @param causes every cause, possible cause and unknown that bears on this pair, host- and GPU-wide ones included
 * @param measured figures from {@code --results}, or null
 */
public record PairDiagnosis(String src, String dst, Verdict verdict, String route, String link, String unconfirmed,
                            List<Finding> causes, Measured measured) {
    /** Copies the list. */
    public PairDiagnosis {
        causes = List.copyOf(causes);
    }
}
