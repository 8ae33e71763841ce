package io.tidemark.bucketprocessor;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.testsupport.ClusterNamespace;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.testsupport.LocalClusterTest;
import io.tidemark.zookeeper.ConductorPassRecord;
import io.tidemark.zookeeper.LifecycleBuckets;
import io.tidemark.zookeeper.RegistryEntry;
import io.tidemark.zookeeper.WalkState;
import io.tidemark.zookeeper.WalkStates;
import io.tidemark.zookeeper.ZooKeeperConnection;
import io.tidemark.zookeeper.ZooKeeperPaths;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

@LocalClusterTest
class WalkFreshnessTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant STARTED = Instant.parse("2026-11-20T02:00:00Z");
    private static final Instant FINISHED = Instant.parse("2026-11-20T02:10:00Z");

    @Test
    void shouldPublishPerWalkedBucketWhenItsLastWalkFinishedAndCountBucketsNotYetSeeded(
            LocalCluster cluster, ClusterNamespace ns) throws Exception {
        TidemarkConfig config = new TidemarkConfig(Map.of("zookeeper.connect", cluster.zookeeperConnect(),
                "zookeeper.chroot", ns.zookeeperChroot()));
        try (ZooKeeperConnection zk = ZooKeeperConnection.start(config)) {
            Map<String, RegistryEntry> buckets = Map.of(
                    "done", new RegistryEntry("aa", "Enabled", false, null, true),
                    "first-walk-running", new RegistryEntry("bb", "Off", false, null, true),
                    "not-seeded", new RegistryEntry("cc", "Off", false, null, true),
                    "timers-only", new RegistryEntry("dd", "Off", false, null, false),
                    "broken", new RegistryEntry("", "Off", false, "MalformedXML", null));
            for (var e : buckets.entrySet()) {
                zk.client().create().creatingParentsIfNeeded().forPath(ZooKeeperPaths.bucket(e.getKey()),
                        JSON.writeValueAsBytes(e.getValue()));
            }
            WalkStates walks = new WalkStates(zk.client());
            walks.update("done", none -> new WalkState("s1", "steady", STARTED, 3, 300, FINISHED, FINISHED, FINISHED));
            walks.update("first-walk-running", none -> WalkState.seeded("s2", "steady", STARTED, null));
            // A walk state for a bucket that needs no walks (a recovery walk, say) is not a freshness figure.
            walks.update("timers-only", none -> WalkState.seeded("s3", "recovery", STARTED, null));

            SimpleMeterRegistry meters = new SimpleMeterRegistry();
            WalkFreshness freshness = new WalkFreshness(new LifecycleBuckets(zk.client()), walks,
                    () -> ConductorPassRecord.read(zk.client()), meters);
            freshness.refresh();
            assertThat(meters.find("tidemark.walker.conductor.last.pass.timestamp.seconds").gauges())
                    .as("no conductor has recorded a pass").isEmpty();

            assertThat(meters.find("tidemark.walker.last.finished.timestamp.seconds").gauges())
                    .extracting(g -> g.getId().getTag("bucket")).containsExactlyInAnyOrder("done", "first-walk-running");
            assertThat(lastFinished(meters, "done")).isEqualTo(FINISHED.getEpochSecond());
            assertThat(lastFinished(meters, "first-walk-running")).isEqualTo(STARTED.getEpochSecond());
            assertThat(meters.get("tidemark.walker.buckets.unseeded").gauge().value()).isEqualTo(1.0);

            // The next walk of "done" starts: its last finish still stands until it finishes in turn.
            Instant next = FINISHED.plusSeconds(86_400);
            walks.update("done", previous -> WalkState.seeded("s4", "steady", next, previous));
            zk.client().delete().forPath(ZooKeeperPaths.bucket("not-seeded"));
            freshness.refresh();
            assertThat(lastFinished(meters, "done")).isEqualTo(FINISHED.getEpochSecond());
            assertThat(meters.get("tidemark.walker.buckets.unseeded").gauge().value()).isZero();

            // The conductor's last pass, recorded in ZooKeeper by a conductor no one scrapes: exported here.
            new ConductorPassRecord(next, "skipped-backlog", 0, 0, "object-processor backlog 120000")
                    .write(zk.client());
            freshness.refresh();
            assertThat(meters.get("tidemark.walker.conductor.last.pass.timestamp.seconds").gauge().value())
                    .isEqualTo(next.getEpochSecond());
            assertThat(meters.get("tidemark.walker.conductor.last.pass.outcome").tag("outcome", "skipped-backlog")
                    .gauge().value()).isEqualTo(1.0);
            assertThat(meters.get("tidemark.walker.conductor.last.pass.outcome").tag("outcome", "ran").gauge()
                    .value()).isZero();
            new ConductorPassRecord(next.plusSeconds(60), "ran", 2, 0, null).write(zk.client());
            freshness.refresh();
            assertThat(meters.get("tidemark.walker.conductor.last.pass.outcome").tag("outcome", "ran").gauge()
                    .value()).isEqualTo(1.0);
            assertThat(ConductorPassRecord.read(zk.client())).hasValue(
                    new ConductorPassRecord(next.plusSeconds(60), "ran", 2, 0, null));
        }
    }

    private static double lastFinished(SimpleMeterRegistry meters, String bucket) {
        Gauge gauge = meters.get("tidemark.walker.last.finished.timestamp.seconds").tag("bucket", bucket).gauge();
        return gauge.value();
    }
}
