package io.tidemark.populator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.tidemark.emulator.s3.S3Gateway;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.messages.PopulatorCheckpoint;
import io.tidemark.messages.pb.MetaLogProto.MetaLogRecord;
import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataResponse;
import io.tidemark.testsupport.ClusterNamespace;
import io.tidemark.testsupport.LocalClusterTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Several filers sharing one store, as production clusters run them: writes spread over the filers, one filer's clock
 * behind the others', its events reaching peers seconds late, a filer stopped and started again mid-run and one
 * joining late. Each filer's own meta-log is tailed with its own cursor; the aggregated stream with one cursor, the
 * design upstream shipped, is shown losing events in the same cluster.
 */
@LocalClusterTest
class PopulatorFilersTest {

    private static final Duration CATCH_UP = Duration.ofSeconds(90);

    @Test
    void shouldPublishEveryFilersEventsOnceAndEachObjectsInOrderThroughSkewDelayRestartAndJoin(LocalCluster cluster,
                                                                                           ClusterNamespace ns)
            throws Exception {
        try (PopulatorFixture f = PopulatorFixture.start(cluster, ns, "filers", Map.of(
                "populator.filers.hold.max.ms", "1500",
                "populator.filers.max.clock.skew.ms", "400",
                "populator.filers.discovery.ms", "300"), 3)) {
            f.emulator.setFilerClockOffset(1, Duration.ofMillis(-250));
            f.emulator.delayFiler(2, Duration.ofSeconds(2));
            f.startPopulator();
            S3Gateway s3 = f.emulator.s3();
            s3.createBucket("mixed", false);
            s3.putLifecycle("mixed", PopulatorServiceTest.RULES);
            await().atMost(CATCH_UP).until(() -> f.checkpoint().map(c -> c.filers() != null
                    && c.filers().size() == 3).orElse(false));
            // Past the cold start's catch-up from the log files: every filer streams its own events from memory.
            for (int i = 0; i < 3; i++) {
                s3.via(f.emulator.filer(i)).putObject("mixed", "warm/" + i, 1, Map.of(), Map.of());
            }
            awaitEveryFilerCovered(f);

            // Written through one filer, replaced and deleted through another whose clock is 250 ms behind: stamped
            // before the write it undoes.
            for (int i = 0; i < 15; i++) {
                s3.via(f.emulator.filer(0)).putObject("mixed", "logs/k" + i, 10, Map.of(), Map.of());
                s3.via(f.emulator.filer(1)).putObject("mixed", "logs/k" + i, 20, Map.of(), Map.of());
                s3.via(f.emulator.filer(1)).deleteObject("mixed", "logs/k" + i);
                s3.via(f.emulator.filer(0)).putObject("mixed", "logs/k" + i, 30, Map.of(), Map.of());
            }
            try (S3Workload workload = new S3Workload(s3, 30, 1_200, 5_000).start()) {
                await().atMost(CATCH_UP).until(() -> workload.done() > 200);
                f.emulator.stopFiler(0);
                Thread.sleep(2_500);
                f.emulator.startFiler(0);
                await().atMost(CATCH_UP).until(() -> workload.done() > 700);
                int joined = f.emulator.addFiler();
                // Written through the new filer before the populator can know of it: read from its first event.
                for (int i = 0; i < 10; i++) {
                    s3.via(f.emulator.filer(joined)).putObject("mixed", "logs/joined-" + i, 5, Map.of(), Map.of());
                }
                await().atMost(CATCH_UP).until(() -> f.checkpoint().map(c -> c.filers() != null
                        && c.filers().containsKey(f.emulator.filerAddress(joined))).orElse(false));
                workload.awaitFinished();
            }

            awaitEveryFilerCovered(f);
            f.assertExactlyOnce(false);
            // Each object written, replaced and deleted through two filers while every filer streamed from memory is
            // published in the order it happened. (A filer catching up from the log files — the joining one here —
            // streams its peers' events too, in stamp order; see docs/populator.md.)
            assertEachEntrysEventsInTheOrderTheyHappened(f.metaLog().stream()
                    .filter(p -> p.record().getDirectory().startsWith("/buckets/mixed")).toList());
            MeterRegistry meters = f.meters.get(0);
            assertThat(meters.get("tidemark.populator.filers.tailed").gauge().value()).isEqualTo(4);
            assertThat(meters.get("tidemark.populator.events.out.of.order").functionCounter().count()).isZero();
        }
    }

    @Test
    void shouldPublishTheEventsOfAFilerFoundAfterTheMasterWasUnreachableForLongerThanTheOverlap(LocalCluster cluster,
                                                                                          ClusterNamespace ns)
            throws Exception {
        try (PopulatorFixture f = PopulatorFixture.start(cluster, ns, "found-late", Map.of(
                "populator.cold-start.overlap.ms", "1000",
                "populator.filers.hold.max.ms", "1000",
                "populator.filers.max.clock.skew.ms", "300",
                "populator.filers.discovery.ms", "200"), 2)) {
            f.startPopulator();
            S3Gateway s3 = f.emulator.s3();
            s3.createBucket("mixed", false);
            await().atMost(CATCH_UP).until(() -> f.checkpoint().map(c -> c.filers() != null
                    && c.filers().size() == 2 && c.filersListedNs() != null).orElse(false));

            f.emulator.faults().fail("ListClusterNodes", io.grpc.Status.Code.UNAVAILABLE, -1);
            int joined = f.emulator.addFiler();
            for (int i = 0; i < 10; i++) {
                s3.via(f.emulator.filer(joined)).putObject("mixed", "logs/joined-" + i, 5, Map.of(), Map.of());
            }
            // The others write on, for three overlaps: what is published moves well past the new filer's events.
            for (int i = 0; i < 30; i++) {
                s3.via(f.emulator.filer(i % 2)).putObject("mixed", "logs/k" + i, 10, Map.of(), Map.of());
                Thread.sleep(100);
            }
            f.emulator.faults().clearFailures();
            await().atMost(CATCH_UP).until(() -> f.checkpoint().map(c -> c.filers()
                    .containsKey(f.emulator.filerAddress(joined))).orElse(false));
            awaitEveryFilerCovered(f);

            Set<Long> published = f.metaLog().stream().map(p -> p.record().getTsNs()).collect(Collectors.toSet());
            List<String> lost = f.emulator.filer(joined).events().stream()
                    .filter(e -> e.getDirectory().startsWith("/buckets/mixed") && !published.contains(e.getTsNs()))
                    .map(e -> e.getEventNotification().getNewEntry().getName()).toList();
            assertThat(lost).as("the new filer's events written while the master did not answer").isEmpty();
            f.assertExactlyOnce(false);
            assertThat(f.meters.get(0).get("tidemark.populator.filers.found.late").tag("repair", "read-back")
                    .functionCounter().count()).isEqualTo(1);
        }
    }

    @Test
    void shouldLoseALaggingFilersEventsThroughOneAggregatedStreamWithOneCursor(LocalCluster cluster,
                                                                             ClusterNamespace ns) throws Exception {
        // The upstream design: one SubscribeMetadata stream (filer 0's, merging its peers) and one cursor.
        try (PopulatorFixture f = PopulatorFixture.start(cluster, ns, "aggregated", Map.of("filer.master.address", ""),
                3)) {
            PopulatorFixture single = f;
            f.emulator.delayFiler(2, Duration.ofMillis(1_500));
            single.startPopulator();
            S3Gateway s3 = f.emulator.s3();
            s3.createBucket("mixed", false);
            await().atMost(CATCH_UP).until(() -> single.checkpoint().isPresent());
            for (int i = 0; i < 60; i++) {
                s3.putObject("mixed", "logs/k" + i, 10, Map.of(), Map.of());
                Thread.sleep(20);
            }
            Thread.sleep(4_000);
            Set<Long> published = single.metaLog().stream().map(p -> p.record().getTsNs()).collect(Collectors.toSet());
            List<Long> lost = f.filerEvents().stream().filter(e -> e.getDirectory().startsWith("/buckets/mixed"))
                    .map(SubscribeMetadataResponse::getTsNs).filter(ts -> !published.contains(ts)).toList();
            assertThat(lost).as("filer 2's events, late on the merged stream, skipped").isNotEmpty();
            assertThat(f.meters.get(0).get("tidemark.populator.events.out.of.order").functionCounter().count())
                    .isPositive();
        }
    }

    /** Waits until the committed checkpoint has every filer's cursor at its last event. */
    private static void awaitEveryFilerCovered(PopulatorFixture f) {
        await().atMost(CATCH_UP).pollInterval(Duration.ofMillis(250)).until(() -> {
            PopulatorCheckpoint c = f.checkpoint().orElse(null);
            if (c == null || c.filers() == null) {
                return false;
            }
            for (int i = 0; i < f.emulator.filerCount(); i++) {
                List<SubscribeMetadataResponse> own = f.emulator.filer(i).events().stream()
                        .filter(e -> e.getDirectory().startsWith("/buckets/")).toList();
                PopulatorCheckpoint.FilerCursor cursor = c.filers().get(f.emulator.filerAddress(i));
                if (cursor == null || !own.isEmpty() && cursor.tsNs() < own.get(own.size() - 1).getTsNs()) {
                    return false;
                }
            }
            return true;
        });
    }

    private static void assertEachEntrysEventsInTheOrderTheyHappened(List<PopulatorFixture.Published> published) {
        EntryOrder order = new EntryOrder();
        published.forEach(p -> order.next(p.record().getDirectory(), p.record().getTsNs(), p.record().getEvent()));
        assertThat(order.broken()).isEmpty();
    }
}
