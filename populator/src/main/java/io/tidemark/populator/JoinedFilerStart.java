package io.tidemark.populator;

import java.time.Duration;
import java.util.function.LongPredicate;

/**
 * Where a filer found without a cursor is tailed from. Its first event is stamped no earlier than the last master
 * list every tailed filer was in (it was not in that list), less the clocks' skew. Read back from there while copies
 * of its peers' events in that span can still be told apart; beyond that, the span is walked instead.
 *
 * @param tailFromNs where its stream starts
 * @param walkFromNs where a span its stream does not read begins, which every lifecycle bucket's walk recovers
 *                   ({@code -1}: none)
 * @param repair     how its events before the cold-start overlap are recovered
 */
record JoinedFilerStart(long tailFromNs, long walkFromNs, Repair repair) {

    /** How a filer found late has its earlier events recovered. */
    enum Repair {
        /** Not found late: the cold-start overlap covers it. */
        NONE,
        /** Its stream starts before the overlap, at the last list without it. */
        READ_BACK,
        /** The span before the overlap is walked. */
        WALK
    }

    /**
     * @param publishedNs   how far the merge has published
     * @param overlap       the cold-start overlap: a filer is tailed from at least this long before that
     * @param listedNs      when the master last listed only tailed filers ({@code null}: not known)
     * @param skew          how far the filers' clocks may be apart
     * @param copiesTold    whether a copy of an event stamped at some time is recognised as published
     */
    static JoinedFilerStart of(long publishedNs, Duration overlap, Long listedNs, Duration skew,
                               LongPredicate copiesTold) {
        long overlapFrom = Math.max(0, publishedNs - overlap.toNanos());
        if (listedNs == null) {
            return new JoinedFilerStart(overlapFrom, -1, Repair.NONE);
        }
        long joinedFrom = Math.max(0, listedNs - skew.toNanos());
        if (joinedFrom >= overlapFrom) {
            return new JoinedFilerStart(overlapFrom, -1, Repair.NONE);
        }
        if (copiesTold.test(joinedFrom)) {
            return new JoinedFilerStart(joinedFrom, -1, Repair.READ_BACK);
        }
        return new JoinedFilerStart(overlapFrom, joinedFrom, Repair.WALK);
    }
}
