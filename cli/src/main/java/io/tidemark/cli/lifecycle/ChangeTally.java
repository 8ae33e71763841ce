package io.tidemark.cli.lifecycle;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Sets, entry by entry, what the given configuration does within the horizon against what the bucket's current one
 * does: the entries only the given one acts on (what enabling it adds), those only the current one acts on (what it
 * removes), and those both act on but the given one sooner, or later — a rule shortened by mistake acts on the same
 * entries as before, only days or weeks earlier, which is the change an operator most needs to see.
 */
final class ChangeTally {

    private final String current;
    private final int samplesWanted;
    private final Side adds;
    private final Side removes;
    private final Side sooner = new Side();
    private final Side later = new Side();
    private Tally currentActsOn = Tally.NONE;
    private Tally givenActsOn = Tally.NONE;

    /** @param current the current configuration's state, as {@link WhatIfReport.Change#current()} says it */
    ChangeTally(String current, int samplesWanted) {
        this.current = current;
        this.samplesWanted = samplesWanted;
        this.adds = new Side();
        this.removes = new Side();
    }

    void add(Subject subject, Optional<FirstAction> byCurrent, Optional<FirstAction> byGiven) {
        Tally one = new Tally(1, subject.bytes());
        byCurrent.ifPresent(a -> currentActsOn = currentActsOn.plus(one));
        byGiven.ifPresent(a -> givenActsOn = givenActsOn.plus(one));
        if (byGiven.isPresent() && byCurrent.isEmpty()) {
            adds.add(subject, byGiven.get(), ruleId(byGiven.get()));
        } else if (byCurrent.isPresent() && byGiven.isEmpty()) {
            removes.add(subject, byCurrent.get(), ruleId(byCurrent.get()));
        } else if (byCurrent.isPresent()) {
            int order = when(byGiven.get()).compareTo(when(byCurrent.get()));
            if (order < 0) {
                sooner.add(subject, byGiven.get(), ruleId(byGiven.get()));
            } else if (order > 0) {
                later.add(subject, byGiven.get(), ruleId(byGiven.get()));
            }
        }
    }

    WhatIfReport.Change report() {
        return new WhatIfReport.Change(current, currentActsOn, givenActsOn, adds.report(), removes.report(),
                sooner.report(), later.report());
    }

    /** When the action happens: its due instant, or now for one already due (both configurations then act now). */
    private static java.time.Instant when(FirstAction action) {
        return action.slot() == Horizon.NOW ? java.time.Instant.MIN : action.match().dueAt();
    }

    private static String ruleId(FirstAction action) {
        return action.match().ruleId();
    }

    private final class Side {
        private Tally entries = Tally.NONE;
        private long held;
        private final List<WhatIfReport.Sample> samples = new ArrayList<>();

        void add(Subject subject, FirstAction action, String ruleId) {
            entries = entries.plus(new Tally(1, subject.bytes()));
            if (action.held()) {
                held++;
            }
            if (samples.size() < samplesWanted) {
                samples.add(subject.sample(action, ruleId));
            }
        }

        WhatIfReport.ChangeSide report() {
            return new WhatIfReport.ChangeSide(entries, held, List.copyOf(samples));
        }
    }
}
