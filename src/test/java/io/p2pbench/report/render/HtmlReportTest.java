package io.p2pbench.report.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.p2pbench.report.Fixtures;
import io.p2pbench.report.Reporter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HtmlReportTest {
    @TempDir
    Path out;

    @Test
    void pageIsSelfContainedWithTablesAndInlineCharts() throws Exception {
        Reporter.render(List.of(Fixtures.X8), out);
        String html = Files.readString(out.resolve(HtmlReport.FILE), StandardCharsets.UTF_8);
        long charts;
        try (Stream<Path> s = Files.list(out)) {
            charts = s.filter(p -> p.toString().endsWith(".svg")).count();
        }
        assertEquals(charts, html.split("<svg ", -1).length - 1, "every chart inline");
        assertTrue(html.contains("<table>") && html.contains("<th>link</th>"), "headline table");
        assertFalse(html.contains("src=\"") || html.contains("href=\"") || html.contains("<script"),
                "no external file, link or script");
    }

    /** The page is written from the blocks, yet reads exactly as the Markdown reader reads summary.md. */
    @Test
    void pageFromBlocksEqualsThePageReadFromTheMarkdown() throws Exception {
        Reporter.render(List.of(Fixtures.X8), out);
        String summary = Files.readString(out.resolve(Reporter.SUMMARY), StandardCharsets.UTF_8);
        assertEquals(HtmlReport.render(summary, out), Files.readString(out.resolve(HtmlReport.FILE), StandardCharsets.UTF_8));
    }

    @Test
    void blocksWriteTheirMarkdownAndHtmlFromTheSameValues() throws Exception {
        List<Block> page = List.of(new Block.Heading(2, "Runs"), new Block.Table(List.of("a", "b"),
                List.of(Arrays.asList("x | y", null))), new Block.BulletList(List.of("**one**", "`two`")),
                new Block.Code("<1>\n"), new Block.Image("missing", "none.svg"));
        assertEquals("## Runs\n\n| a | b |\n|---|---|\n| x \\| y |  |\n\n- **one**\n- `two`\n\n```text\n<1>\n```\n\n"
                + "![missing](none.svg)\n\n", Block.markdown(page));
        String html = HtmlReport.render(page, out);
        assertTrue(html.contains("<h2>Runs</h2>\n<table>\n<tr><th>a</th><th>b</th></tr>\n<tr><td>x | y</td><td></td></tr>\n"
                + "</table>\n<ul>\n<li><b>one</b></li>\n<li><code>two</code></li>\n</ul>\n<pre>&lt;1&gt;\n</pre>\n"
                + "<p>![missing](none.svg)</p>\n</body>"), html);
        assertEquals(HtmlReport.render(Block.markdown(page), out), html, "the Markdown reader reads the same page");
    }

    /** Loads the page in headless Chromium (Debian's chromium package) and checks what it rendered. */
    @Test
    void chromiumRendersThePage() throws Exception {
        Optional<Path> chromium = Stream.of("chromium", "chromium-browser", "google-chrome")
                .flatMap(n -> Stream.of(System.getenv().getOrDefault("PATH", "").split(":")).map(d -> Path.of(d, n)))
                .filter(Files::isExecutable).findFirst();
        assumeTrue(chromium.isPresent(), "no headless browser here (install Debian's chromium package to run this)");
        Reporter.render(List.of(Fixtures.X1), out);
        Path shot = out.resolve("screenshot.png");
        Process p = new ProcessBuilder(chromium.get().toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--screenshot=" + shot, "--window-size=1280,2400", "--dump-dom", out.resolve(HtmlReport.FILE).toUri().toString())
                .redirectErrorStream(false).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String dom = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "chromium did not finish");
        assertTrue(dom.contains("<svg") && dom.contains("Headline") && dom.contains("<table>"), "rendered DOM: "
                + dom.substring(0, Math.min(500, dom.length())));
        assertTrue(Files.exists(shot) && Files.size(shot) > 20_000, "a screenshot with content");
    }
}
