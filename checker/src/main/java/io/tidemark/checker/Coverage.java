package io.tidemark.checker;

import io.tidemark.checker.model.RuleCatalog;
import io.tidemark.checker.model.RuleCatalog.RuleKind;
import io.tidemark.checker.model.Step;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Which combinations of operation × rule kind in force in its bucket × fault under way the runs reached: what the
 * histories exercised, as opposed to what they could have.
 */
final class Coverage {

    /** What a history does to S3: every kind of step but the faults and the pauses. */
    private static final Set<Step.Kind> OPERATIONS = Arrays.stream(Step.Kind.values())
            .filter(kind -> !kind.fault() && kind != Step.Kind.WAIT)
            .collect(Collectors.toCollection(() -> EnumSet.noneOf(Step.Kind.class)));

    private final Map<String, Set<RuleKind>> rulesInForce = new HashMap<>();
    private final Map<Step.Kind, Long> faultUntil = new EnumMap<>(Step.Kind.class);
    private final Set<String> reached = new TreeSet<>();

    void step(Step step) {
        switch (step.kind()) {
            case RULES -> rulesInForce.put(step.bucket(), RuleCatalog.kinds(step.arg()));
            case REMOVE_RULES -> rulesInForce.remove(step.bucket());
            default -> {
            }
        }
        if (!OPERATIONS.contains(step.kind())) {
            return;
        }
        long now = System.nanoTime();
        Set<String> faults = new TreeSet<>();
        faultUntil.forEach((kind, until) -> {
            if (until - now > 0) {
                faults.add(kind.name());
            }
        });
        if (faults.isEmpty()) {
            faults.add("none");
        }
        for (RuleKind rule : rulesInForce.getOrDefault(step.bucket(), Set.of())) {
            for (String fault : faults) {
                reached.add(step.kind() + "×" + rule + "×" + fault);
            }
        }
    }

    void faultOn(Step.Kind kind, Duration length) {
        faultUntil.put(kind, System.nanoTime() + length.toNanos());
    }

    void addAll(Coverage other) {
        reached.addAll(other.reached);
    }

    int reached() {
        return reached.size();
    }

    /**
     * Every combination there is: each operation with each rule kind, under no fault or one of each kind (filer faults
     * only where there are several filers, so that a one-filer figure is comparable with those before they existed).
     */
    static int possible(int filers) {
        long faults = Arrays.stream(Step.Kind.values()).filter(Step.Kind::fault)
                .filter(kind -> filers > 1 || !kind.filerFault()).count();
        return (int) (OPERATIONS.size() * RuleKind.values().length * (faults + 1));
    }
}
