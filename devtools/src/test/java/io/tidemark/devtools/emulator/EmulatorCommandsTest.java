package io.tidemark.devtools.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.devtools.ToolRunner;
import io.tidemark.devtools.ToolRunner.Result;
import io.tidemark.emulator.EmulatorSettings;
import io.tidemark.emulator.FilerEmulator;
import io.tidemark.seaweed.S3Layout;
import java.time.Clock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class EmulatorCommandsTest {

    private FilerEmulator emulator;

    @BeforeEach
    void start() {
        emulator = new FilerEmulator(EmulatorSettings.ephemeral(), Clock.systemUTC()).start();
    }

    @AfterEach
    void stop() {
        emulator.close();
    }

    private Result s3(String... args) {
        String[] full = new String[args.length + 4];
        full[0] = "emulator";
        full[1] = "s3";
        full[2] = "--admin";
        full[3] = emulator.adminAddress();
        System.arraycopy(args, 0, full, 4, args.length);
        return ToolRunner.run(full);
    }

    @Test
    void shouldDriveTheEmulatedGatewayFromTheCommandLine() {
        assertThat(s3("create-bucket", "bucket=photos").exitCode()).isZero();
        assertThat(s3("put-versioning", "bucket=photos", "status=Enabled").exitCode()).isZero();
        Result put = s3("put-object", "bucket=photos", "key=2026/a.jpg", "size=1024", "tags.env=prod");
        assertThat(put.exitCode()).isZero();
        assertThat(put.out()).contains("\"versionId\":\"");
        var entry = emulator.s3().latest("photos", "2026/a.jpg").orElseThrow().entry();
        assertThat(entry.getAttributes().getFileSize()).isEqualTo(1024);
        assertThat(entry.getExtendedMap().get(S3Layout.TAG_PREFIX + "env").toStringUtf8()).isEqualTo("prod");
        Result versions = s3("list-versions", "bucket=photos", "key=2026/a.jpg");
        assertThat(versions.out()).contains("\"latest\":true", "\"size\":1024");
    }

    @Test
    void shouldExitOneWithTheS3ErrorWhenTheEmulatorRefuses() {
        Result r = s3("put-object", "bucket=missing", "key=k");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.out()).contains("\"code\":\"NoSuchBucket\"");
        assertThat(s3("no-such-operation").exitCode()).isEqualTo(1);
        assertThat(s3("put-object", "not-a-pair").exitCode()).isEqualTo(2);
    }

    @Test
    void shouldTurnFaultKnobs() {
        Result r = ToolRunner.run("emulator", "faults", "--admin", emulator.adminAddress(), "set",
                "unavailableProbability=0.25", "latencyMs=5");
        assertThat(r.exitCode()).isZero();
        assertThat(emulator.faults().unavailableProbability()).isEqualTo(0.25);
        assertThat(ToolRunner.run("emulator", "faults", "--admin", emulator.adminAddress(),
                "clear").exitCode()).isZero();
        assertThat(emulator.faults().unavailableProbability()).isZero();
    }

    @Test
    void shouldReportAnUnreachableEmulator() {
        Result r = ToolRunner.run("emulator", "s3", "--admin", "127.0.0.1:1", "create-bucket", "bucket=b");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains("cannot reach the emulator");
    }
}
