package io.tidemark.objectprocessor;

import io.tidemark.zookeeper.OwedWalkNotes;
import io.tidemark.messages.BucketTask;
import io.tidemark.zookeeper.ControlFlag;
import io.tidemark.zookeeper.Controls;
import io.tidemark.zookeeper.LifecycleControls;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The recovery walks a paused or dry-run bucket is owed. A task only recorded (PAUSED while its bucket is paused, or
 * DRY_RUN) spent its timer; before it is finished, its bucket is noted in ZooKeeper as owed a walk. Once the bucket
 * acts again (resumed, out of dry run, the cluster not paused), a processor sends a recovery walk of the whole
 * bucket — which sends a task for everything due then and re-arms the timers of what is still to come — and only then
 * removes the note, and only if nobody noted the bucket again while the walk was being sent ({@link OwedWalkNotes}):
 * paused again meanwhile, its newer tasks are owed a walk of their own. Every processor does so on every change of
 * the controls: two may send the same walk, which costs a second listing and nothing else (a newer recovery walk
 * supersedes an older one); none can leave it unsent, since the note outlives any of them.
 */
final class OwedWalks {

    private static final Logger log = LoggerFactory.getLogger(OwedWalks.class);

    private final LifecycleControls controls;
    private final OwedWalkNotes notes;
    private final Supplier<Optional<Controls>> current;
    private final Function<BucketTask, CompletableFuture<Void>> send;
    private final Executor settling;
    private final Clock clock;
    private final String instance;
    /**
     * Buckets this instance has noted, each with the pauses and dry runs in force when it did: one ZooKeeper write per
     * bucket and pause, not per task. A note written under other pauses does not count: it may have been settled since
     * by a walk sent before the task now deferred (pause, resume, pause again).
     */
    private final Map<String, Controls> noted = new ConcurrentHashMap<>();

    OwedWalks(LifecycleControls controls, OwedWalkNotes notes, Supplier<Optional<Controls>> current,
              Function<BucketTask, CompletableFuture<Void>> send, Executor settling, Clock clock, String instance) {
        this.controls = controls;
        this.notes = notes;
        this.current = current;
        this.send = send;
        this.settling = settling;
        this.clock = clock;
        this.instance = instance;
    }

    /** Notes the bucket as owed a walk; the task that owes it may be finished once this completes. */
    CompletableFuture<Void> owe(String bucket, String why) {
        Controls gates = current.get().map(OwedWalks::gates).orElse(null);
        if (gates != null && gates.equals(noted.get(bucket))) {
            return CompletableFuture.completedFuture(null);
        }
        return notes.note(bucket, new ControlFlag(clock.instant(), instance, why)).thenRun(() -> {
            if (gates != null) {
                noted.put(bucket, gates);
            }
        });
    }

    /**
     * After a change of the controls: forgets the notes this instance wrote that are gone (another instance may have
     * settled them), and sends the walks owed to buckets that act again.
     */
    void controlsChanged() {
        current.get().ifPresentOrElse(view -> noted.keySet().removeIf(b -> !view.owedWalks().containsKey(b)),
                noted::clear);
        settling.execute(this::settle);
    }

    /** The pauses and dry runs of a view, without the owed walks: what a note was written under. */
    private static Controls gates(Controls view) {
        return new Controls(view.clusterPause(), view.paused(), view.dryRun(), Map.of());
    }

    private void settle() {
        // The watch's view says whether anything is owed to a bucket that acts again; only then is it read afresh.
        Optional<Controls> seen = current.get();
        if (seen.isEmpty() || seen.get().owedWalks().keySet().stream().noneMatch(seen.get()::acting)) {
            return;
        }
        Controls now;
        try {
            // Read afresh rather than from the watch's view: a walk this thread sent a moment ago is gone from here.
            now = controls.read();
        } catch (Exception e) {
            log.warn("owed walks not read ({}); trying again at the next change", e.toString());
            return;
        }
        // Each note as it is before its walk goes: a task noted after this read is not covered by that walk.
        Map<String, Integer> versions = new java.util.LinkedHashMap<>();
        for (String bucket : now.owedWalksByName().keySet()) {
            if (!now.acting(bucket)) {
                continue;
            }
            try {
                notes.version(bucket).ifPresent(version -> versions.put(bucket, version));   // else settled since
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Exception e) {
                log.warn("bucket {}: its owed-walk note was not read ({}); trying again later", bucket, e.toString());
            }
        }
        if (versions.isEmpty()) {
            return;
        }
        Controls after;
        try {
            // Paused again since the first read: a task deferred now may be noted under the same pauses as before,
            // which an instance's cache of what it noted would not write again; such a note stays for the next resume.
            after = controls.read();
        } catch (Exception e) {
            log.warn("owed walks not read again ({}); trying again at the next change", e.toString());
            return;
        }
        for (Map.Entry<String, Integer> entry : versions.entrySet()) {
            String bucket = entry.getKey();
            if (!after.acting(bucket)) {
                continue;
            }
            ControlFlag owed = now.owedWalksByName().get(bucket);
            String scanId = "owed-" + bucket + "-" + clock.millis();
            BucketTask walk = new BucketTask(BucketTask.PROCESS_BUCKET, new BucketTask.Target(bucket),
                    new BucketTask.Details(scanId, BucketTask.Mode.recovery, "", null));
            try {
                send.apply(walk).get(60, TimeUnit.SECONDS);
                if (notes.walkSent(bucket, entry.getValue())) {
                    noted.remove(bucket);
                    log.info("bucket {} acts again: sent walk {} for the tasks recorded while it did not ({} since {})",
                            bucket, scanId, owed.reason(), owed.since());
                } else {
                    log.info("bucket {}: sent walk {}, and kept its note: tasks were noted again while it was sent, "
                            + "and are owed a walk of their own", bucket, scanId);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Exception e) {
                // The note stays: the next change of the controls, or the next periodic read, tries again.
                log.warn("bucket {}: the walk it is owed was not sent ({}); trying again later", bucket, e.toString());
            }
        }
    }
}
