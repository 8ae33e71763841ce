package io.tidemark.objectprocessor;

import io.tidemark.zookeeper.OwedWalkNotes;
import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.localcluster.EmbeddedZooKeeper;
import io.tidemark.messages.BucketTask;
import io.tidemark.zookeeper.ControlFlag;
import io.tidemark.zookeeper.Controls;
import io.tidemark.zookeeper.LifecycleControls;
import io.tidemark.zookeeper.ZooKeeperConnection;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The owed walk a paused bucket's deferred tasks rely on (architecture.md, invariant 6), against a real ZooKeeper, its
 * interleavings made certain: the walk's send is held until the test lets it go.
 */
class OwedWalksTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path directory;

    private EmbeddedZooKeeper zooKeeper;
    private ZooKeeperConnection zk;
    private LifecycleControls controls;
    private final ExecutorService settling = Executors.newSingleThreadExecutor();
    /** Walks the owed walks asked to send, each with the future that says it was sent. */
    private final BlockingQueue<CompletableFuture<Void>> sending = new LinkedBlockingQueue<>();
    private final List<BucketTask> walks = new CopyOnWriteArrayList<>();
    private OwedWalks owedWalks;

    @BeforeEach
    void start() throws Exception {
        zooKeeper = EmbeddedZooKeeper.start(directory.resolve("zookeeper"), 0);
        zk = ZooKeeperConnection.start(zooKeeper.address(), "tidemark", Duration.ofSeconds(10), Duration.ofSeconds(10),
                null);
        assertThat(zk.awaitConnected(WAIT)).isTrue();
        controls = new LifecycleControls(zk.client());
        owedWalks = new OwedWalks(controls, new OwedWalkNotes(zk.client()), this::fresh, walk -> {
            walks.add(walk);
            CompletableFuture<Void> sent = new CompletableFuture<>();
            sending.add(sent);
            return sent;
        }, settling, Clock.systemUTC(), "test");
    }

    @AfterEach
    void stop() {
        settling.shutdownNow();
        zk.close();
        zooKeeper.close();
    }

    /**
     * Issue 43, item 7: pause, resume, pause again while the resume's walk is being sent. A task deferred by the second
     * pause met the first pause's note (NODEEXISTS) and was finished on it; the first resume then removed that note
     * whatever had happened since, and nothing was owed for the second pause any more.
     */
    @Test
    void shouldKeepTheNoteATaskDeferredWhileTheWalkWasSentReliesOn() throws Exception {
        pause("b");
        owedWalks.owe("b", "PAUSED").get(30, TimeUnit.SECONDS);
        resume("b");
        CompletableFuture<Void> firstWalk = sending.poll(30, TimeUnit.SECONDS);
        assertThat(firstWalk).as("the resume sends the walk owed").isNotNull();

        pause("b");
        owedWalks.owe("b", "PAUSED").get(30, TimeUnit.SECONDS);   // a task deferred by the second pause, finished
        firstWalk.complete(null);
        settled();

        assertThat(controls.read().owedWalks()).as("owed for the second pause").containsKey("b");
        resume("b");
        CompletableFuture<Void> secondWalk = sending.poll(30, TimeUnit.SECONDS);
        assertThat(secondWalk).as("the second resume sends a walk too").isNotNull();
        secondWalk.complete(null);
        settled();
        assertThat(controls.read().owedWalks()).isEmpty();
        assertThat(walks).hasSize(2).allSatisfy(w -> assertThat(w.target().bucket()).isEqualTo("b"));
    }

    @Test
    void shouldRemoveTheNoteOnceItsWalkIsSentWhenNothingWasNotedMeanwhile() throws Exception {
        pause("b");
        owedWalks.owe("b", "PAUSED").get(30, TimeUnit.SECONDS);
        owedWalks.owe("b", "PAUSED").get(30, TimeUnit.SECONDS);
        resume("b");
        sending.poll(30, TimeUnit.SECONDS).complete(null);
        settled();

        assertThat(controls.read().owedWalks()).isEmpty();
        assertThat(walks).singleElement();
    }

    private Optional<Controls> fresh() {
        try {
            return Optional.of(controls.read());
        } catch (Exception e) {
            return Optional.empty();
        }
    }

    private void pause(String bucket) throws Exception {
        controls.pause(Optional.of(bucket), new ControlFlag(Instant.now(), "test@host", "owed walks test"));
        owedWalks.controlsChanged();
    }

    private void resume(String bucket) throws Exception {
        controls.resume(Optional.of(bucket));
        owedWalks.controlsChanged();
    }

    /** Waits until every settling asked for so far has run. */
    private void settled() throws Exception {
        settling.submit(() -> { }).get(30, TimeUnit.SECONDS);
    }
}
