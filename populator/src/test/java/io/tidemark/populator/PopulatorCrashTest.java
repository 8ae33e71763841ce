package io.tidemark.populator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tidemark.localcluster.ChildNode;
import io.tidemark.testsupport.ClusterNamespace;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.testsupport.LocalClusterTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Populators in child JVMs, killed with SIGKILL at random points: the meta-log must still hold each event once. */
@LocalClusterTest
class PopulatorCrashTest {

    private static final Logger log = LoggerFactory.getLogger(PopulatorCrashTest.class);
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static ChildNode child(PopulatorFixture f) {
        return ChildNode.start(PopulatorChildMain.class, "256m", f.settingsArguments());
    }

    /** Whether the child at this management port leads, from its /metrics. */
    private static boolean leads(ChildNode node) {
        try {
            String body = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + node.address() + "/metrics"))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString()).body();
            return body.lines().anyMatch(l -> l.startsWith("tidemark_populator_leader{") && l.endsWith(" 1.0"));
        } catch (Exception e) {
            return false;
        }
    }

    @Test
    void shouldPublishEveryEventExactlyOnceThroughRepeatedKillNine(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        // A failing schedule replays with -Dtidemark.crash.seed=<the logged seed>.
        long seed = Long.getLong("tidemark.crash.seed", System.nanoTime());
        log.info("kill -9 schedule seed {}", seed);
        Random random = new Random(seed);
        try (PopulatorFixture f = PopulatorFixture.start(cluster, ns, "crash", Map.of());
             S3Workload workload = new S3Workload(f.emulator.s3(), seed, Integer.MAX_VALUE, 1_000).start()) {
            // As a filer's aggregated logs may, events come in runs sharing one ts_ns: resuming in the middle of a
            // run, by the count already published at that ts_ns, is the heart of the exactly-once claim.
            f.emulator.store().stampEventsInRunsOf(3);
            long publishedBefore = 0;
            int livesThatPublished = 0;
            for (int life = 0; life < 4; life++) {
                ChildNode populator = child(f);
                try {
                    if (life % 2 == 0) {
                        // Anywhere in the start: joining the election, fencing, reading state, enumerating.
                        Thread.sleep(random.nextInt(4_000));
                    } else {
                        // A killed leader's latch node lives until its ZooKeeper session expires; wait for the
                        // takeover and this life's first commit, then kill it somewhere amid its batches.
                        long committedBefore = publishedBefore;
                        await().atMost(Duration.ofSeconds(60)).until(() -> leads(populator)
                                && f.checkpoint().map(c -> c.published() > committedBefore).orElse(false));
                        Thread.sleep(random.nextInt(2_000));
                    }
                } finally {
                    populator.kill();   // also when a wait fails: no child outlives the test
                }
                long published = f.checkpoint().map(c -> c.published()).orElse(0L);
                log.info("kill -9 populator life {} after {} operations; {} events committed", life, workload.done(),
                        published);
                if (published > publishedBefore) {
                    livesThatPublished++;
                }
                publishedBefore = published;
            }
            // Kills must land while events flow, not only before the first commit.
            assertThat(livesThatPublished).isGreaterThanOrEqualTo(2);
            try (ChildNode last = child(f)) {
                Thread.sleep(1_000);
                workload.finish();
                f.awaitCaughtUp(Duration.ofSeconds(90));
            }
            f.assertExactlyOnce();
            assertThat(f.checkpoint().orElseThrow().published()).isEqualTo(f.metaLog().size());
        }
    }

    @Test
    void shouldElectOneLeaderAndFailOverWhenItIsKilled(LocalCluster cluster, ClusterNamespace ns) throws Exception {
        try (PopulatorFixture f = PopulatorFixture.start(cluster, ns, "failover", Map.of());
             S3Workload workload = new S3Workload(f.emulator.s3(), 42, 3_000, 2_000).start()) {
            List<ChildNode> nodes = new ArrayList<>();
            try {
                nodes.add(child(f));
                nodes.add(child(f));
                await().atMost(Duration.ofSeconds(30)).until(() -> nodes.stream().filter(PopulatorCrashTest::leads).count() == 1);
                await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5))
                        .until(() -> nodes.stream().filter(PopulatorCrashTest::leads).count() == 1);
                ChildNode leader = nodes.stream().filter(PopulatorCrashTest::leads).findFirst().orElseThrow();
                ChildNode standby = nodes.stream().filter(n -> n != leader).findFirst().orElseThrow();
                leader.kill();
                // The standby takes over once ZooKeeper expires the dead leader's session.
                await().atMost(Duration.ofSeconds(30)).until(() -> leads(standby));
                workload.awaitFinished();
                f.awaitCaughtUp(Duration.ofSeconds(60));
            } finally {
                nodes.forEach(ChildNode::close);
            }
            f.assertExactlyOnce();
        }
    }
}
