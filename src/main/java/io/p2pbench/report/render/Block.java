package io.p2pbench.report.render;

import io.p2pbench.report.text.Markdown;
import java.util.List;

/**
 * One block of the report's page: written once as Markdown (summary.md) and once as HTML
 * (report.html, {@link HtmlReport}) from the same values, so the page never has to parse the
 * Markdown back. Text inside a block may hold inline code ({@code `x`}) and bold ({@code **x**}).
 */
public sealed interface Block {
    /** This block as Markdown, ending with a blank line. */
    String markdown();

    /** The blocks one after the other, as Markdown. */
    static String markdown(List<Block> blocks) {
        StringBuilder sb = new StringBuilder();
        blocks.forEach(b -> sb.append(b.markdown()));
        return sb.toString();
    }

    /** A heading, {@code level} 1 to 6. */
    record Heading(int level, String text) implements Block {
        @Override
        public String markdown() {
            return "#".repeat(level) + " " + text + "\n\n";
        }
    }

    /** One line of text. */
    record Paragraph(String text) implements Block {
        @Override
        public String markdown() {
            return text + "\n\n";
        }
    }

    /** A table; a null cell is empty. */
    record Table(List<String> header, List<List<String>> rows) implements Block {
        @Override
        public String markdown() {
            return Markdown.table(header, rows) + "\n";
        }
    }

    /** Preformatted text, each line ending with a newline. */
    record Code(String text) implements Block {
        @Override
        public String markdown() {
            return "```text\n" + text + "```\n\n";
        }
    }

    /** A chart: an SVG file, relative to the report's folder. */
    record Image(String alt, String file) implements Block {
        @Override
        public String markdown() {
            return "![" + alt + "](" + file + ")\n\n";
        }
    }

    /** A bullet list, one line per item. */
    record BulletList(List<String> items) implements Block {
        @Override
        public String markdown() {
            StringBuilder sb = new StringBuilder();
            items.forEach(i -> sb.append("- ").append(i).append('\n'));
            return sb.append('\n').toString();
        }
    }

    /**
     * A section still written as Markdown text by its own class; {@link HtmlReport} converts it
     * with its Markdown reader.
     */
    record MarkdownText(String text) implements Block {
        @Override
        public String markdown() {
            return text;
        }
    }
}
