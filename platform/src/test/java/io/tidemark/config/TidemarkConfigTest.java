package io.tidemark.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.lifecycle.engine.DuePolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TidemarkConfigTest {

    @TempDir
    Path dir;

    private static TidemarkConfig load(Path file, Map<String, String> env, Map<String, String> flags) {
        return ConfigLoader.load(TidemarkConfig.definition(), TidemarkConfig::new, file, env, flags);
    }

    @Test
    void shouldLayerFileThenEnvironmentThenFlags() throws Exception {
        Path file = Files.writeString(dir.resolve("tidemark.properties"), String.join("\n",
                "kafka.bootstrap.servers=file:9092", "topic.prefix=file.", "shard.bits=6", "zookeeper.chroot=/from-file"));
        TidemarkConfig config = load(file,
                Map.of("TIDEMARK_KAFKA_BOOTSTRAP_SERVERS", "env:9092", "TIDEMARK_TOPIC_PREFIX", "env.",
                        "UNRELATED", "x"),
                Map.of("topic.prefix", "flag."));
        assertThat(config.kafkaBootstrapServers()).isEqualTo("env:9092");
        assertThat(config.topicPrefix()).isEqualTo("flag.");
        assertThat(config.shardBits()).isEqualTo(6);
        assertThat(config.zookeeperNamespace()).isEqualTo("from-file");
    }

    @Test
    void shouldApplyDefaultsWhenNothingIsSet() {
        TidemarkConfig config = load(null, Map.of(), Map.of());
        assertThat(config.kafkaBootstrapServers()).isEqualTo("localhost:9092");
        assertThat(config.zookeeperNamespace()).isEqualTo("tidemark");
        assertThat(config.topicPrefix()).isEqualTo("tidemark.");
        assertThat(config.shardBits()).isEqualTo(4);
        assertThat(config.calendar().policy()).isEqualTo(DuePolicy.AWS);
        assertThat(config.calendar().dayLength()).isEqualTo(Duration.ofDays(1));
        assertThat(config.grpcTls().enabled()).isFalse();
        assertThat(config.shutdownTimeout()).isLessThan(Duration.ofSeconds(30));
    }

    @Test
    void shouldMapDashedKeysToEnvironmentVariables() {
        assertThat(TidemarkConfig.environmentVariable("topic.meta-log.retention.ms"))
                .isEqualTo("TIDEMARK_TOPIC_META_LOG_RETENTION_MS");
        TidemarkConfig config = load(null, Map.of("TIDEMARK_TOPIC_META_LOG_RETENTION_MS", "-1"), Map.of());
        assertThat(config.getLong(TidemarkConfig.TOPIC_META_LOG_RETENTION_MS)).isEqualTo(-1);
    }

    @Test
    void shouldPassKafkaSettingsThroughToEachClient() {
        TidemarkConfig config = load(null, Map.of(
                "TIDEMARK_KAFKA_SECURITY_PROTOCOL", "SSL",
                "TIDEMARK_KAFKA_PRODUCER_LINGER_MS", "20",
                "TIDEMARK_KAFKA_CONSUMER_MAX_POLL_RECORDS", "50",
                "TIDEMARK_KAFKA_STREAMS_NUM_STREAM_THREADS", "2"),
                Map.of("kafka.admin.request.timeout.ms", "1000", "kafka.client.id", "x"));
        assertThat(config.producerProperties()).containsEntry("linger.ms", "20").containsEntry("security.protocol", "SSL")
                .containsEntry("bootstrap.servers", "localhost:9092").doesNotContainKey("max.poll.records");
        assertThat(config.consumerProperties()).containsEntry("max.poll.records", "50").containsEntry("client.id", "x");
        assertThat(config.streamsProperties()).containsEntry("num.stream.threads", "2");
        assertThat(config.adminProperties()).containsEntry("request.timeout.ms", "1000");
    }

    @Test
    void shouldReadUnderscoresAndDashesInPassthroughVariables() {
        assertThat(ConfigLoader.passthroughKey("KAFKA_SASL_JAAS_CONFIG")).isEqualTo("kafka.sasl.jaas.config");
        assertThat(ConfigLoader.passthroughKey("KAFKA_A__B___C")).isEqualTo("kafka.a_b-c");
    }

    @Test
    void shouldNameTheKeyAndTheProblemOfABadValue() {
        assertThatThrownBy(() -> load(null, Map.of("TIDEMARK_SHARD_BITS", "20"), Map.of()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("shard.bits").hasMessageContaining("20");
        assertThatThrownBy(() -> load(null, Map.of(), Map.of("lifecycle.due.policy", "daily")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("lifecycle.due.policy");
        assertThatThrownBy(() -> load(null, Map.of(), Map.of("zookeeper.chroot", "tidemark/")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("zookeeper.chroot");
        assertThatThrownBy(() -> load(null, Map.of(), Map.of("management.port", "http")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("management.port");
        assertThatThrownBy(() -> ConfigLoader.flags(List.of("oops")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("key=value");
    }

    @Test
    void shouldMaskSecretsInTheEffectiveConfiguration() {
        TidemarkConfig config = load(null, Map.of("TIDEMARK_ZOOKEEPER_AUTH_DIGEST", "ops:s3cret"),
                Map.of("kafka.sasl.jaas.config", "org.Login password=\"p\";", "kafka.ssl.keystore.password", "pw",
                        "kafka.client.id", "visible"));
        Map<String, String> effective = config.effective();
        assertThat(effective.get("zookeeper.auth.digest")).doesNotContain("s3cret");
        assertThat(effective.get("kafka.sasl.jaas.config")).isEqualTo("[hidden]");
        assertThat(effective.get("kafka.ssl.keystore.password")).isEqualTo("[hidden]");
        assertThat(effective.get("kafka.client.id")).isEqualTo("visible");
        assertThat(effective.get("kafka.bootstrap.servers")).isEqualTo("localhost:9092");
        assertThat(effective.toString()).doesNotContain("s3cret", "pw\"", "password=\"p\"");
        assertThat(config.zookeeperAuthDigest().value()).isEqualTo("ops:s3cret");
    }

    /** Issue 44: a ZooKeeper digest is user:password; anything else (an example's placeholder) is refused, hidden. */
    @Test
    void shouldRefuseAZooKeeperDigestThatIsNotUserColonPassword() {
        for (String wrong : List.of("REPLACE_ME", ":s3cret", "ops:", "s3cret")) {
            assertThatThrownBy(() -> new TidemarkConfig(Map.of("zookeeper.auth.digest", wrong))).as(wrong)
                    .isInstanceOf(ConfigException.class).hasMessageContaining("zookeeper.auth.digest")
                    .hasMessageContaining("user:password").hasMessageNotContaining(wrong);
        }
        assertThat(new TidemarkConfig(Map.of("zookeeper.auth.digest", "ops:s3:cret")).zookeeperAuthDigest().value())
                .isEqualTo("ops:s3:cret");
        assertThat(new TidemarkConfig(Map.of()).zookeeperAuthDigest()).isNull();
    }

    @Test
    void shouldBuildTlsSettingsAndRefuseACertificateWithoutItsKey() {
        TidemarkConfig mutual = load(null, Map.of(), Map.of("grpc.tls.enabled", "true", "grpc.tls.ca.file", "/ca.pem",
                "grpc.tls.cert.file", "/c.pem", "grpc.tls.key.file", "/c.key"));
        assertThat(mutual.grpcTls().mutual()).isTrue();
        TidemarkConfig broken = load(null, Map.of(), Map.of("grpc.tls.enabled", "true", "grpc.tls.cert.file", "/c.pem"));
        assertThatThrownBy(broken::grpcTls).isInstanceOf(ConfigException.class).hasMessageContaining("grpc.tls.cert.file");
    }

    @Test
    void shouldRefuseALifecycleDayThatIsNotADayOutsideTestMode() {
        // The compose file: TIDEMARK_LIFECYCLE_DAY_SECONDS=60 pointed at a real filer deletes a 30-day rule's
        // objects after 30 minutes.
        assertThatThrownBy(() -> load(null, Map.of("TIDEMARK_LIFECYCLE_DAY_SECONDS", "60"), Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("lifecycle.day.seconds is 60, not 86400")
                .hasMessageContaining("30 minutes")
                .hasMessageContaining("lifecycle.test.mode=true (TIDEMARK_LIFECYCLE_TEST_MODE=true)");
        assertThatThrownBy(() -> load(null, Map.of(), Map.of("lifecycle.day.seconds", "172800",
                "lifecycle.test.mode", "false"))).isInstanceOf(ConfigException.class)
                .hasMessageContaining("lifecycle.day.seconds is 172800");
        assertThatThrownBy(() -> new TidemarkConfig(Map.of("lifecycle.day.seconds", "10")))
                .as("however the configuration is built").isInstanceOf(ConfigException.class);
    }

    @Test
    void shouldAcceptAShortDayInTestMode() {
        TidemarkConfig test = load(null, Map.of("TIDEMARK_LIFECYCLE_DAY_SECONDS", "60",
                "TIDEMARK_LIFECYCLE_TEST_MODE", "true"), Map.of());
        assertThat(test.getBoolean("lifecycle.test.mode")).isTrue();
        assertThat(test.calendar().dayLength()).isEqualTo(Duration.ofSeconds(60));
        TidemarkConfig real = load(null, Map.of(), Map.of("lifecycle.day.seconds", "86400"));
        assertThat(real.getBoolean("lifecycle.test.mode")).isFalse();
        assertThat(real.calendar().dayLength()).isEqualTo(Duration.ofDays(1));
    }

    @Test
    void shouldRefuseUnknownSettingsFromTheFileTheEnvironmentAndFlagsNamingTheNearestOne() throws Exception {
        Path file = Files.writeString(dir.resolve("typo.properties"), "topic.prefx=x.\nkafka.linger.ms=5\n");
        assertThatThrownBy(() -> load(file, Map.of(), Map.of())).isInstanceOf(ConfigException.class)
                .hasMessageContaining("unknown setting topic.prefx (in " + file + "); did you mean topic.prefix?")
                .hasMessageNotContaining("kafka.linger.ms");
        assertThatThrownBy(() -> load(null, Map.of("TIDEMARK_SHARD_BIT", "3", "TIDEMARK_KAFKA_LINGER_MS", "5",
                "TIDEMARK_JAVA_OPTS", "-Xmx1g", "UNRELATED", "x"), Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("unknown environment variable TIDEMARK_SHARD_BIT; did you mean "
                        + "TIDEMARK_SHARD_BITS (shard.bits)?")
                .hasMessageNotContaining("KAFKA").hasMessageNotContaining("JAVA_OPTS").hasMessageNotContaining("UNRELATED");
        assertThatThrownBy(() -> load(null, Map.of(), Map.of("grpc.deadline.msec", "100", "kafka.client.id", "x")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("unknown setting grpc.deadline.msec (--set); did you mean grpc.deadline.ms?")
                .hasMessageNotContaining("kafka.client.id");
        assertThatThrownBy(() -> load(null, Map.of(), Map.of("something.else.entirely", "1")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("unknown setting something.else.entirely")
                .hasMessageNotContaining("did you mean");
    }

    @Test
    void shouldPassEveryKafkaKeyThroughUncheckedWithTheToolsOwnVariables() {
        TidemarkConfig config = load(null, Map.of("TIDEMARK_KAFKA_SASL_MECHANISM", "PLAIN",
                "TIDEMARK_LOG_LEVEL", "DEBUG", "TIDEMARK_EMULATOR_ADMIN_ADDRESS", "127.0.0.1:1"),
                Map.of("kafka.whatever.the.client.reads", "1", "kafka.streams.num.standby.replicas", "1"));
        assertThat(config.producerProperties()).containsEntry("sasl.mechanism", "PLAIN")
                .containsEntry("whatever.the.client.reads", "1");
        assertThat(config.streamsProperties()).containsEntry("num.standby.replicas", "1");
    }

    @Test
    void shouldRefuseAStopShorterThanOneCallAndZerosThatMeanAtOnce() {
        assertThatThrownBy(() -> load(null, Map.of(), Map.of("shutdown.timeout.ms", "5000")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("shutdown.timeout.ms (5000) is below grpc.deadline.ms (20000)");
        assertThat(load(null, Map.of(), Map.of("shutdown.timeout.ms", "5000", "grpc.deadline.ms", "5000"))
                .shutdownTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(load(null, Map.of(), Map.of()).grpcDeadline()).isLessThanOrEqualTo(load(null, Map.of(), Map.of())
                .shutdownTimeout());
        for (String key : List.of("topic.meta-log.retention.ms", "topic.tasks.retention.ms", "topic.dlq.retention.ms",
                "topic.replication.factor")) {
            assertThatThrownBy(() -> load(null, Map.of(), Map.of(key, "0"))).as(key)
                    .isInstanceOf(ConfigException.class).hasMessageContaining(key).hasMessageContaining("-1");
        }
        assertThat(load(null, Map.of(), Map.of("topic.tasks.retention.ms", "-1", "topic.replication.factor", "3"))
                .getShort("topic.replication.factor")).isEqualTo((short) 3);
    }

    @Test
    void shouldHoldOnlyTheSharedSettingsWhenNoServiceModuleIsOnTheClassPath() {
        // Each service contributes its own keys (ConfigContribution); the platform alone knows none of them.
        assertThat(TidemarkConfig.definition().names()).contains("kafka.bootstrap.servers", "topic.prefix", "data.dir")
                .noneMatch(name -> name.startsWith("populator.") || name.startsWith("object-processor.")
                        || name.startsWith("replay-streams.") || name.startsWith("bucket-processor.")
                        || name.startsWith("conductor."));
    }
}
