package io.tidemark.checker;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.checker.model.Step;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ShrinkerTest {

    private static List<Step> steps(int n) {
        return IntStream.range(0, n).mapToObj(i -> new Step(i, Step.Kind.WAIT, "", "", "", i)).toList();
    }

    private static boolean holds(List<Step> steps, int... needed) {
        for (int index : needed) {
            if (steps.stream().noneMatch(s -> s.index() == index)) {
                return false;
            }
        }
        return true;
    }

    @Test
    void shouldShrinkToTheStepsWithoutWhichTheFindingGoesAway() {
        Shrinker.Shrunk shrunk = Shrinker.shrink(steps(40), s -> holds(s, 3, 17, 31), 200);

        assertThat(shrunk.steps()).extracting(Step::index).containsExactly(3, 17, 31);
    }

    @Test
    void shouldKeepTheOrderOfTheStepsItKeeps() {
        Shrinker.Shrunk shrunk = Shrinker.shrink(steps(16), s -> holds(s, 12, 2), 200);

        assertThat(shrunk.steps()).extracting(Step::index).containsExactly(2, 12);
    }

    @Test
    void shouldStopAfterTheRunsItWasGivenWithTheSmallestHistoryFoundSoFar() {
        List<Integer> tried = new ArrayList<>();
        Shrinker.Shrunk shrunk = Shrinker.shrink(steps(64), s -> {
            tried.add(s.size());
            return holds(s, 5, 60);
        }, 4);

        // Both halves and the first quarter hold a needed step; the second quarter goes, and the runs are spent.
        assertThat(shrunk.runs()).isEqualTo(4);
        assertThat(tried).hasSize(4);
        assertThat(shrunk.steps()).hasSize(48).extracting(Step::index).contains(5, 60);
    }

    @Test
    void shouldLeaveAHistoryWhoseEveryStepIsNeeded() {
        Shrinker.Shrunk shrunk = Shrinker.shrink(steps(5), s -> s.size() == 5, 100);

        assertThat(shrunk.steps()).hasSize(5);
    }
}
