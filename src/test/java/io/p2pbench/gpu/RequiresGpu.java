package io.p2pbench.gpu;

import io.p2pbench.cuda.Cuda;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

/** Marks a GPU test class: it runs where CUDA is usable and is reported as skipped, with the reason, elsewhere. */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag("gpu")
@ExtendWith(RequiresGpu.Condition.class)
@interface RequiresGpu {
    /** Enables the tests only when {@link Cuda#availability()} says CUDA works. */
    final class Condition implements ExecutionCondition {
        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            Cuda.Availability a = Cuda.availability();
            return a.available()
                    ? ConditionEvaluationResult.enabled(a.deviceCount() + " GPU(s) visible")
                    : ConditionEvaluationResult.disabled("GPU test skipped: " + a.problem());
        }
    }
}
