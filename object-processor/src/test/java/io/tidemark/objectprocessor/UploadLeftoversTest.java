package io.tidemark.objectprocessor;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.emulator.EmulatorSettings;
import io.tidemark.emulator.FilerEmulator;
import io.tidemark.emulator.MutableClock;
import io.tidemark.emulator.s3.S3Gateway;
import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.seaweed.client.GrpcTls;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The check before an abort, against what a bucket may really hold beside an upload's destination key. */
class UploadLeftoversTest {

    private final FilerEmulator emulator = new FilerEmulator(EmulatorSettings.ephemeral(),
            new MutableClock(Instant.parse("2026-03-01T00:00:00Z"))).start();
    private final S3Gateway s3 = emulator.s3();
    private final FilerClient filer = FilerClient.connect(emulator.filerAddress(), GrpcTls.PLAINTEXT,
            Duration.ofSeconds(30));

    @AfterEach
    void close() {
        filer.close();
        emulator.close();
    }

    @Test
    void shouldCheckAnUploadWhoseKeyHasADirectoryOfThatNameHoldingOtherObjects() {
        // In an unversioned bucket "photo.versions/readme" is an ordinary object: its directory has the name of the
        // upload key's versions directory, and its file is no version file.
        s3.createBucket("b", false);
        s3.putObject("b", "photo.versions/readme", 10, Map.of(), Map.of());
        String upload = s3.createUpload("b", "photo");
        s3.uploadPart("b", upload, 1, 1_000);

        UploadLeftovers leftovers = new UploadLeftovers(filer);

        assertThat(leftovers.sharedWithAnObject("b", ".uploads/" + upload)).isEmpty();
    }
}
