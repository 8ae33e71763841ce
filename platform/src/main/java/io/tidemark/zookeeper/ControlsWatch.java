package io.tidemark.zookeeper;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.state.ConnectionState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operators' controls as a service follows them: a cache of {@link ZooKeeperPaths#CONTROL} kept current by a
 * ZooKeeper watch, so that a check costs no round trip and a {@code tidemark pause} reaches every processor within
 * the watch's delay (milliseconds).
 *
 * <p>Fails closed: until the cache has been filled, and while the session is lost (a pause set meanwhile would not be
 * seen), {@link #current()} is empty and callers must treat every bucket as paused. A connection merely suspended
 * keeps the last view: the session, and with it the watch, is still alive unless it turns LOST.
 */
public final class ControlsWatch implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ControlsWatch.class);

    private final CuratorCache cache;
    private final CopyOnWriteArrayList<Runnable> listeners = new CopyOnWriteArrayList<>();
    private final AtomicLong changes = new AtomicLong();
    private volatile boolean initialized;
    private volatile boolean lost;
    private volatile Controls controls = Controls.NONE;

    private ControlsWatch(ZooKeeperConnection zookeeper) {
        this.cache = CuratorCache.build(zookeeper.client(), ZooKeeperPaths.CONTROL);
        cache.listenable().addListener(CuratorCacheListener.builder()
                .forAll((type, before, after) -> {
                    if (initialized) {
                        refresh();
                    }
                })
                .forInitialized(() -> {
                    initialized = true;
                    refresh();
                    log.info("controls: {}", describe(controls));
                })
                .build());
        zookeeper.onStateChange(state -> {
            boolean wasLost = lost;
            lost = state == ConnectionState.LOST || (lost && !state.isConnected());
            if (lost != wasLost) {
                log.warn("controls: {}", lost ? "ZooKeeper session lost; every bucket is held until it is back"
                        : "ZooKeeper session back; following the controls again");
                changed();
            }
        });
    }

    /** Starts following the controls; {@link #current()} is empty until the first full read. */
    public static ControlsWatch start(ZooKeeperConnection zookeeper) {
        ControlsWatch watch = new ControlsWatch(zookeeper);
        watch.cache.start();
        return watch;
    }

    /** The controls as last seen; empty when they are not known (not read yet, or the session is lost). */
    public Optional<Controls> current() {
        return initialized && !lost ? Optional.of(controls) : Optional.empty();
    }

    /** A number that changes whenever {@link #current()} may have: waiters compare it rather than the controls. */
    public long changes() {
        return changes.get();
    }

    /** Called (on ZooKeeper's event thread) after every change; must not block. */
    public void onChange(Runnable listener) {
        listeners.add(listener);
    }

    private void refresh() {
        Map<String, ControlFlag> paused = new HashMap<>();
        Map<String, ControlFlag> dryRun = new HashMap<>();
        Optional<ControlFlag> cluster = Optional.empty();
        for (ChildData node : cache.stream().toList()) {
            String path = node.getPath();
            if (path.equals(ZooKeeperPaths.CLUSTER_PAUSE)) {
                cluster = Optional.of(LifecycleControls.parse(node.getData()));
            } else if (path.startsWith(ZooKeeperPaths.PAUSED_BUCKETS + "/")) {
                paused.put(path.substring(ZooKeeperPaths.PAUSED_BUCKETS.length() + 1),
                        LifecycleControls.parse(node.getData()));
            } else if (path.startsWith(ZooKeeperPaths.DRY_RUN_BUCKETS + "/")) {
                dryRun.put(path.substring(ZooKeeperPaths.DRY_RUN_BUCKETS.length() + 1),
                        LifecycleControls.parse(node.getData()));
            }
        }
        Controls next = new Controls(cluster, paused, dryRun);
        if (!next.equals(controls)) {
            controls = next;
            log.info("controls changed: {}", describe(next));
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
                + "paused " + controls.pausedByName().keySet() + "; dry run " + controls.dryRunByName().keySet();
    }

    @Override
    public void close() {
        cache.close();
    }
}
