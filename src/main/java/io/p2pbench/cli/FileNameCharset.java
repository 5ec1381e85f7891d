package io.p2pbench.cli;

import java.nio.charset.Charset;
import java.nio.charset.CharsetEncoder;

/**
 * Java turns file names into bytes with the character set of the locale it started in ({@code
 * sun.jnu.encoding}). Under {@code LANG=C} or no locale at all that is ASCII: an argument such as
 * {@code résultats/} reaches the program as {@code r??sultats/} and no file of that name can be opened.
 * Said in one line with the fix, instead of "does not exist" or Java's own {@code InvalidPathException}.
 * The bundle's {@code bin/p2pbench} runs Java in {@code C.UTF-8} where the locale is not UTF-8.
 */
final class FileNameCharset {
    /** The system property that names the character set of file names. */
    static final String PROPERTY = "sun.jnu.encoding";

    private FileNameCharset() {}

    /**
     * One line (without {@code p2pbench: }) for the first of {@code args} that cannot be a file name in
     * {@code charset}, or null when every argument can (or the character set is not known).
     */
    static String problem(String charset, String... args) {
        CharsetEncoder encoder;
        try {
            encoder = Charset.forName(charset).newEncoder();
        } catch (RuntimeException unknown) {
            return null;
        }
        for (String a : args) {
            if (!encoder.canEncode(a)) {
                String shown = a.codePoints().map(c -> c == '\uFFFD' || Character.isISOControl(c) ? '?' : c)
                        .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
                return "the argument '" + shown + "' has characters that cannot be a file name here: Java runs with "
                        + "the character set " + charset + " for file names, from the locale (LANG=C or none set); run "
                        + "it with a UTF-8 locale, e.g. LC_ALL=C.UTF-8 (the bundle's bin/p2pbench sets it)";
            }
        }
        return null;
    }
}
