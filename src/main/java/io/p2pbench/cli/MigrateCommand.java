package io.p2pbench.cli;

import io.p2pbench.files.FileProblem;
import io.p2pbench.results.LockFile;
import io.p2pbench.results.ResultMigration;
import io.p2pbench.results.RunManifest;
import io.p2pbench.transfer.Sizes;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.ReentrantLock;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code p2pbench migrate}: converts result folders to the current format in place
 * ({@code docs/results-format.md}); a folder already in it is left as it is, so running it twice is
 * harmless. A folder that cannot be migrated is named with the reason and left as it was, the others
 * are migrated, and the command ends with exit code 2. One migrate at a time per machine (a lock file,
 * {@link ResultMigration#lockFile()}); a second waits. Needs no GPU.
 */
@Command(name = "migrate", mixinStandardHelpOptions = true,
        description = {"Converts result folders to format " + RunManifest.FORMAT + " in place: JMH JSON and "
            + "samples gzipped, the duplicate jmh-results.json and ok benchmarks' logs removed; every figure "
            + "unchanged. Folders already converted are left alone.",
            "Each PATH is a result folder or a folder holding result folders at any depth, e.g. results/."})
final class MigrateCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "PATH", description = "Result folders, or folders holding them.")
    List<Path> paths;

    /** Migrations of this JVM, one at a time (the file lock keeps other processes out, not other threads). */
    private static final ReentrantLock IN_THIS_JVM = new ReentrantLock();

    @Override
    public Integer call() throws InterruptedException {
        Set<Path> folders = new LinkedHashSet<>();
        try {
            for (Path p : paths) {
                folders.addAll(ResultMigration.find(p));
            }
        } catch (IOException e) {
            throw new UserInputException(FileProblem.of(e));
        }
        PrintWriter out = spec.commandLine().getOut();
        IN_THIS_JVM.lockInterruptibly();
        try (FileChannel lockFile = LockFile.open(ResultMigration.lockFile())) {
            FileLock lock = LockFile.tryLock(lockFile);
            if (lock == null) {
                out.println("Waiting: another p2pbench migrate is running on this machine (lock "
                        + ResultMigration.lockFile() + ") ...");
                out.flush();
                lock = lockFile.lock();
            }
            return migrateAll(folders, out);
        } catch (IOException e) {
            throw new UserInputException(FileProblem.of(e));
        } finally {
            IN_THIS_JVM.unlock();
        }
    }

    /** Migrates each folder; a broken one is named and skipped, and the command ends in exit code 2. */
    private int migrateAll(Set<Path> folders, PrintWriter out) {
        List<ResultMigration.Outcome> done = new ArrayList<>();
        List<Path> failed = new ArrayList<>();
        for (Path dir : folders) {
            ResultMigration.Outcome o;
            try {
                o = ResultMigration.migrate(dir);
            } catch (IOException e) {
                out.println(dir + ": not migrated, left as it was: " + Main.oneLine(FileProblem.of(e)));
                out.flush();
                failed.add(dir);
                continue;
            }
            done.add(o);
            out.println(dir + ": " + (RunManifest.FORMAT.equals(o.from())
                    ? "already " + RunManifest.FORMAT + (o.changed() ? ", leftover files removed" : "")
                    : o.from() + " -> " + RunManifest.FORMAT) + ", " + Sizes.format(o.bytesBefore()) + " -> "
                    + Sizes.format(o.bytesAfter()));
            out.flush();
        }
        long before = done.stream().mapToLong(ResultMigration.Outcome::bytesBefore).sum();
        long after = done.stream().mapToLong(ResultMigration.Outcome::bytesAfter).sum();
        out.println(done.size() + " result folder(s), " + Sizes.format(before) + " -> " + Sizes.format(after));
        out.flush();
        if (!failed.isEmpty()) {
            throw new UserInputException(failed.size() + " of " + folders.size() + " result folder(s) could not be "
                    + "migrated and were left as they were (each named above with the reason): " + failed.get(0)
                    + (failed.size() > 1 ? " and " + (failed.size() - 1) + " more" : ""));
        }
        return 0;
    }
}
