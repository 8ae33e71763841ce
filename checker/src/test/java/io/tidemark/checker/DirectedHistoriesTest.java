package io.tidemark.checker;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.checker.model.DirectedHistories;
import io.tidemark.checker.model.History;
import io.tidemark.checker.model.HistoryGenerator;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The checker's regression cases: each directed history found a lost expiration or an early delete on the code
 * before its fix. Run as one checker, one cluster, in the build's slice.
 */
class DirectedHistoriesTest {

    @Test
    void shouldLoseNoExpirationAndDeleteNothingEarlyInAnyDirectedHistory() throws Exception {
        StringWriter report = new StringWriter();
        Checker.Summary summary;
        Checker.Options options = new Checker.Options(0, 0, 2, 4, 2, 0, 1, HistoryGenerator.faultKinds(false),
                null, 1);
        try (Checker checker = Checker.start(options)) {
            List<History> histories = List.copyOf(DirectedHistories.all(options.daySeconds() * 1_000L).values());
            summary = checker.run(histories, new PrintWriter(report, true));
        }
        System.out.println(report);

        assertThat(summary.findings()).as(report.toString()).isEmpty();
        assertThat(summary.failedServices()).as(report.toString()).isEmpty();
        assertThat(summary.actions()).as("lifecycle acted at all").isPositive();
    }

    @Test
    void shouldLoseNoExpirationInAnyDirectedHistoryOfSeveralFilers() throws Exception {
        StringWriter report = new StringWriter();
        Checker.Summary summary;
        // Days of 6 s: a stream later than the populator's hold and skew allowance, and earlier than a day.
        Checker.Options options = new Checker.Options(0, 0, 6, 2, 2, 0, 1, HistoryGenerator.faultKinds(false, 2),
                null, 2);
        try (Checker checker = Checker.start(options)) {
            List<History> histories = List.copyOf(DirectedHistories.severalFilers(options.daySeconds() * 1_000L)
                    .values());
            summary = checker.run(histories, new PrintWriter(report, true));
        }
        System.out.println(report);

        assertThat(summary.findings()).as(report.toString()).isEmpty();
        assertThat(summary.failedServices()).as(report.toString()).isEmpty();
        assertThat(summary.actions()).as("lifecycle acted at all").isPositive();
    }
}
