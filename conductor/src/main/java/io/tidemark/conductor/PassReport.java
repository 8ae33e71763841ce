package io.tidemark.conductor;

import java.util.List;

/**
 * One pass, as the conductor logs it and {@code --once} prints it.
 *
 * @param seeded      buckets that got a steady walk task
 * @param underWay    buckets skipped because their walk is still going
 * @param paused      buckets skipped because they are paused
 * @param notWalked   registered buckets whose rules need no walk, or are invalid
 * @param backlog     the larger of the two groups' backlogs, or -1 when the gate is off or was not reached
 */
public record PassReport(PassOutcome outcome, List<String> seeded, List<String> underWay, List<String> paused,
                         int notWalked,
                         long backlog, String detail) {

    public String summary() {
        return "pass " + outcome.label() + ": seeded=" + seeded.size() + " under-way=" + underWay.size()
                + (paused.isEmpty() ? "" : " paused=" + paused.size())
                + " not-walked=" + notWalked + (backlog >= 0 ? " backlog=" + backlog : "")
                + (detail == null ? "" : " (" + detail + ")");
    }
}
