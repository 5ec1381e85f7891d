package io.p2pbench.cli;

import static io.p2pbench.cli.CliTest.assertOneLine;
import static io.p2pbench.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.p2pbench.settings.Settings;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A {@code -Dp2pbench.*} or {@code P2PBENCH_DEBUG} value that is not accepted ends any command at once. */
class SettingsCliTest {
    @Test
    void aBadPropertyEndsTheCommandInOneLineBeforeItRuns() {
        String before = System.getProperty(Settings.GATE);
        System.setProperty(Settings.GATE, "banana");
        try {
            CliTest.Result r = run("topology", "--json");
            assertOneLine(r, "-Dp2pbench.gate='banana' is not accepted; use auto, wait, spin");
            assertEquals("", r.out());
        } finally {
            HardeningCliTest.restore(Settings.GATE, before);
        }
    }

    @Test
    void aDebugValueOtherThanOneOrZeroIsNamed() {
        Settings.Source none = name -> null;
        assertNull(Main.settingsProblem(none, null));
        assertNull(Main.settingsProblem(none, "1"));
        assertNull(Main.settingsProblem(none, "0"));
        assertEquals("P2PBENCH_DEBUG='yes' is not accepted; use 1 (stack traces on) or 0",
                Main.settingsProblem(none, "yes"));
        assertEquals("-Dp2pbench.cds='maybe' is not accepted; use true, false",
                Main.settingsProblem(Map.of(Settings.CDS, "maybe")::get, null));
    }
}
