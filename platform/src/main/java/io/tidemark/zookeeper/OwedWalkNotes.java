package io.tidemark.zookeeper;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * The ZooKeeper notes of owed walks ({@link ZooKeeperPaths#owedWalk}), written so that a note is never removed for a
 * walk sent before the task that relies on it was noted. Every noting writes: a note already there is written again,
 * which moves its version on; a walk's sender reads the version before it sends, and removes the note only at that
 * version. A note written again meanwhile — the bucket paused again, a task deferred while the walk was under way —
 * stays, and the next change of the controls sends another walk for it.
 *
 * <p>{@link LifecycleControls} reads the notes with the other controls; only this class writes and removes them.
 */
public final class OwedWalkNotes {

    /** As {@link LifecycleControls} writes its flags, so that it reads these the same way. */
    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

    private final CuratorFramework client;

    public OwedWalkNotes(CuratorFramework client) {
        this.client = client;
    }

    /**
     * Notes the bucket as owed a walk, asynchronously: creates its note, or writes an existing one again. Completes
     * once ZooKeeper holds a note written after this call began.
     */
    public CompletableFuture<Void> note(String bucket, ControlFlag flag) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        byte[] value;
        try {
            value = JSON.writeValueAsBytes(flag);
        } catch (Exception e) {
            done.completeExceptionally(e);
            return done;
        }
        create(ZooKeeperPaths.owedWalk(bucket), value, done);
        return done;
    }

    private void create(String path, byte[] value, CompletableFuture<Void> done) {
        try {
            client.create().creatingParentsIfNeeded().inBackground((c, event) -> {
                if (code(event) == KeeperException.Code.NODEEXISTS) {
                    rewrite(path, value, done);
                } else {
                    settle(event, path, done);
                }
            }).forPath(path, value);
        } catch (Exception e) {
            done.completeExceptionally(e);
        }
    }

    /** Writes an existing note again, whatever its version: its new version tells a sender reading an older one. */
    private void rewrite(String path, byte[] value, CompletableFuture<Void> done) {
        try {
            client.setData().inBackground((c, event) -> {
                if (code(event) == KeeperException.Code.NONODE) {
                    // Removed since the create met it (its walk was sent): noted afresh.
                    create(path, value, done);
                } else {
                    settle(event, path, done);
                }
            }).forPath(path, value);
        } catch (Exception e) {
            done.completeExceptionally(e);
        }
    }

    /** The note's version now; empty when the bucket is owed nothing. Blocking. */
    public Optional<Integer> version(String bucket) throws Exception {
        Stat stat = client.checkExists().forPath(ZooKeeperPaths.owedWalk(bucket));
        return stat == null ? Optional.empty() : Optional.of(stat.getVersion());
    }

    /**
     * Removes the note once the walk it owed is sent, if it is still at the version read before the walk was sent.
     * Blocking.
     *
     * @return false when the note was written again since (it stays, for the walk the next change sends) or is gone
     */
    public boolean walkSent(String bucket, int version) throws Exception {
        try {
            client.delete().withVersion(version).forPath(ZooKeeperPaths.owedWalk(bucket));
            return true;
        } catch (KeeperException.BadVersionException | KeeperException.NoNodeException notThatNote) {
            return false;
        }
    }

    private static KeeperException.Code code(CuratorEvent event) {
        return KeeperException.Code.get(event.getResultCode());
    }

    private static void settle(CuratorEvent event, String path, CompletableFuture<Void> done) {
        if (code(event) == KeeperException.Code.OK) {
            done.complete(null);
        } else {
            done.completeExceptionally(KeeperException.create(code(event), path));
        }
    }
}
