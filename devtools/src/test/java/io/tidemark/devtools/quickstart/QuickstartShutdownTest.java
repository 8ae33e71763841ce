package io.tidemark.devtools.quickstart;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.devtools.quickstart.QuickstartShutdown.Outcome;
import io.tidemark.devtools.quickstart.QuickstartShutdown.Part;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * How the quickstart stops, with fakes for its parts: its clients (the live view and the services) together, then
 * the cluster they use; on a run whose data is thrown away, the nodes together and no longer than a bound; on a
 * --data-dir run, the nodes one after another and each to the end. No figure here is a measurement: the bounds given
 * are what a part that never stops is given up after, and each test would hang, not fail, without them.
 */
@Timeout(60)
class QuickstartShutdownTest {

    /** What the fakes did, in order. */
    private final List<String> events = new CopyOnWriteArrayList<>();

    @Test
    void shouldStopTheClientsTogetherNotOneAfterAnother() {
        for (QuickstartShutdown shutdown : List.of(QuickstartShutdown.throwaway(), QuickstartShutdown.keepingState())) {
            events.clear();
            // Each client stops only once the other has begun stopping: one after the other, the first would wait
            // for the second until it gave up.
            CountDownLatch bothStopping = new CountDownLatch(2);
            Part view = waitingForEachOther("live view", bothStopping);
            Part populator = waitingForEachOther("populator", bothStopping);

            Outcome outcome = shutdown.stop(List.of(view, populator), List.of(recorded("kafka")));

            assertThat(events).as("stopping %s", shutdown).contains("live view saw the other stopping",
                    "populator saw the other stopping");
            assertThat(outcome.unfinished()).isEmpty();
        }
    }

    @Test
    void shouldStopTheClusterOnlyOnceEveryClientHasStopped() {
        for (QuickstartShutdown shutdown : List.of(QuickstartShutdown.throwaway(), QuickstartShutdown.keepingState())) {
            events.clear();
            CountDownLatch populatorStopped = new CountDownLatch(1);
            Part replay = new Part("replay-streams", () -> {
                // Finishes after the populator, whatever order they were begun in.
                populatorStopped.await(10, TimeUnit.SECONDS);
                events.add("replay-streams stopped");
            });
            Part populator = new Part("populator", () -> {
                events.add("populator stopped");
                populatorStopped.countDown();
            });

            shutdown.stop(List.of(replay, populator), List.of(recorded("emulator"), recorded("kafka"),
                    recorded("zookeeper")));

            assertThat(events.subList(0, 2)).as("stopping %s", shutdown)
                    .containsExactly("populator stopped", "replay-streams stopped");
            assertThat(events.subList(2, events.size())).containsExactlyInAnyOrder("emulator stopping",
                    "emulator stopped", "kafka stopping", "kafka stopped", "zookeeper stopping", "zookeeper stopped");
        }
    }

    @Test
    void shouldStopTheNodesTogetherWhenTheDataIsThrownAway() {
        CountDownLatch bothStopping = new CountDownLatch(2);

        Outcome outcome = QuickstartShutdown.throwaway().stop(List.of(recorded("populator")),
                List.of(waitingForEachOther("kafka", bothStopping), waitingForEachOther("zookeeper", bothStopping)));

        assertThat(events).contains("kafka saw the other stopping", "zookeeper saw the other stopping");
        assertThat(outcome.unfinished()).isEmpty();
    }

    @Test
    void shouldStopTheNodesOneAfterAnotherAndInOrderWhenTheStateIsKept() {
        Outcome outcome = QuickstartShutdown.keepingState().stop(List.of(recorded("populator")),
                List.of(recorded("emulator"), recorded("kafka"), recorded("zookeeper")));

        // As LocalCluster closes them: nothing writes to the emulator's store or Kafka's log while the next stops.
        assertThat(events).containsExactly("populator stopping", "populator stopped", "emulator stopping",
                "emulator stopped", "kafka stopping", "kafka stopped", "zookeeper stopping", "zookeeper stopped");
        assertThat(outcome.complete()).isTrue();
    }

    @Test
    void shouldGiveUpOnAPartThatDoesNotStopWhenTheDataIsThrownAwayAndStopTheRest() {
        CountDownLatch never = new CountDownLatch(1);
        try {
            QuickstartShutdown shutdown = new QuickstartShutdown(false, Duration.ofMillis(200),
                    Duration.ofMillis(400));
            Part stuck = new Part("object-processor", () -> {
                events.add("object-processor stopping");
                never.await(20, TimeUnit.SECONDS);   // released when the test ends; bounded should it not
            });
            Part stuckNode = new Part("kafka", () -> {
                events.add("kafka stopping");
                never.await(20, TimeUnit.SECONDS);
            });

            Outcome outcome = shutdown.stop(List.of(stuck, recorded("populator")),
                    List.of(recorded("emulator"), stuckNode, recorded("zookeeper")));

            assertThat(outcome.unfinished()).containsExactly("object-processor", "kafka");
            assertThat(outcome.complete()).isFalse();
            assertThat(events).contains("populator stopped", "emulator stopped", "zookeeper stopped");
        } finally {
            never.countDown();
        }
    }

    @Test
    void shouldGoOnWhenAPartFailsToStop() {
        Part failing = new Part("bucket-processor", () -> {
            events.add("bucket-processor stopping");
            throw new IllegalStateException("boom");
        });

        Outcome outcome = QuickstartShutdown.keepingState().stop(List.of(failing, recorded("populator")),
                List.of(recorded("kafka")));

        assertThat(events).contains("populator stopped", "kafka stopped");
        assertThat(outcome.unfinished()).as("failed, not still stopping").isEmpty();
    }

    private Part recorded(String name) {
        return new Part(name, () -> {
            events.add(name + " stopping");
            events.add(name + " stopped");
        });
    }

    private Part waitingForEachOther(String name, CountDownLatch bothStopping) {
        return new Part(name, () -> {
            bothStopping.countDown();
            if (bothStopping.await(5, TimeUnit.SECONDS)) {
                events.add(name + " saw the other stopping");
            }
            events.add(name + " stopped");
        });
    }
}
