package io.p2pbench.cli;

import io.p2pbench.cuda.CudaException;
import io.p2pbench.results.AtomicFiles;
import io.p2pbench.settings.Settings;
import io.p2pbench.topology.SuiteBuild;
import io.p2pbench.topology.TopologyProbe;
import io.p2pbench.transfer.Sizes;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code p2pbench} command line. Bad input, a missing GPU or driver, and unreadable files end
 * in one line on stderr and exit code 2, never a stack trace (set P2PBENCH_DEBUG=1 to see one).
 */
@Command(name = "p2pbench", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Measures how fast GPUs talk to each other and to the host: peer copies with P2P on and "
                + "off, host-staged copies, host-device copies, all-reduce and activation exchanges.",
        subcommands = {TopologyCommand.class, DoctorCommand.class, RunCommand.class, ReportCommand.class, CompareCommand.class,
            MigrateCommand.class,
            WhatIfCommand.class, CommandLine.HelpCommand.class})
public final class Main implements Runnable {
    /** Exit code for bad input, a missing GPU, or unusable files. */
    public static final int EXIT_USAGE = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(),
                "a subcommand is required: topology, doctor, run, report, compare, migrate or whatif");
    }

    /** Runs the command line and exits with its code. */
    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs the command line and returns the exit code. */
    public static int execute(String... args) {
        return execute(commandLine(), args);
    }

    /** Runs the command line with its output and errors going to the given writers (tests). */
    public static int execute(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cl = commandLine();
        cl.setOut(TerminalText.wrap(out));
        cl.setErr(TerminalText.wrap(err));
        int code = execute(cl, args);
        cl.getOut().flush();
        cl.getErr().flush();
        return code;
    }

    /**
     * Runs {@code cl}. The JVM's own errors that a command can run into end in one line too: running
     * out of heap is one the user can fix (exit code 2, saying how), a stack overflow is ours (1); so does an
     * argument that cannot be a file name in the locale Java runs in ({@link FileNameCharset}).
     */
    static int execute(CommandLine cl, String... args) {
        String charset = FileNameCharset.problem(System.getProperty(FileNameCharset.PROPERTY, "UTF-8"), args);
        if (charset != null) {
            cl.getErr().println("p2pbench: " + charset);
            cl.getErr().flush();
            return EXIT_USAGE;
        }
        String setting = settingsProblem(System::getProperty, System.getenv("P2PBENCH_DEBUG"));
        if (setting != null) {
            cl.getErr().println("p2pbench: " + setting);
            cl.getErr().flush();
            return EXIT_USAGE;
        }
        try {
            return cl.execute(args);
        } catch (OutOfMemoryError e) {
            PrintWriter err = cl.getErr();
            if (debug()) {
                e.printStackTrace(err);
            }
            err.println("p2pbench: out of memory (" + oneLine(e.getMessage()) + "): this command needs more than the "
                    + Sizes.format(Runtime.getRuntime().maxMemory()) + " of Java heap it was "
                    + "given; give it more with P2PBENCH_JAVA_OPTS=-Xmx<size>, e.g. P2PBENCH_JAVA_OPTS=-Xmx8g");
            err.flush();
            return EXIT_USAGE;
        } catch (StackOverflowError e) {
            PrintWriter err = cl.getErr();
            if (debug()) {
                e.printStackTrace(err);
            }
            err.println("p2pbench: internal error: StackOverflowError" + (debug() ? ""
                    : " (set P2PBENCH_DEBUG=1 for the stack trace)"));
            err.flush();
            return 1;
        }
    }

    /**
     * Why the {@code p2pbench.*} properties in {@code properties} or the {@code P2PBENCH_DEBUG} value cannot be
     * used (one line), or null. Read before any command, so that a typo ends the command at once, not in a
     * benchmark fork or half way through a run.
     */
    static String settingsProblem(Settings.Source properties, String debugValue) {
        try {
            Settings.read(properties);
        } catch (IllegalArgumentException e) {
            return oneLine(e.getMessage());
        }
        if (debugValue != null && !debugValue.isEmpty() && !"1".equals(debugValue) && !"0".equals(debugValue)) {
            return "P2PBENCH_DEBUG='" + debugValue + "' is not accepted; use 1 (stack traces on) or 0";
        }
        return null;
    }

    /**
     * The command line: its writers print no control character (a GPU name read from a file may hold
     * escape sequences, {@link TerminalText}), so help is printed without colours too; a list option
     * that names nothing is refused before any command runs.
     */
    static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        cl.setColorScheme(CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF));
        cl.setOut(TerminalText.wrap(cl.getOut()));
        cl.setErr(TerminalText.wrap(cl.getErr()));
        cl.setParameterExceptionHandler(Main::onBadParameter);
        cl.setExecutionExceptionHandler(Main::onFailure);
        cl.setExecutionStrategy(parsed -> {
            EmptyPaths.check(parsed);
            refuseEmptyLists(parsed);
            return new CommandLine.RunLast().execute(parsed);
        });
        return cl;
    }

    /**
     * A comma-list option given only separators ({@code --pairs ,}) lists nothing; picocli hands the
     * command an empty list, which each command would read as "none" or "the default", or fail on.
     */
    private static void refuseEmptyLists(CommandLine.ParseResult parsed) {
        for (CommandLine sub : parsed.asCommandLineList()) {
            for (CommandLine.Model.OptionSpec o : sub.getParseResult().matchedOptions()) {
                if (!o.splitRegex().isEmpty() && o.getValue() instanceof java.util.Collection<?> c && c.isEmpty()) {
                    String given = String.join(" ", o.originalStringValues());
                    String takes = o.description().length == 0 ? "" : "; it takes: " + o.description()[0];
                    throw new CommandLine.ParameterException(sub, o.longestName() + " '" + given
                            + "' lists nothing, only separators" + takes);
                }
            }
        }
    }

    private static int onBadParameter(CommandLine.ParameterException e, String[] args) {
        PrintWriter err = e.getCommandLine().getErr();
        String message = e.getMessage();
        if (e instanceof CommandLine.UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            String first = u.getUnmatched().get(0);
            message = (first.startsWith("-") ? "unknown option '" : "unknown subcommand or argument '") + first
                    + "' for '" + e.getCommandLine().getCommandName() + "'";
        }
        if (e.getArgSpec() instanceof CommandLine.Model.OptionSpec o && o.renderedDescription().length > 0
                && message.matches("(?s).*'.*' is not an? (int|long|double|float).*")) {
            // picocli's "'1.5' is not an int" names no range: the option's own description says what it takes.
            message = oneLine(message) + "; " + o.longestName() + " takes: " + o.renderedDescription()[0];
        }
        err.println("p2pbench: " + oneLine(message) + " (see 'p2pbench "
                + (e.getCommandLine().getParent() == null ? "" : e.getCommandLine().getCommandName() + " ")
                + "--help')");
        err.flush();
        return EXIT_USAGE;
    }

    private static int onFailure(Exception e, CommandLine cl, CommandLine.ParseResult parsed) {
        PrintWriter err = cl.getErr();
        if (debug()) {
            e.printStackTrace(err);
        }
        if (e instanceof UserInputException || e instanceof CudaException
                || e instanceof AtomicFiles.CannotWrite) {
            // CannotWrite: a full disk or a folder that went away; its message names the file and why.
            err.println("p2pbench: " + oneLine(e.getMessage()));
            err.flush();
            return EXIT_USAGE;
        }
        err.println("p2pbench: internal error: " + e.getClass().getSimpleName() + ": " + oneLine(e.getMessage())
                + (debug() ? "" : " (set P2PBENCH_DEBUG=1 for the stack trace)"));
        err.flush();
        return 1;
    }

    /**
     * The value of {@code option} as the user typed it ({@code 1e400}, not the {@code Infinity} it parsed to), or
     * {@code parsed} where the option was not given.
     */
    static String asTyped(CommandLine cl, String option, Object parsed) {
        CommandLine.Model.OptionSpec given = cl.getParseResult().matchedOption(option);
        return given == null || given.stringValues().isEmpty() ? String.valueOf(parsed) : given.stringValues().get(0);
    }

    static String oneLine(String s) {
        if (s == null) {
            return "";
        }
        return s.lines().map(String::strip).filter(l -> !l.isEmpty()).findFirst().orElse("");
    }

    private static boolean debug() {
        return "1".equals(System.getenv("P2PBENCH_DEBUG"));
    }

    /** Prints the suite version. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {SuiteBuild.versionLine(TopologyProbe.SUITE_VERSION, SuiteBuild.CURRENT)};
        }
    }
}
