package io.tidemark.devtools.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.devtools.ToolRunner;
import org.junit.jupiter.api.Test;

/**
 * A small slice of {@code tidemark pipeline-bench} (the full run is by hand; figures in docs/benchmarks.md): every
 * phase deletes every object it wrote, and each round reports its ratio against the processor alone.
 */
class PipelineBenchCommandTest {

    @Test
    void shouldDeleteEveryObjectOfTheWarmUpTheRoundAndTheSteadyPhaseAndReportTheRatio() {
        ToolRunner.Result r = ToolRunner.run("pipeline-bench", "--burst", "300", "--warm-up", "100", "--rounds", "1",
                "--rate", "100", "--seconds", "2", "--day-seconds", "3");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out())
                .contains("pipeline benchmark: day 3 s, burst 300, 1 rounds after a warm-up of 100")
                .contains("warm-up burst (not measured): 100 deleted (0 missing)")
                .contains("round 1: burst: 300 deleted (0 missing)")
                // One timer and one task per object, whatever the burst costs to write (issue 48 item 5).
                .containsPattern("round 1: burst: [^\\n]*\\n  the processor's histogram: 300 deletes, "
                        + "p50 ≤ [\\d.]+ s, "
                        + "p99 ≤ [\\d.]+ s\\n  tasks: 1\\.00 per object \\(300 DONE, 0 NOOP_RESOLVED\\), 0 key walks")
                .containsPattern("object processor alone: 300 deletes in \\d+\\.\\d\\d s, \\d+ deletes/s; "
                        + "\\d+\\.\\d\\d CPU-s per million deletes: ")
                .containsPattern("round 1: end to end / object processor alone \\d+ / \\d+ = \\d+\\.\\d\\d "
                        + "\\(from the first delete on: \\d+ deletes/s, \\d+\\.\\d\\d\\)")
                .containsPattern("steady: 200 deleted \\(0 missing\\)[^\\n]*\\n"
                        + "  the processor's histogram: 200 deletes")
                .containsPattern("end to end / object processor alone \\(burst of 300\\): best \\d+ / best \\d+ "
                        + "deletes/s = \\d+\\.\\d\\d, median of the rounds' ratios \\d+\\.\\d\\d");
    }
}
