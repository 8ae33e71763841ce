package io.tidemark.cli.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.cli.CliRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line refuses, before anything runs, what would otherwise be silently ignored or dangerous: a misspelt
 * setting (with the one meant), a lifecycle day that is not a day outside test mode, a delete rate of 0. Every
 * module's settings are known here, as in the image.
 */
class SafeSettingsTest {

    @TempDir
    Path dir;

    @Test
    void shouldRefuseAMisspeltSettingFromAFlagOrAFileNamingTheOneMeant() throws Exception {
        CliRunner.Result flag = CliRunner.run("config", "show", "--set", "object-processor.deletes.per.sec=5");
        assertThat(flag.exitCode()).isEqualTo(1);
        assertThat(flag.err()).contains("error: unknown setting object-processor.deletes.per.sec (--set); did you "
                + "mean object-processor.deletes.per.second?");
        assertThat(flag.out()).isEmpty();

        Path file = Files.writeString(dir.resolve("tidemark.properties"),
                "bucket-processor.page.sise=10\nkafka.producer.linger.ms=20\n");
        CliRunner.Result fromFile = CliRunner.run("config", "show", "--config", file.toString());
        assertThat(fromFile.exitCode()).isEqualTo(1);
        assertThat(fromFile.err()).contains("unknown setting bucket-processor.page.sise (in " + file
                + "); did you mean bucket-processor.page.size?").doesNotContain("linger");
    }

    @Test
    void shouldPassKafkaClientSettingsThrough() {
        CliRunner.Result run = CliRunner.run("config", "show", "--set", "kafka.producer.linger.ms=20",
                "--set", "kafka.client.id=ops");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("kafka.producer.linger.ms=20", "kafka.client.id=ops");
    }

    @Test
    void shouldRefuseADayThatIsNotADayUnlessTheClusterIsDeclaredATestOne() {
        CliRunner.Result refused = CliRunner.run("config", "show", "--set", "lifecycle.day.seconds=60");
        assertThat(refused.exitCode()).isEqualTo(1);
        assertThat(refused.err()).contains("lifecycle.day.seconds is 60, not 86400", "lifecycle.test.mode=true");

        CliRunner.Result test = CliRunner.run("config", "show", "--set", "lifecycle.day.seconds=60",
                "--set", "lifecycle.test.mode=true");
        assertThat(test.exitCode()).as(test.err()).isZero();
        assertThat(test.out()).contains("lifecycle.day.seconds=60", "lifecycle.test.mode=true");
    }

    @Test
    void shouldRefuseADeleteRateOfZeroAndSpellNoLimitOut() {
        CliRunner.Result zero = CliRunner.run("config", "show", "--set", "object-processor.deletes.per.second=0");
        assertThat(zero.exitCode()).isEqualTo(1);
        assertThat(zero.err()).contains("object-processor.deletes.per.second", "tidemark pause", "unlimited");

        CliRunner.Result unlimited = CliRunner.run("config", "show", "--set",
                "object-processor.deletes.per.second=unlimited");
        assertThat(unlimited.exitCode()).as(unlimited.err()).isZero();
        assertThat(unlimited.out()).contains("object-processor.deletes.per.second=unlimited");
    }
}
