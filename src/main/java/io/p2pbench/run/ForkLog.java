package io.p2pbench.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Why a benchmark failed, read from its JMH log: JMH forks the benchmark JVM itself, so an exception the
 * benchmark throws, or the JVM's death, reaches the executor only as lines of that log.
 */
final class ForkLog {
    private static final Pattern EXCEPTION_LINE = Pattern.compile(
            "^(?:Caused by: )?([a-zA-Z_$][\\w$]*\\.)+[\\w$]*(?:Exception|Error|Skipped)(?:: .*)?$");
    private static final Pattern FORK_EXIT = Pattern.compile("^<forked VM failed with exit code (\\d+)>$");

    private ForkLog() {}

    /**
     * The benchmark's own error from a JMH log: the first exception line naming a p2pbench class
     * (a data mismatch, a CUDA error), else the death of the fork JVM, else the first exception line at all, or null.
     */
    static String firstError(Path log) {
        List<String> lines;
        try {
            lines = Files.readAllLines(log);
        } catch (IOException e) {
            return null;
        }
        String any = null;
        String died = null;
        for (String line : lines) {
            String l = line.strip();
            Matcher exit = FORK_EXIT.matcher(l);
            if (exit.matches() && died == null) {
                died = forkDeath(Integer.parseInt(exit.group(1)));
            }
            if (EXCEPTION_LINE.matcher(l).matches()) {
                if (l.contains("io.p2pbench.")) {
                    return l.replaceFirst("^Caused by: ", "");
                }
                if (any == null) {
                    any = l;
                }
            }
        }
        return died != null ? died : any;
    }

    /** What JMH's "forked VM failed with exit code N" means, in one line. */
    static String forkDeath(int code) {
        String signal = switch (code - 128) {
            case 9 -> " (killed by SIGKILL: the out-of-memory killer, or a kill -9)";
            case 6 -> " (SIGABRT: the JVM or a native library aborted; see the log for hs_err)";
            case 11 -> " (SIGSEGV: a crash in native code; see the log for hs_err)";
            case 15 -> " (SIGTERM)";
            case 2 -> " (SIGINT)";
            default -> "";
        };
        return "the fork died with exit code " + code + signal + " before it reported a result";
    }
}
