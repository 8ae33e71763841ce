package io.tidemark.checker;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.checker.model.HistoryGenerator;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The checker's slice in the build: a fixed seed, a whole history with faults against the whole pipeline (longer
 * seeds and soaks run by {@code tidemark check}); any finding fails the build, with the report a person can act on as
 * the failure message.
 */
class CheckerSliceTest {

    @Test
    void shouldFindNoWrongfulDeleteAndNoLostExpirationInTheFixedSeed() throws Exception {
        StringWriter report = new StringWriter();
        Checker.Summary summary;
        try (Checker checker = Checker.start(new Checker.Options(50, 3, 2, 4, 2, 0, 1,
                HistoryGenerator.faultKinds(false), null, 1))) {
            summary = checker.check(List.of(5L), new PrintWriter(report, true));
        }
        System.out.println(report);

        assertThat(summary.findings()).as(report.toString()).isEmpty();
        assertThat(summary.failedServices()).as(report.toString()).isEmpty();
        assertThat(summary.actions()).as("lifecycle acted at all").isPositive();
    }
}
