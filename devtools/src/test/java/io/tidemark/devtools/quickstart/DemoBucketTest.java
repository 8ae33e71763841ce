package io.tidemark.devtools.quickstart;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.emulator.EmulatorSettings;
import io.tidemark.emulator.FilerEmulator;
import java.time.Clock;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The quickstart's demo bucket, on a filer emulator that outlives one run (as with {@code --data-dir}). */
class DemoBucketTest {

    @Test
    void shouldTakeUpTheBucketOfAnEarlierRunAndWriteNewLogsAfterItsOwn() throws Exception {
        try (FilerEmulator emulator = new FilerEmulator(EmulatorSettings.ephemeral(), Clock.systemUTC()).start()) {
            DemoBucket first = new DemoBucket(emulator.s3());
            first.create(Instant.now());
            first.writeLogs(3);
            assertThat(first.objects()).isEqualTo(18);   // 5 archive/, 5 keep/, 8 logs/

            DemoBucket restarted = new DemoBucket(emulator.s3());
            restarted.create(Instant.now());
            assertThat(restarted.written()).as("nothing seeded twice").isZero();
            restarted.writeLogs(2);
            assertThat(restarted.objects()).as("two new logs, none overwritten").isEqualTo(20);
            assertThat(emulator.s3().latest(DemoBucket.BUCKET, "logs/app-00009.log")).isPresent();
        }
    }
}
