package io.p2pbench.bench;

import io.p2pbench.fork.ForkChannel;
import io.p2pbench.results.BatchSamples;
import io.p2pbench.transfer.BandwidthProbe;
import io.p2pbench.transfer.TransferFixture;
import java.util.ArrayList;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * The trial-long fixture behind every transfer benchmark ({@link BenchmarkTrial}): CUDA resources are made once per
 * trial and released in reverse order; each iteration poisons the destinations first and checks them last, so the
 * bytes of the iteration's last transfer are verified even for latency sampling. Bandwidth batches also verify
 * themselves, batch by batch.
 */
public abstract class TransferState extends BenchmarkTrial {
    private final List<BatchSamples.Batch> measured = new ArrayList<>();
    private TransferFixture fixture;
    private long bytesPerTransfer;

    /** Builds the fixture from the subclass's parameters. */
    protected abstract TransferFixture open();

    @Override
    protected final void openResources(BenchmarkParams params) {
        fixture = open();
    }

    /** Poisons every destination before the iteration. */
    @Override
    protected final void prepareIteration() {
        fixture.poison();
    }

    /** Checks every destination after the iteration; a wrong byte fails the benchmark. */
    @Override
    protected final void checkIteration() {
        fixture.verify();
    }

    /** Writes the bytes verified and the measured batches beside JMH's output. */
    @Override
    protected final void recordTrial() {
        ForkChannel.writeVerified(fixture.bytesVerified());
        if (!measured.isEmpty()) {
            ForkChannel.writeSamples(new BatchSamples(ForkChannel.combinationId(), fixture.laneLabels(), bytesPerTransfer,
                    fixture.copiesPerBatch(), List.copyOf(measured), fixture.bytesVerified()));
        }
    }

    @Override
    protected final void releaseResources() {
        fixture.close();
        fixture = null;
    }

    /** One device-timed batch, remembered when this is a measurement iteration. */
    final BandwidthProbe.Batch batch() {
        BandwidthProbe.Batch b = fixture.measureBatch();
        if (measuring()) {
            List<Double> lanes = new ArrayList<>(b.laneNanos().length);
            for (int i = 0; i < b.laneNanos().length; i++) {
                lanes.add(b.gbps(i));
            }
            measured.add(new BatchSamples.Batch(b.gated(), lanes, lanes.size() > 1 ? b.totalGbps() : null));
            bytesPerTransfer = b.bytesPerTransfer();
        }
        return b;
    }

    /** One transfer per lane, waited for by the host. */
    final void transferOnce() {
        fixture.transferOnce();
    }
}
