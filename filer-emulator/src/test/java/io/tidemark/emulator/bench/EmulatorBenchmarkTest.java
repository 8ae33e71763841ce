package io.tidemark.emulator.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** Keeps the benchmark runnable; it checks what is reported, never how fast. */
class EmulatorBenchmarkTest {

    @Test
    void shouldReportEveryBaselineForASmallRun() throws Exception {
        StringWriter out = new StringWriter();
        EmulatorBenchmark.Result result = EmulatorBenchmark.run(new EmulatorBenchmark.Options(300, 64, 50, 1),
                new PrintWriter(out, true));
        assertThat(out.toString()).contains("ListEntries", "SubscribeMetadata", "LifecycleDelete", "best:");
        assertThat(result.listEntriesPerSecond()).isPositive();
        assertThat(result.subscribeEventsPerSecond()).isPositive();
        assertThat(result.deletesPerSecond()).isPositive();
    }
}
