package io.p2pbench;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/**
 * Prints {@code SKIPPED <test>: <reason>} on the console for every skipped or aborted test (GPU tests
 * without a GPU), which surefire's summary counts but does not explain. Registered through
 * {@code META-INF/services/org.junit.platform.launcher.TestExecutionListener}.
 */
public final class SkipReasons implements TestExecutionListener {
    @Override
    public void executionSkipped(TestIdentifier test, String reason) {
        System.out.println("SKIPPED " + test.getDisplayName() + ": " + reason);
    }

    @Override
    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
        if (result.getStatus() == TestExecutionResult.Status.ABORTED) {
            String why = result.getThrowable().map(Throwable::getMessage).orElse("no reason given");
            System.out.println("SKIPPED " + test.getDisplayName() + ": " + why);
        }
    }
}
