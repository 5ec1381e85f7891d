package io.p2pbench.cli;

import static io.p2pbench.cli.CliTest.assertOneLine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2pbench.report.Fixtures;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Paths with characters other than ASCII where no locale is set or {@code LANG=C}: Java then encodes file
 * names as ASCII ({@code sun.jnu.encoding}) and cannot open {@code résultats/}. The bundle's launcher runs Java
 * in {@code C.UTF-8} there; Java started otherwise says so in one line with the fix. The non-ASCII names are
 * made and passed by a shell script written in ASCII ({@code printf} octal escapes), so this test holds
 * whatever locale the build itself runs in.
 */
class LocaleCliTest {
    @TempDir
    Path work;

    /** Runs {@code script} with bash in {@link #work} under {@code env}; stdout and stderr together. */
    private CliTest.Result bash(String script, Map<String, String> env) throws Exception {
        Path file = Files.writeString(work.resolve("script.sh"), script, StandardCharsets.US_ASCII);
        ProcessBuilder pb = new ProcessBuilder("bash", file.toString()).directory(work.toFile());
        env.forEach((k, v) -> {
            if (v == null) {
                pb.environment().remove(k);
            } else {
                pb.environment().put(k, v);
            }
        });
        Path err = work.resolve("script.err");
        Process p = pb.redirectError(err.toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(180, TimeUnit.SECONDS), "the script did not end");
        return new CliTest.Result(p.exitValue(), out, Files.readString(err, StandardCharsets.UTF_8));
    }

    /** A script that copies the one-GPU fixture to {@code résultats/run} and reports it with {@code java}'s locale. */
    private String reportOfANonAsciiFolder(String localeForJava) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return "set -e\ndir=\"$PWD/r$(printf '\\303\\251')sultats/run\"\nmkdir -p \"$dir\"\n"
                + "cp -r '" + Fixtures.X1.toAbsolutePath() + "'/. \"$dir\"\n"
                + "exec env " + localeForJava + " '" + java + "' -Djava.awt.headless=true -cp '" + ChildCli.classPath()
                + "' " + Main.class.getName() + " report \"$dir\" --out \"$PWD/out\"\n";
    }

    @Test
    void withoutAUtf8LocaleAPathOfOtherCharactersIsOneLineSayingHowToFixIt() throws Exception {
        // Before: "... does not exist" (or Java's InvalidPathException) for a folder that is there.
        CliTest.Result r = bash(reportOfANonAsciiFolder("-u LANG -u LC_CTYPE LC_ALL=C"), Map.of());
        assertOneLine(r, "has characters that cannot be a file name here: Java runs with the character set",
                "LC_ALL=C.UTF-8");
        // The fix the line gives works.
        CliTest.Result fixed = bash(reportOfANonAsciiFolder("-u LANG -u LC_CTYPE LC_ALL=C.UTF-8"), Map.of());
        assertEquals(0, fixed.code(), fixed.err());
        assertTrue(Files.isRegularFile(work.resolve("out/summary.md")));
    }

    /** The launcher with a stand-in java that prints the locale it was given; {@code env} as env(1) takes it. */
    private CliTest.Result launcherLocale(String env) throws Exception {
        Path home = work.resolve("fake-java");
        Path java = Files.createDirectories(home.resolve("bin")).resolve("java");
        Files.writeString(java, "#!/bin/sh\necho \"LC_ALL=${LC_ALL:-unset}\"\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path launcher = Path.of("src/bundle/p2pbench").toAbsolutePath();
        return bash("exec env " + env + " JAVA_HOME='" + home + "' bash '" + launcher + "' --version\n", Map.of());
    }

    @Test
    void theLauncherRunsJavaInUtf8WhereTheLocaleIsNotUtf8() throws Exception {
        for (String notUtf8 : List.of("-u LANG -u LC_CTYPE -u LC_ALL", "-u LC_ALL -u LC_CTYPE LANG=C",
                "-u LC_CTYPE LC_ALL= LANG=en_US.ISO-8859-1", "LANG=en_US.UTF-8 LC_ALL=C")) {
            CliTest.Result r = launcherLocale(notUtf8);
            assertEquals("LC_ALL=C.UTF-8", r.out().strip(), notUtf8 + ": " + r.err());
        }
        for (String utf8 : List.of("-u LC_ALL -u LC_CTYPE LANG=en_US.UTF-8", "-u LANG -u LC_CTYPE LC_ALL=C.utf8")) {
            CliTest.Result r = launcherLocale(utf8);
            assertEquals(utf8.contains("LC_ALL=C.utf8") ? "LC_ALL=C.utf8" : "LC_ALL=unset", r.out().strip(),
                    "a UTF-8 locale is kept (" + utf8 + "): " + r.err());
        }
    }

    @Test
    void anArgumentOfBytesThatAreNotUtf8IsRefusedInsteadOfWritingToAnotherFolder() throws Exception {
        // Before: exit 0, the report written to "x\uFFFDname", a folder other than the one asked for.
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        CliTest.Result r = bash("exec env LC_ALL=C.UTF-8 '" + java + "' -Djava.awt.headless=true -cp '"
                + ChildCli.classPath() + "' " + Main.class.getName() + " report '" + Fixtures.X1.toAbsolutePath()
                + "' --out \"$PWD/x$(printf '\\377')name\"\n", Map.of());
        assertOneLine(r, "holds bytes that are not UTF-8 text (shown as ?)", "x?name");
        try (var listed = Files.list(work)) {
            assertEquals(List.of(), listed.filter(f -> f.getFileName().toString().startsWith("x")).toList());
        }
    }

    @Test
    void anArgumentWithAControlCharacterIsOneLine() {
        // Before: the line break of the argument split the message over two lines.
        CliTest.Result r = CliTest.run("compare", Fixtures.X1.toString(), "/tmp/x\ny");
        assertOneLine(r, "the argument '/tmp/x?y' holds a control character");
    }
}
