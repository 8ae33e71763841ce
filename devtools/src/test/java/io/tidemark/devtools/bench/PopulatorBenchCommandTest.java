package io.tidemark.devtools.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.devtools.ToolRunner;
import org.junit.jupiter.api.Test;

/** {@code tidemark populator bench}: the populator against the raw subscription, on a cluster of its own. */
class PopulatorBenchCommandTest {

    @Test
    void shouldBenchmarkExactlyOnceAgainstTheRawSubscribeRate() {
        ToolRunner.Result r = ToolRunner.run("populator", "bench", "--events", "3000", "--rounds", "1",
                "--batch-max-events", "500");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("populator benchmark: 3000 filer events, a warm-up and 1 rounds, batches of up to 500 events")
                .containsPattern("round 1: raw SubscribeMetadata [\\d,]+ events/s; populator [\\d,]+ events/s "
                        + "exactly-once \\(3000 published, \\d+ transactions")
                .containsPattern("    populator: \\d+\\.\\d\\d CPU-s per million events: .*populator \\d+\\.\\d\\d")
                .containsPattern("best: raw [\\d,]+ events/s; populator [\\d,]+ events/s; ratio \\d\\.\\d\\d\\n");
    }

    @Test
    void shouldMeasureOneStreamACatchUpAndALiveTailOfSeveralFilersEachPublishingEveryEventExactlyOnce() {
        // A short hold and clock margin: the bench's end-of-log wait is theirs, and the slice need not wait it out.
        ToolRunner.Result r = ToolRunner.run("populator", "bench", "--events", "3000", "--rounds", "1",
                "--batch-max-events", "500", "--filers", "3", "--set", "populator.filers.hold.max.ms=300",
                "--set", "populator.filers.max.clock.skew.ms=50");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("populator benchmark: 3000 filer events over 3 filers (1000 + 1000 + 1000), a warm-up "
                        + "and 1 rounds")
                .containsPattern("round 1, one stream: raw SubscribeMetadata [\\d,]+ events/s; populator [\\d,]+ "
                        + "events/s exactly-once \\(3000 published, \\d+ transactions")
                .containsPattern("round 1, catch-up: raw SubscribeLocalMetadata on 3 filers \\([\\d,]+ delivered with "
                        + "the catch-up's copies of peers' events\\) [\\d,]+ events/s; populator [\\d,]+ events/s "
                        + "exactly-once \\(3000 published, \\d+ transactions")
                .containsPattern("round 1, live tail: raw SubscribeLocalMetadata on 3 filers \\([\\d,]+ delivered, each "
                        + "filer's own once\\) [\\d,]+ events/s; populator [\\d,]+ events/s exactly-once "
                        + "\\(3000 published, \\d+ transactions")
                .containsPattern("best, catch-up: raw [\\d,]+ events/s; populator [\\d,]+ events/s; ratio \\d+\\.\\d\\d; "
                        + "least CPU [\\d.]+ µs per event \\([\\d.]+ × one stream\\)\\n")
                .doesNotContain("MISMATCH");
    }
}
