package io.p2pbench.cli;

import java.io.FilterWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;

/**
 * What the command line prints, made safe for a terminal in one place: every control character but
 * newline and tab becomes {@code ?}. Text from input files (a GPU name, a host name, a manifest's
 * command) reaches the terminal in findings, plan lines and error messages; an escape sequence in it
 * could move the cursor, rewrite earlier lines or retitle the window. {@link Main} wraps both of the
 * command line's writers in this, so no command prints a control character it read.
 */
final class TerminalText extends FilterWriter {
    private TerminalText(Writer out) {
        super(out);
    }

    /** {@code out} behind the filter, flushing as {@code out} does. */
    static PrintWriter wrap(PrintWriter out) {
        return new PrintWriter(new TerminalText(out), true);
    }

    /** Whether {@code c} is printed as it is: not a control character, or a newline or tab. */
    static boolean printable(int c) {
        return c == '\n' || c == '\t' || !Character.isISOControl(c);
    }

    @Override
    public void write(int c) throws IOException {
        out.write(printable(c) ? c : '?');
    }

    @Override
    public void write(char[] buf, int off, int len) throws IOException {
        char[] copy = new char[len];
        for (int i = 0; i < len; i++) {
            char c = buf[off + i];
            copy[i] = printable(c) ? c : '?';
        }
        out.write(copy, 0, len);
    }

    @Override
    public void write(String s, int off, int len) throws IOException {
        write(s.toCharArray(), off, len);
    }
}
