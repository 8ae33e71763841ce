package io.tidemark.populator;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tidemark.lifecycle.engine.RuleReader;
import io.tidemark.messages.BucketConfig;
import io.tidemark.messages.BucketTask;
import io.tidemark.zookeeper.LifecycleBuckets;
import io.tidemark.zookeeper.RegistryEntry;
import io.tidemark.zookeeper.ZooKeeperPaths;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.api.transaction.CuratorTransactionResult;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.common.PathUtils;

/**
 * The registry of lifecycle buckets in ZooKeeper, one node per bucket under {@link ZooKeeperPaths#BUCKETS}. Every
 * write is idempotent — create or overwrite, delete if present — so the populator can repeat it after a crash
 * before its Kafka transaction committed, and the registry still ends up right.
 *
 * <p>A registry {@linkplain #fencedBy fenced} by the leader's latch node writes each change in a ZooKeeper multi-op
 * that first checks the node still exists. Kafka fences a deposed leader's transactions; this fences its registry
 * writes, so a write delayed past the leader's session expiry can never land after its successor's reconcile.
 * Writes are grouped and pipelined ({@link LifecycleBuckets#IN_FLIGHT} outstanding), so thousands of buckets take a
 * fraction of a second.
 */
public final class BucketRegistry {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final CuratorFramework client;
    private final LifecycleBuckets reader;
    private final RuleReader rules;
    private final String leaderNode;
    private volatile boolean parentExists;

    public BucketRegistry(CuratorFramework client, RuleReader rules) {
        this(client, rules, null);
    }

    private BucketRegistry(CuratorFramework client, RuleReader rules, String leaderNode) {
        this.client = client;
        this.reader = new LifecycleBuckets(client);
        this.rules = rules;
        this.leaderNode = leaderNode;
    }

    /** This registry, writing only while {@code node} (the leader's latch node; null: unfenced) exists. */
    public BucketRegistry fencedBy(String node) {
        return new BucketRegistry(client, rules, node);
    }

    /** The node a bucket's configuration should have. */
    public RegistryEntry entryFor(BucketConfig config) {
        return RegistryEntry.of(config, rules);
    }

    /**
     * Writes (or removes) a bucket's node. Returns false, writing nothing, for a bucket name ZooKeeper refuses in a
     * path (control characters, say, in a directory made behind the gateway's back): a name no write could ever
     * register must not stop the populator.
     */
    public boolean apply(BucketConfigChange change) throws Exception {
        return applyAll(List.of(change)).isEmpty();
    }

    /**
     * Writes every change, pipelined, and waits for all of them.
     *
     * @return the buckets whose names ZooKeeper refuses as paths, which were not written
     * @throws LeadershipLostException when the registry is fenced and its leader node is gone; some of the changes
     *                                 may have been written before it went, none after
     */
    public List<String> applyAll(Collection<BucketConfigChange> changes) throws Exception {
        Batch batch = batch();
        for (BucketConfigChange change : changes) {
            batch.add(change);
        }
        return batch.finish();
    }

    /** Writes that start as they are added and are waited for together. */
    public Batch batch() {
        return new Batch();
    }

    /**
     * A set of registry writes in flight, at most {@link LifecycleBuckets#IN_FLIGHT} at a time. Changes are sent in
     * groups of {@link #GROUP}, one multi-op each (behind one leadership check when fenced): a cold start writes
     * tens of thousands of nodes, and ZooKeeper and Curator spend most of a single-node write on the request itself.
     * A group that fails as a whole — a node that already exists, a delete of one that does not — is written again
     * one change at a time, each as create-or-overwrite or delete-if-present. A group starts when it is full, so the
     * writes overlap with whatever the caller does next; {@link #finish} sends the rest and waits for them all. A
     * bucket changed twice belongs in two batches, the first finished before the second starts: within one batch
     * the writes may land in any order.
     */
    public final class Batch {
        private final Semaphore window = new Semaphore(LifecycleBuckets.IN_FLIGHT);
        private final List<CompletableFuture<Void>> writes = new ArrayList<>();
        private final List<String> refused = new ArrayList<>();
        private List<Write> group = new ArrayList<>();

        public void add(BucketConfigChange change) throws Exception {
            String path = ZooKeeperPaths.bucket(change.bucket());
            try {
                PathUtils.validatePath(path);
            } catch (IllegalArgumentException notAPath) {
                refused.add(change.bucket());
                return;
            }
            if (!parentExists) {
                client.createContainers(ZooKeeperPaths.BUCKETS);
                parentExists = true;
            }
            byte[] value = change.removed() ? null
                    : JSON.writeValueAsBytes(change.entry() != null ? change.entry() : entryFor(change.config()));
            group.add(new Write(path, value));
            if (group.size() >= GROUP) {
                send();
            }
        }

        private void send() throws Exception {
            if (group.isEmpty()) {
                return;
            }
            List<Write> sending = group;
            group = new ArrayList<>();
            window.acquire(sending.size());
            CompletableFuture<Void> write = sending.size() == 1 ? write(sending.get(0)) : writeGroup(sending);
            write.whenComplete((done, error) -> window.release(sending.size()));
            writes.add(write);
        }

        public boolean isEmpty() {
            return writes.isEmpty() && refused.isEmpty() && group.isEmpty();
        }

        /**
         * Sends what is left and waits for every write added.
         *
         * @return the buckets whose names ZooKeeper refuses as paths, which were not written
         * @throws LeadershipLostException when the registry is fenced and its leader node is gone; some writes may
         *                                 have landed before it went, none after
         */
        public List<String> finish() throws Exception {
            send();
            Exception failure = null;
            for (CompletableFuture<Void> write : writes) {
                try {
                    write.get();
                } catch (ExecutionException e) {
                    Exception cause = e.getCause() instanceof Exception c ? c : e;
                    if (failure == null || cause instanceof LeadershipLostException) {
                        failure = cause;
                    }
                }
            }
            writes.clear();
            List<String> names = List.copyOf(refused);
            refused.clear();
            if (failure != null) {
                throw failure;
            }
            return names;
        }
    }

    /** Changes per multi-op: a group of a hundred nodes is tens of kilobytes, far below ZooKeeper's request cap. */
    static final int GROUP = 100;

    /** One node to write ({@code value}) or remove ({@code null}). */
    private record Write(String path, byte[] value) {
    }

    private CompletableFuture<Void> writeGroup(List<Write> group) {
        try {
            List<CuratorOp> ops = new ArrayList<>(group.size());
            for (Write write : group) {
                ops.add(write.value() == null ? client.transactionOp().delete().forPath(write.path())
                        : client.transactionOp().create().forPath(write.path(), write.value()));
            }
            return multi(ops).thenCompose(codes -> {
                if (codes.stream().allMatch(code -> code == Code.OK)) {
                    return CompletableFuture.completedFuture(null);
                }
                // Nothing of the group landed; one change at a time tells a node that exists from a real failure.
                return CompletableFuture.allOf(group.stream().map(BucketRegistry.this::write)
                        .toArray(CompletableFuture[]::new));
            });
        } catch (Exception e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private CompletableFuture<Void> write(Write write) {
        try {
            if (write.value() == null) {
                // Removed before a crash, or never registered: either way the registry is as it should be.
                return multi(List.of(client.transactionOp().delete().forPath(write.path())))
                        .thenAccept(codes -> expect(codes.get(0), write.path(), Code.OK, Code.NONODE));
            }
            return multi(List.of(client.transactionOp().create().forPath(write.path(), write.value())))
                    .thenCompose(codes -> {
                        Code code = codes.get(0);
                        if (code != Code.NODEEXISTS) {
                            expect(code, write.path(), Code.OK);
                            return CompletableFuture.completedFuture(null);
                        }
                        try {
                            return multi(List.of(client.transactionOp().setData().forPath(write.path(),
                                    write.value()))).thenAccept(c -> expect(c.get(0), write.path(), Code.OK,
                                    Code.NONODE));
                        } catch (Exception e) {
                            return CompletableFuture.failedFuture(e);
                        }
                    });
        } catch (Exception e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static void expect(Code code, String path, Code... accepted) {
        for (Code ok : accepted) {
            if (code == ok) {
                return;
            }
        }
        throw new CompletionException(KeeperException.create(code, path));
    }

    /**
     * Runs writes as one multi-op, behind a check of the leader node when fenced; completes with each write's own
     * result code (all the same code when ZooKeeper answered for the request as a whole, e.g. a lost connection),
     * or with {@link LeadershipLostException} when the check failed.
     */
    private CompletableFuture<List<Code>> multi(List<CuratorOp> writes) throws Exception {
        List<CuratorOp> ops = new ArrayList<>(writes.size() + 1);
        if (leaderNode != null) {
            ops.add(client.transactionOp().check().forPath(leaderNode));
        }
        ops.addAll(writes);
        CompletableFuture<List<Code>> result = new CompletableFuture<>();
        client.transaction().inBackground((c, event) -> {
            Code code = Code.get(event.getResultCode());
            List<CuratorTransactionResult> results = event.getOpResults();
            if (code == Code.OK || results == null || results.size() != ops.size()) {
                result.complete(Collections.nCopies(writes.size(), code));
            } else if (leaderNode != null && results.get(0).getError() != 0) {
                result.completeExceptionally(new LeadershipLostException(leaderNode));
            } else {
                List<Code> codes = new ArrayList<>(writes.size());
                for (CuratorTransactionResult r : results.subList(ops.size() - writes.size(), ops.size())) {
                    codes.add(Code.get(r.getError()));
                }
                result.complete(codes);
            }
        }).forOperations(ops);
        return result;
    }

    public Optional<RegistryEntry> read(String bucket) throws Exception {
        return reader.read(bucket);
    }

    public List<String> buckets() throws Exception {
        return reader.buckets();
    }

    /** Every node and its entry (empty: unparseable), read pipelined. */
    public Map<String, Optional<RegistryEntry>> readAll() throws Exception {
        return reader.readAll();
    }

    /**
     * The walk that re-arms a bucket's timers under its current rules. The scan id names the bucket, the rule set
     * and the filer event that brought the change ({@code generationTsNs}), so a task published twice (a retried
     * transaction replays the same events) is recognisably the same walk, while rules that return to an earlier
     * set (A, B, A) start a walk of their own.
     */
    public static BucketTask recoveryTask(BucketConfigChange change, long generationTsNs) {
        String hash = change.config().ruleSetHash();
        String scanId = "recovery-" + change.bucket() + "-" + hash.substring(0, Math.min(16, hash.length())) + "-"
                + generationTsNs;
        return new BucketTask(BucketTask.PROCESS_BUCKET, new BucketTask.Target(change.bucket()),
                new BucketTask.Details(scanId, BucketTask.Mode.recovery, "", null));
    }
}
