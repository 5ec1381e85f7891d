package io.p2pbench.report.render;

import io.p2pbench.report.chart.XmlText;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code report.html}: the summary's blocks as one self-contained page (no scripts, no external
 * files), its tables as HTML tables and its charts as inline SVG, so it works offline as a CI
 * artifact. Each {@link Block} is written from its own values; only {@link Block.MarkdownText}
 * (MachineDoctor's and VerdictSections' sections, still written as Markdown by their classes, and a
 * summary cut at 1 MiB) goes through the Markdown reader here, which knows exactly the Markdown
 * those sections write: headings, pipe tables, fenced code, lists, paragraphs, inline code and
 * bold, and image lines pointing at an SVG in the output folder.
 */
public final class HtmlReport {
    /** Name of the page. */
    public static final String FILE = "report.html";
    private static final Pattern IMAGE = Pattern.compile("^!\\[(.*)]\\((.+\\.svg)\\)$");

    private HtmlReport() {}

    /** The page for {@code markdown}, with images read from {@code dir}. */
    public static String render(String markdown, Path dir) throws IOException {
        return render(List.of(new Block.MarkdownText(markdown)), dir);
    }

    /** The page for {@code blocks}, with images read from {@code dir}. */
    public static String render(List<Block> blocks, Path dir) throws IOException {
        StringBuilder h = new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                + "<title>p2pbench report</title><style>body{font-family:sans-serif;max-width:1200px;margin:1em auto;"
                + "padding:0 1em;color:#222}table{border-collapse:collapse;margin:.5em 0 1em}td,th{border:1px solid #ccc;"
                + "padding:2px 6px;font-size:13px}th{background:#f3f3f3}pre{background:#f7f7f7;padding:.5em;overflow-x:auto}"
                + "figure{margin:1em 0}svg{max-width:100%;height:auto}</style></head><body>\n");
        for (Block b : blocks) {
            block(h, b, dir);
        }
        return h.append("</body></html>\n").toString();
    }

    private static void block(StringBuilder h, Block block, Path dir) throws IOException {
        if (block instanceof Block.Heading b) {
            h.append("<h").append(b.level()).append('>').append(inline(b.text())).append("</h").append(b.level())
                    .append(">\n");
        } else if (block instanceof Block.Paragraph b) {
            h.append("<p>").append(inline(b.text().strip())).append("</p>\n");
        } else if (block instanceof Block.Table b) {
            h.append("<table>\n");
            row(h, "th", b.header());
            b.rows().forEach(r -> row(h, "td", r));
            h.append("</table>\n");
        } else if (block instanceof Block.Code b) {
            h.append("<pre>");
            b.text().lines().forEach(l -> h.append(escape(l)).append('\n'));
            h.append("</pre>\n");
        } else if (block instanceof Block.Image b) {
            image(h, b.alt(), b.file(), dir, b.markdown().strip());
        } else if (block instanceof Block.BulletList b) {
            h.append("<ul>\n");
            b.items().forEach(i -> h.append("<li>").append(inline(i)).append("</li>\n"));
            h.append("</ul>\n");
        } else if (block instanceof Block.MarkdownText b) {
            fromMarkdown(h, b.text(), dir);
        }
    }

    private static void row(StringBuilder h, String tag, List<String> cells) {
        h.append("<tr>");
        for (String c : cells) {
            String cell = c == null ? "" : c.replace("\n", " ").strip();
            h.append('<').append(tag).append('>').append(inline(cell)).append("</").append(tag).append('>');
        }
        h.append("</tr>\n");
    }

    /** The chart inline, or its Markdown line as text where the file is not in {@code dir}. */
    private static void image(StringBuilder h, String alt, String file, Path dir, String line) throws IOException {
        if (file.endsWith(".svg") && Files.exists(dir.resolve(file))) {
            String svg = Files.readString(dir.resolve(file), StandardCharsets.UTF_8);
            h.append("<figure role=\"img\" aria-label=\"").append(escape(alt)).append("\">\n").append(svg)
                    .append("</figure>\n");
        } else {
            h.append("<p>").append(inline(line)).append("</p>\n");
        }
    }

    /** A section written as Markdown by its own class. */
    private static void fromMarkdown(StringBuilder h, String markdown, Path dir) throws IOException {
        List<String> lines = markdown.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            Matcher img = IMAGE.matcher(l.trim());
            if (l.startsWith("```")) {
                h.append("<pre>");
                while (++i < lines.size() && !lines.get(i).startsWith("```")) {
                    h.append(escape(lines.get(i))).append('\n');
                }
                h.append("</pre>\n");
            } else if (l.startsWith("#")) {
                int level = l.indexOf(' ');
                h.append("<h").append(level).append('>').append(inline(l.substring(level + 1))).append("</h").append(level)
                        .append(">\n");
            } else if (l.startsWith("|")) {
                h.append("<table>\n");
                boolean header = true;
                for (; i < lines.size() && lines.get(i).startsWith("|"); i++) {
                    if (lines.get(i).matches("\\|(---\\|)+")) {
                        continue;
                    }
                    String tag = header ? "th" : "td";
                    h.append("<tr>");
                    for (String cell : cells(lines.get(i))) {
                        h.append('<').append(tag).append('>').append(inline(cell)).append("</").append(tag).append('>');
                    }
                    h.append("</tr>\n");
                    header = false;
                }
                i--;
                h.append("</table>\n");
            } else if (img.matches() && Files.exists(dir.resolve(img.group(2)))) {
                image(h, img.group(1), img.group(2), dir, l.strip());
            } else if (l.startsWith("- ")) {
                h.append("<ul>\n");
                for (; i < lines.size() && lines.get(i).startsWith("- "); i++) {
                    h.append("<li>").append(inline(lines.get(i).substring(2))).append("</li>\n");
                }
                i--;
                h.append("</ul>\n");
            } else if (!l.isBlank()) {
                h.append("<p>").append(inline(l.strip())).append("</p>\n");
            }
        }
    }

    /** The cells of a pipe-table row, with {@code \|} kept as a bar inside a cell. */
    private static List<String> cells(String row) {
        String inner = row.substring(1, row.length() - (row.endsWith("|") ? 1 : 0));
        return Arrays.stream(inner.split("(?<!\\\\)\\|")).map(c -> c.strip().replace("\\|", "|")).toList();
    }

    private static String inline(String s) {
        String e = escape(s);
        e = e.replaceAll("`([^`]*)`", "<code>$1</code>");
        return e.replaceAll("\\*\\*([^*]+)\\*\\*", "<b>$1</b>");
    }

    private static String escape(String s) {
        return XmlText.escape(s);
    }
}
