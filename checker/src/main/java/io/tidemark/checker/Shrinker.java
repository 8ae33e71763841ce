package io.tidemark.checker;

import io.tidemark.checker.model.Step;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Makes a failing history smaller while it still fails: drops ever smaller chunks of its steps (delta debugging),
 * keeping any removal after which the finding persists. Each try is a whole run, so the number of tries is bounded;
 * what is returned is the smallest history found, not necessarily the smallest there is.
 */
final class Shrinker {

    private Shrinker() {
    }

    /** What shrinking left, and how many runs it took. */
    record Shrunk(List<Step> steps, int runs) {
    }

    /**
     * @param stillFails runs a candidate and says whether the finding persists
     * @param maxRuns    at most this many candidates are run
     */
    static Shrunk shrink(List<Step> steps, Predicate<List<Step>> stillFails, int maxRuns) {
        List<Step> current = List.copyOf(steps);
        int runs = 0;
        int chunks = 2;
        while (current.size() >= 2 && runs < maxRuns) {
            int size = (int) Math.ceil((double) current.size() / chunks);
            boolean removed = false;
            for (int start = 0; start < current.size() && runs < maxRuns; start += size) {
                List<Step> candidate = new ArrayList<>(current.subList(0, start));
                candidate.addAll(current.subList(Math.min(current.size(), start + size), current.size()));
                if (candidate.isEmpty()) {
                    continue;
                }
                runs++;
                if (stillFails.test(candidate)) {
                    current = List.copyOf(candidate);
                    chunks = Math.max(chunks - 1, 2);
                    removed = true;
                    break;
                }
            }
            if (!removed) {
                if (chunks >= current.size()) {
                    break;
                }
                chunks = Math.min(chunks * 2, current.size());
            }
        }
        return new Shrunk(current, runs);
    }
}
