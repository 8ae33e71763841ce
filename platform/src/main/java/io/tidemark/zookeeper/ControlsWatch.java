package io.tidemark.zookeeper;

import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.framework.recipes.watch.PersistentWatcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operators' controls as a service follows them: read from ZooKeeper whenever a persistent recursive watch on
 * {@link ZooKeeperPaths#CONTROL} says something under it changed, so that a check costs no round trip and a
 * {@code tidemark pause} reaches every processor within the watch's delay (milliseconds).
 *
 * <p>Fails closed. {@link #current()} is empty — callers treat every bucket as paused — until a read has succeeded,
 * from the moment the connection is suspended or lost (a pause set meanwhile would not be seen), and after a
 * reconnection until a read made after it has succeeded: a view from before the outage is never used again. Reads are
 * made one at a time, never on ZooKeeper's event thread, and a read that overlapped an outage is thrown away. A read
 * every {@link #REREAD_SECONDS} seconds covers a notification lost in transit.
 */
public final class ControlsWatch implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ControlsWatch.class);
    static final long REREAD_SECONDS = 30;

    private final ZooKeeperConnection zookeeper;
    private final LifecycleControls reader;
    private final PersistentWatcher watcher;
    private final ScheduledExecutorService reads;
    private final AtomicBoolean readQueued = new AtomicBoolean();
    /** Moves on at every suspension or loss: a read begun before it may have missed a change. */
    private final AtomicLong outages = new AtomicLong();
    private final AtomicLong changes = new AtomicLong();
    private final CopyOnWriteArrayList<Runnable> listeners = new CopyOnWriteArrayList<>();
    private volatile Controls controls = Controls.NONE;
    private volatile boolean known;

    private ControlsWatch(ZooKeeperConnection zookeeper) {
        this.zookeeper = zookeeper;
        this.reader = new LifecycleControls(zookeeper.client());
        this.watcher = new PersistentWatcher(zookeeper.client(), ZooKeeperPaths.CONTROL, true);
        this.reads = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "controls-reader");
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts following the controls; {@link #current()} is empty until the first read. */
    public static ControlsWatch start(ZooKeeperConnection zookeeper) {
        ControlsWatch watch = new ControlsWatch(zookeeper);
        watch.watcher.getListenable().addListener(event -> watch.requestRead());
        // Set again after a reconnection: whatever changed meanwhile was not notified.
        watch.watcher.getResetListenable().addListener(watch::requestRead);
        zookeeper.onStateChange(state -> {
            if (state.isConnected()) {
                watch.requestRead();
            } else {
                watch.outages.incrementAndGet();
                watch.forget("ZooKeeper connection " + state + ": every bucket is held until the controls are read "
                        + "again");
            }
        });
        watch.watcher.start();
        watch.reads.scheduleWithFixedDelay(watch::requestRead, 0, REREAD_SECONDS, TimeUnit.SECONDS);
        return watch;
    }

    /** The controls as last read; empty when they are not known (not read yet, or not since an outage). */
    public Optional<Controls> current() {
        return known ? Optional.of(controls) : Optional.empty();
    }

    /** A number that changes whenever {@link #current()} may have: waiters compare it rather than the controls. */
    public long changes() {
        return changes.get();
    }

    /** Called (on the reader's thread) after every change; must not block for long. */
    public void onChange(Runnable listener) {
        listeners.add(listener);
    }

    private void requestRead() {
        if (readQueued.compareAndSet(false, true)) {
            try {
                reads.execute(this::read);
            } catch (java.util.concurrent.RejectedExecutionException closed) {
                readQueued.set(false);
            }
        }
    }

    private void read() {
        readQueued.set(false);
        long outage = outages.get();
        if (!zookeeper.connected()) {
            return;
        }
        Controls read;
        try {
            read = reader.read();
        } catch (Exception e) {
            log.warn("controls: cannot read them ({}); every bucket stays held, trying again in a second",
                    e.toString());
            forget("unreadable");
            reads.schedule(this::requestRead, 1, TimeUnit.SECONDS);
            return;
        }
        if (outage != outages.get() || !zookeeper.connected()) {
            // The connection went while reading: this answer may predate a change; the reconnection reads again.
            return;
        }
        boolean news = !known || !read.equals(controls);
        controls = read;
        known = true;
        if (news) {
            log.info("controls: {}", describe(read));
        }
        changed();
    }

    private void forget(String why) {
        if (known) {
            known = false;
            log.warn("controls: {}", why);
        }
        changed();
    }

    private void changed() {
        changes.incrementAndGet();
        listeners.forEach(Runnable::run);
    }

    static String describe(Controls controls) {
        if (!controls.any()) {
            return "none (every bucket runs)";
        }
        return (controls.clusterPause().isPresent() ? "cluster paused; " : "")
                + "paused " + controls.pausedByName().keySet() + "; dry run " + controls.dryRunByName().keySet()
                + "; walks owed " + controls.owedWalksByName().keySet();
    }

    @Override
    public void close() {
        reads.shutdownNow();
        watcher.close();
    }
}
