package io.p2pbench.cli;

import io.p2pbench.files.OneLine;
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
     * One line (without {@code p2pbench: }) for the first of {@code args} that holds a control character (a line
     * break), cannot be a file name in {@code charset}, or holds bytes that were no text in it (U+FFFD); null when
     * every argument is fine (control characters are refused even where the character set is not known).
     */
    static String problem(String charset, String... args) {
        CharsetEncoder encoder;
        try {
            encoder = Charset.forName(charset).newEncoder();
        } catch (RuntimeException unknown) {
            encoder = null; // only the control characters can be told
        }
        for (String a : args) {
            String shown = OneLine.printable(a).replace('\uFFFD', '?');
            if (a.codePoints().anyMatch(Character::isISOControl)) {
                return "the argument '" + shown + "' holds a control character (shown as ?): no option or file name "
                        + "of p2pbench takes one";
            }
            if (encoder == null) {
                continue;
            }
            if (!encoder.canEncode(a)) {
                return "the argument '" + shown + "' has characters that cannot be a file name here: Java runs with "
                        + "the character set " + charset + " for file names, from the locale (LANG=C or none set); run "
                        + "it with a UTF-8 locale, e.g. LC_ALL=C.UTF-8 (the bundle's bin/p2pbench sets it)";
            }
            if (a.indexOf('\uFFFD') >= 0) {
                // Bytes that are not UTF-8 reach Java as U+FFFD, which UTF-8 can encode: a file name made of them
                // would name another file (p2pbench wrote to "x\uFFFDname", not to the folder asked for).
                return "the argument '" + shown + "' holds bytes that are not " + charset + " text (shown as ?): Java "
                        + "cannot name that file; rename it, or pass a name in " + charset;
            }
        }
        return null;
    }
}
