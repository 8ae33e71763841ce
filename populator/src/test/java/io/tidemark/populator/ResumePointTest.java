package io.tidemark.populator;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.messages.PopulatorCheckpoint;
import io.tidemark.messages.PopulatorCheckpoint.FilerCursor;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Where a term resumes when the committed meta-log holds events past the checkpoint, and after a gap. */
class ResumePointTest {

    private static final Map<String, FilerCursor> CURSORS = Map.of("a:18888", new FilerCursor(900, 1, 5),
            "b:18888", new FilerCursor(1_000, 2, 5));

    @Test
    void shouldKeepEveryFilersCursorWhenTheMetaLogHoldsEventsPastTheCheckpoint() {
        PopulatorCheckpoint checkpoint = new PopulatorCheckpoint(1_000, 1, 10, 1, null, null, null, CURSORS);
        CommittedState committed = new CommittedState(Optional.of(checkpoint), Map.of(),
                Optional.of(new CommittedState.MetaLogPosition(1_200, 0)));

        PopulatorCheckpoint resumed = MetaLogTailer.resumePoint(checkpoint, committed);

        assertThat(resumed.tsNs()).isEqualTo(1_200);
        assertThat(resumed.filers()).as("a lost cursor would skip that filer's events").isEqualTo(CURSORS);
    }

    @Test
    void shouldRaiseOnlyTheCursorsALogGapLeftBehindAndKeepTheMergePosition() {
        PopulatorCheckpoint checkpoint = new PopulatorCheckpoint(1_000, 1, 10, 1, null, null, null, CURSORS);

        PopulatorCheckpoint gapped = checkpoint.gapFound(900, 950, 2_000);

        assertThat(gapped.tsNs()).isEqualTo(1_000);
        assertThat(gapped.filers().get("a:18888").tsNs()).isEqualTo(949);
        assertThat(gapped.filers().get("b:18888")).isEqualTo(CURSORS.get("b:18888"));
    }
}
