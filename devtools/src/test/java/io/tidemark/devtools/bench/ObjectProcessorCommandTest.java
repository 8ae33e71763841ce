package io.tidemark.devtools.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tidemark.devtools.ToolRunner;
import io.tidemark.cli.ServicesMain;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.testsupport.ClusterNamespace;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.testsupport.LocalClusterTest;
import io.tidemark.localcluster.ServiceProcess;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteOutcome;
import io.tidemark.topics.TopicAdmin;
import io.tidemark.topics.TopicRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;

/**
 * Runs {@code tidemark object-processor} as its own process, as an operator would: it deletes a due object, parks a
 * refused one, serves its probes and metrics and stops on SIGTERM; then {@code tidemark dlq list} shows what is
 * parked and {@code dlq replay --dry-run} what it would send back.
 */
@LocalClusterTest
class ObjectProcessorCommandTest {

    @Test
    void shouldDeleteServeProbesStopOnSigtermAndListWhatItParked(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        String bucket = "cli-op-" + Long.toHexString(System.nanoTime());
        var s3 = cluster.emulator().s3();
        s3.createBucket(bucket, false);
        s3.putObject(bucket, "due", 1, Map.of(), Map.of());
        s3.putObject(bucket, "refused", 1, Map.of(), Map.of());
        cluster.emulator().faults().force(bucket, "refused", LifecycleDeleteOutcome.BLOCKED, "test refusal");
        Map<String, String> settings = Map.of("kafka.bootstrap.servers", cluster.kafkaBootstrapServers(),
                "topic.prefix", ns.topicPrefix());
        TidemarkConfig config = new TidemarkConfig(settings);
        TopicRegistry topics = TopicRegistry.from(config);
        try (Admin admin = Admin.create(config.adminProperties())) {
            new TopicAdmin(admin, (short) -1).ensure(topics.all());
        }
        // Tasks under a rule the bucket has (its Date passed long ago): the processor checks each against the rules.
        ExpirationTasks.publish(config, topics, s3, bucket, List.of("due", "refused"));

        try (ServiceProcess processor = ServiceProcess.start(ServicesMain.class, "256m", cluster.environment(),
                "object-processor",
                "--set", "topic.prefix=" + ns.topicPrefix(), "--set", "management.port=0",
                "--set", "management.host=127.0.0.1")) {
            assertThat(processor.log()).anyMatch(l -> l.contains("object-processor.deletes.per.second = 500"));
            await().atMost(Duration.ofSeconds(60)).until(() -> processor.get("/readyz").statusCode() == 200);
            assertThat(processor.get("/healthz").statusCode()).isEqualTo(200);
            await().atMost(Duration.ofSeconds(60)).until(() -> processor.get("/metrics").body().lines()
                    .anyMatch(l -> l.startsWith("tidemark_object_processor_dlq_records_total{")
                            && l.contains("outcome=\"BLOCKED\"") && l.endsWith(" 1.0")));
            assertThat(processor.get("/metrics").body().lines()).anyMatch(l -> l.startsWith(
                    "tidemark_object_processor_tasks_total{") && l.contains("outcome=\"DONE\"") && l.endsWith(" 1.0"));
            assertThat(s3.latest(bucket, "due")).isEmpty();
            assertThat(s3.latest(bucket, "refused")).isPresent();
            assertThat(processor.terminate()).isIn(0, 143);
            assertThat(processor.log()).anyMatch(l -> l.contains("stopping: waiting for"));
        }

        String[] connection = {"--set", "kafka.bootstrap.servers=" + cluster.kafkaBootstrapServers(),
            "--set", "topic.prefix=" + ns.topicPrefix()};
        ToolRunner.Result list = ToolRunner.run(concat(new String[] {"dlq", "list"}, connection));
        assertThat(list.exitCode()).isZero();
        assertThat(list.out()).contains("BLOCKED\tEXPIRATION_DATE\t" + bucket + "/refused\tattempts=1")
                .contains("test refusal").contains("1 parked (BLOCKED=1)");
        ToolRunner.Result json = ToolRunner.run(concat(new String[] {"dlq", "list", "--json"}, connection));
        assertThat(json.out().lines()).singleElement().satisfies(l -> assertThat(l).contains("\"outcome\":\"BLOCKED\""));
        ToolRunner.Result dryRun = ToolRunner.run(concat(new String[] {"dlq", "replay", "--dry-run", "--bucket",
                bucket},
                connection));
        assertThat(dryRun.out()).contains("would replay").contains("1 would be replayed (dry run)");
        ToolRunner.Result none = ToolRunner.run(concat(new String[] {"dlq", "replay", "--dry-run", "--reason",
            "RETRY_LATER"}, connection));
        assertThat(none.out()).contains("0 would be replayed");
    }

    @Test
    void shouldBenchmarkDeletesAgainstRawCallsAndMeasureTheThrottle() {
        ToolRunner.Result r = ToolRunner.run("object-processor", "bench", "--tasks", "300", "--rounds", "1",
                "--rate", "100", "--throttle-seconds", "2");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("object-processor benchmark: 300 deletes per round, 64 in flight")
                .containsPattern("round 1: raw LifecycleDelete [\\d,]+ deletes/s; object-tasks -> processor [\\d,]+ "
                        + "deletes/s \\(300 DONE\\); ratio \\d\\.\\d\\d")
                .containsPattern("throttle: set 100 deletes/s for the group, two instances: measured [\\d.]+ deletes/s");
    }

    private static String[] concat(String[] a, String[] b) {
        String[] all = new String[a.length + b.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
