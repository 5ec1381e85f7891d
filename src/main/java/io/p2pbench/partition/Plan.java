package io.p2pbench.partition;

/** How a model is split over the ranks of a group. */
public enum Plan {
    /** The whole model on the group's first GPU: the baseline every split is judged against. */
    SINGLE,
    /** Tensor parallel: every layer's weights split by heads and FFN columns; two all-reduces per layer. */
    TP,
    /** Pipeline parallel: consecutive layers per stage; the activation crosses each stage boundary. */
    PP,
    /** Expert parallel: experts spread over the ranks, attention data-parallel; dispatch and combine per layer. */
    EP
}
