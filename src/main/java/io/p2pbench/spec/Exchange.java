package io.p2pbench.spec;

import io.p2pbench.collective.ActivationExchange;
import io.p2pbench.collective.CollectivePath;
import io.p2pbench.collective.Group;
import io.p2pbench.collective.ModelPreset;
import java.util.Map;
import java.util.Optional;

/** The activation exchange of one parallelism pattern and model over a group of ranks. */
public record Exchange(Group group, ActivationExchange.Pattern pattern, ModelPreset model, CollectivePath path)
        implements WorkloadSpec {
    @Override
    public JmhBenchmark benchmark() {
        return JmhBenchmark.ACTIVATION_EXCHANGE;
    }

    @Override
    public Map<String, String> params() {
        return benchmark().params(group, pattern, model, path);
    }

    /** Bytes of one activation of the model: the exchange's size. */
    public long sizeBytes() {
        return model.shape().activationBytes();
    }

    @Override
    public Exchange curve() {
        return this;
    }

    @Override
    public <R> R accept(Cases<R> cases) {
        return cases.exchange(this);
    }

    @Override
    public Optional<HostBuffer> hostBuffer() {
        return Optional.empty();
    }

    static Exchange read(Params p) {
        return new Exchange(Group.parse(p.text("group")), p.enumValue("pattern", ActivationExchange.Pattern.class),
                p.named("model", p.text("model"), ModelPreset.class), p.enumValue("path", CollectivePath.class));
    }
}
