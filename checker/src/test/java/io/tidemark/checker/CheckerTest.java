package io.tidemark.checker;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.checker.model.Finding;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class CheckerTest {

    private static Finding wrongful(String bucket) {
        return new Finding(Finding.Kind.WRONGFUL_DELETE, bucket, "a/1", null, "EXPIRE_PREFIX-1", Instant.EPOCH, "");
    }

    /**
     * Found when the shrinker first ran on a real failing history (seed 700): each run names its buckets after itself,
     * so a finding's signature, bucket name included, never matched in a shrunk run, and nothing was ever dropped.
     */
    @Test
    void shouldKnowTheSameFindingInAnotherRunOfTheHistory() {
        assertThat(Checker.signature(wrongful("r12-46cfc2-plain")))
                .isEqualTo(Checker.signature(wrongful("r3-a1-plain")))
                .isNotEqualTo(Checker.signature(wrongful("r3-a1-locked")));
    }
}
