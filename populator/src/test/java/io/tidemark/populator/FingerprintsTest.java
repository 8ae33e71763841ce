package io.tidemark.populator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FingerprintsTest {

    @Test
    void shouldRememberExactlyTheLastCapacityDistinctFingerprintsAndCoverFromTheOldestForgotten() {
        for (int capacity : new int[] {1, 2, 7, 64, 1_000}) {
            Random random = new Random(capacity);
            Fingerprints memory = new Fingerprints(capacity, 99);
            ArrayDeque<long[]> order = new ArrayDeque<>();
            Set<Long> held = new HashSet<>();
            long covered = 100;
            // Few distinct values, so adds repeat and probe sequences collide and wrap.
            int distinct = capacity * 3 + 5;
            for (int step = 0; step < 20_000; step++) {
                long fingerprint = draw(random, distinct);
                long ts = 1_000 + step;
                memory.add(fingerprint, ts);
                if (held.add(fingerprint)) {
                    order.addLast(new long[] {fingerprint, ts});
                    if (order.size() > capacity) {
                        long[] forgotten = order.removeFirst();
                        held.remove(forgotten[0]);
                        covered = Math.max(covered, forgotten[1] + 1);
                    }
                }
                long probe = draw(random, distinct);
                assertThat(memory.contains(probe)).as("capacity %d, step %d, %d", capacity, step, probe)
                        .isEqualTo(held.contains(probe));
                assertThat(memory.covers(covered)).isTrue();
                assertThat(memory.covers(covered - 1)).isFalse();
            }
        }
    }

    @Test
    void shouldTellADigestOfZeroFromNoneAsIfItWereOne() {
        Fingerprints memory = new Fingerprints(4, 0);
        memory.add(0, 10);
        assertThat(memory.contains(0)).isTrue();
        assertThat(memory.contains(1)).as("the one look-alike of 0").isTrue();
        assertThat(memory.contains(2)).isFalse();
    }

    /** Around zero, positive and negative; never 0 itself, which is held as 1 (the other test). */
    private static long draw(Random random, int distinct) {
        long value = random.nextInt(distinct) - distinct / 2;
        return value == 0 ? distinct : value;
    }
}
