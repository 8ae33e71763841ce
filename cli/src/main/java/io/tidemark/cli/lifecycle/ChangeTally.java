package io.tidemark.cli.lifecycle;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Sets, entry by entry, what the given configuration does within the horizon against what the bucket's current one
 * does: the entries only the given one acts on (what enabling it adds) and those only the current one acts on (what
 * it removes). An entry both act on, at whatever time, is in neither.
 */
final class ChangeTally {

    private final String current;
    private final int samplesWanted;
    private final Side adds;
    private final Side removes;
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
        }
    }

    WhatIfReport.Change report() {
        return new WhatIfReport.Change(current, currentActsOn, givenActsOn, adds.report(), removes.report());
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
