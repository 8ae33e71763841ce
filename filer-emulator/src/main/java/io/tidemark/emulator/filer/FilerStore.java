package io.tidemark.emulator.filer;

import io.tidemark.seaweed.EpochNanos;
import io.tidemark.seaweed.FilerLogFiles;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import io.tidemark.seaweed.pb.FilerProto.EventNotification;
import io.tidemark.seaweed.pb.FilerProto.FilerError;
import io.tidemark.seaweed.pb.FilerProto.FuseAttributes;
import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * The emulated filers' shared namespace and their meta-logs, with SeaweedFS's filer semantics: creating an entry creates its
 * missing parent directories, listing is in name order, a recursive delete removes children before their
 * directory, and every mutation appends one event per entry touched, to the log of the filer it went through
 * ({@link #through}; the first filer otherwise). One lock orders mutations and their events, so the logs replay to
 * exactly the namespace they describe.
 */
public final class FilerStore implements AutoCloseable {

    /** {@code os.ModeDir} in Go, which SeaweedFS sets in the mode of directories. */
    public static final int MODE_DIR = 1 << 31;

    private final Map<String, NavigableMap<String, Entry>> directories = new HashMap<>();
    /** The volume data deleted with its entries (a delete with {@code is_delete_data}), by chunk file id. */
    private final java.util.Set<String> deletedChunks = new java.util.HashSet<>();
    private final Clock clock;
    /** The filers recording this namespace's events; the first is the one a write outside {@link #through} uses. */
    private final List<FilerNode> filers = new CopyOnWriteArrayList<>();
    private final ThreadLocal<FilerNode> recording = new ThreadLocal<>();
    private final PeerDelivery delivery = new PeerDelivery();
    /** Every event in the order the mutations happened, whichever filer recorded it; {@code null} in memory only. */
    private final MetaLogFile journal;
    private final List<SubscribeMetadataResponse> recovered;

    private FilerStore(Clock clock, List<Integer> signatures, MetaLogFile journal,
                       List<SubscribeMetadataResponse> recovered) {
        this.clock = clock;
        this.journal = journal;
        this.recovered = recovered;
        directories.put(FilerPaths.ROOT, new TreeMap<>());
        for (SubscribeMetadataResponse event : recovered) {
            replay(event);
        }
        List<Integer> others = signatures.subList(1, signatures.size());
        // The first filer also takes the events of filers no longer configured, so that nothing recovered is lost.
        filers.add(newFiler(signatures.get(0), e -> !others.contains(signatureOf(e))));
        for (int signature : others) {
            filers.add(newFiler(signature, e -> signatureOf(e) == signature));
        }
    }

    /** A namespace that lives in memory only, with one filer. */
    public static FilerStore inMemory(Clock clock, int signature) {
        return inMemory(clock, List.of(signature));
    }

    /** A namespace that lives in memory only, with a filer for each signature. */
    public static FilerStore inMemory(Clock clock, List<Integer> signatures) {
        return new FilerStore(clock, signatures, null, List.of());
    }

    /** A namespace rebuilt from, and appended to, the meta-log file in {@code dataDir}, with one filer. */
    public static FilerStore durable(Path dataDir, Clock clock, int signature, boolean fsync) {
        return durable(dataDir, clock, List.of(signature), fsync);
    }

    /**
     * A namespace rebuilt from, and appended to, the meta-log file in {@code dataDir}, with a filer for each signature:
     * the file holds every filer's events in the order they happened, and each filer's log is rebuilt from the events
     * that carry its signature.
     */
    public static FilerStore durable(Path dataDir, Clock clock, List<Integer> signatures, boolean fsync) {
        MetaLogFile.Opened opened = MetaLogFile.open(dataDir.resolve("metalog.bin"), fsync);
        return new FilerStore(clock, signatures, opened.file(), opened.events());
    }

    private static int signatureOf(SubscribeMetadataResponse event) {
        List<Integer> signatures = event.getEventNotification().getSignaturesList();
        return signatures.isEmpty() ? 0 : signatures.get(signatures.size() - 1);
    }

    private FilerNode newFiler(int signature, Predicate<SubscribeMetadataResponse> itsOwn) {
        for (FilerNode f : filers) {
            if (f.signature() == signature) {
                throw new IllegalArgumentException("there is a filer with signature " + signature + " already");
            }
        }
        return new FilerNode(signature, clock, journal == null ? null : journal::append,
                recovered.stream().filter(itsOwn).toList());
    }

    /** Adds a filer, as one joining the cluster: it shares the namespace and records its own events from now on. */
    public synchronized FilerNode addFiler(int signature) {
        FilerNode filer = newFiler(signature, e -> signatureOf(e) == signature);
        filers.add(filer);
        return filer;
    }

    /** The filers, in the order they were added. */
    public List<FilerNode> filers() {
        return List.copyOf(filers);
    }

    public FilerNode filer(int index) {
        return filers.get(index);
    }

    /** A store mutation that may fail as the filer refuses it. */
    @FunctionalInterface
    public interface Write<T, E extends Exception> {
        T run() throws E;
    }

    /** Runs {@code write} with its events recorded by {@code filer}, as a mutation received by that filer is. */
    public <T, E extends Exception> T through(FilerNode filer, Write<T, E> write) throws E {
        FilerNode previous = recording.get();
        recording.set(filer);
        try {
            return write.run();
        } finally {
            if (previous == null) {
                recording.remove();
            } else {
                recording.set(previous);
            }
        }
    }

    public Clock clock() {
        return clock;
    }

    /**
     * Makes the meta-log stamp every {@code length} consecutive events with one {@code ts_ns}, as a filer's
     * aggregated logs may: what the subscribers' count-at-timestamp resume must get right.
     */
    public void stampEventsInRunsOf(int length) {
        filers.forEach(f -> f.log.stampInRunsOf(length));
    }

    /** How many of the newest meta-log events each filer holds in memory unless told otherwise. */
    public static final int DEFAULT_META_LOG_MEMORY_WINDOW = MetaLog.DEFAULT_MEMORY_WINDOW;

    /**
     * Sets how many of the newest meta-log events the filer holds in memory ({@link #DEFAULT_META_LOG_MEMORY_WINDOW}
     * unless set). A subscription from an older {@code since_ns} is served from "disk" first, as upstream does: see
     * FilerService.
     */
    public void setMetaLogMemoryWindow(int events) {
        filers.forEach(f -> f.setMemoryWindow(events));
    }

    private volatile Duration logFlushInterval;

    /**
     * Models how upstream persists each filer's meta-log and serves a local subscription's catch-up: every filer
     * flushes its log buffer to the shared log files once per {@code interval}, each on its own schedule (filer i of n
     * at {@code i/n} of the interval, on its own clock), and {@code SubscribeLocalMetadata} reads the log files first —
     * every filer's flushed events, merged by stamp — then goes on from this filer's memory at the last stamp the files
     * gave, so this filer's events not flushed yet and stamped before a peer's newer flushed ones are never sent
     * (filer_grpc_server_sub_meta.go, filer_notify_read.go, log_buffer.go). {@code null} (the default) keeps the
     * simpler model of a memory window counted in events ({@link #setMetaLogMemoryWindow}).
     */
    public void setLogFlushInterval(Duration interval) {
        if (interval != null && (interval.isNegative() || interval.isZero())) {
            throw new IllegalArgumentException("a flush interval is positive: " + interval);
        }
        logFlushInterval = interval;
    }

    public Duration logFlushInterval() {
        return logFlushInterval;
    }

    /**
     * With a flush interval: the stamp before which {@code filer}'s events are in the log files, as of its clock now.
     */
    public long flushedBeforeNs(FilerNode filer) {
        Duration interval = logFlushInterval;
        if (interval == null) {
            return Long.MAX_VALUE;
        }
        List<FilerNode> all = filers();
        long period = interval.toNanos();
        long phase = period * Math.max(0, all.indexOf(filer)) / Math.max(1, all.size());
        long now = EpochNanos.of(filer.clock().instant());
        return Math.min(filer.flushHeldBeforeNs(), Math.floorDiv(now - phase, period) * period + phase);
    }

    /**
     * Stalls {@code filer}'s log flushes where they stand ({@code held}), as a filer whose flush to the store is slow,
     * or lets them go on: released, it has flushed what its schedule says. With a flush interval only.
     */
    public void holdLogFlush(FilerNode filer, boolean held) {
        filer.holdFlushBefore(Long.MAX_VALUE);
        if (held) {
            filer.holdFlushBefore(flushedBeforeNs(filer));
        }
    }

    /** The first filer's signature. */
    public int signature() {
        return filers.get(0).signature();
    }

    /**
     * Purges the meta-log as {@code fs.log.purge} purges a filer's log files: every log file (a minute of events)
     * that starts before {@code before}'s minute goes, and with it the events no subscription can be served any
     * more. Returns how many events went.
     */
    public synchronized int purgeMetaLogBefore(Instant before) {
        long minute = 60_000_000_000L;
        long cutoff = Math.floorDiv(EpochNanos.of(before), minute) * minute;
        int purged = 0;
        for (FilerNode f : filers) {
            purged += f.log.purgeBefore(cutoff);
        }
        if (purged > 0 && journal != null) {
            journal.retainFrom(cutoff);
        }
        return purged;
    }

    /**
     * The persisted meta-logs as filers lay them out, {@code /topics/.system/log/<day>/<HH-MM>.<filer id>}: a file for
     * each minute that has events, of each filer, named by that filer's signature.
     */
    private NavigableMap<String, Entry> logFiles(String directory) {
        NavigableMap<String, Entry> children = new TreeMap<>();
        for (FilerNode filer : filers) {
            logFiles(directory, filer, children);
        }
        return children;
    }

    private static void logFiles(String directory, FilerNode filer, NavigableMap<String, Entry> children) {
        int signature = filer.signature();
        for (long minuteNs : filer.log.minutes()) {
            Instant minute = EpochNanos.toInstant(minuteNs);
            FilerLogFiles.Name name = FilerLogFiles.nameOf(minute, signature);
            if (directory.equals(FilerLogFiles.DIRECTORY)) {
                children.putIfAbsent(name.day(), newDirectory(name.day(), minute));
            } else if (directory.equals(FilerLogFiles.DIRECTORY + "/" + name.day())) {
                children.put(name.file(), Entry.newBuilder().setName(name.file()).setAttributes(FuseAttributes
                        .newBuilder().setMtime(minute.getEpochSecond() + 60).setCrtime(minute.getEpochSecond())
                        .setFileMode(0644)).build());
            }
        }
    }

    /** The first filer's meta-log. */
    MetaLog metaLog() {
        return filers.get(0).log;
    }

    /** The first filer's meta-log events from position {@code from} on (those not purged), in order. */
    public List<SubscribeMetadataResponse> events(int from) {
        MetaLog metaLog = metaLog();
        List<SubscribeMetadataResponse> events = new ArrayList<>();
        for (int i = Math.max(from, metaLog.firstIndex()); i < metaLog.size(); i++) {
            events.add(metaLog.get(i));
        }
        return events;
    }

    /** How many events the first filer's meta-log holds. */
    public int eventCount() {
        return metaLog().size();
    }

    public Optional<Entry> lookup(String directory, String name) {
        synchronized (this) {
            NavigableMap<String, Entry> children = directories.get(FilerPaths.normalize(directory));
            return children == null ? Optional.empty() : Optional.ofNullable(children.get(name));
        }
    }

    public Optional<Entry> lookup(String path) {
        return lookup(FilerPaths.parent(path), FilerPaths.name(path));
    }

    /**
     * Entries of a directory in name order, starting after {@code startFrom} (or at it when inclusive), whose
     * names start with {@code prefix}; at most {@code limit} (0: no limit).
     */
    public List<Entry> list(String directory, String prefix, String startFrom, boolean inclusive, int limit) {
        synchronized (this) {
            String normalized = FilerPaths.normalize(directory);
            NavigableMap<String, Entry> children = normalized.startsWith(FilerLogFiles.DIRECTORY)
                    ? logFiles(normalized) : directories.get(normalized);
            List<Entry> page = new ArrayList<>();
            if (children == null) {
                return page;
            }
            NavigableMap<String, Entry> view = startFrom.isEmpty() ? children : children.tailMap(startFrom, inclusive);
            for (Map.Entry<String, Entry> e : view.entrySet()) {
                if (!e.getKey().startsWith(prefix)) {
                    if (e.getKey().compareTo(prefix) > 0) {
                        break;
                    }
                    continue;
                }
                page.add(e.getValue());
                if (limit > 0 && page.size() >= limit) {
                    break;
                }
            }
            return page;
        }
    }

    /**
     * Creates an entry, or replaces it unless {@code exclusive}. Missing parent directories are created first,
     * each with its own event.
     */
    public synchronized SubscribeMetadataResponse create(String directory, Entry entry, boolean exclusive)
            throws FilerException {
        String dir = FilerPaths.normalize(directory);
        if (entry.getName().isEmpty()) {
            throw new FilerException(FilerError.OK, "cannot create an entry without a name in " + dir);
        }
        ensureDirectory(dir);
        Entry existing = directories.get(dir).get(entry.getName());
        if (existing != null) {
            if (exclusive) {
                throw new FilerException(FilerError.ENTRY_ALREADY_EXISTS, "EEXIST: entry already exists: "
                        + FilerPaths.join(dir, entry.getName()));
            }
            if (existing.getIsDirectory() && !entry.getIsDirectory()) {
                throw new FilerException(FilerError.EXISTING_IS_DIRECTORY, "existing " + FilerPaths.join(dir,
                        entry.getName()) + " is a directory");
            }
            if (!existing.getIsDirectory() && entry.getIsDirectory()) {
                throw new FilerException(FilerError.EXISTING_IS_FILE, "existing " + FilerPaths.join(dir,
                        entry.getName()) + " is a file");
            }
        }
        return put(dir, existing, entry);
    }

    /** Replaces an existing entry. */
    public synchronized SubscribeMetadataResponse update(String directory, Entry entry) throws FilerException {
        String dir = FilerPaths.normalize(directory);
        NavigableMap<String, Entry> children = directories.get(dir);
        Entry existing = children == null ? null : children.get(entry.getName());
        if (existing == null) {
            throw FilerException.notFound(FilerPaths.join(dir, entry.getName()));
        }
        return put(dir, existing, entry);
    }

    /** Reads, changes and writes back an entry as one step. */
    public synchronized SubscribeMetadataResponse modify(String path, UnaryOperator<Entry> change)
            throws FilerException {
        String dir = FilerPaths.parent(path);
        Entry existing = lookup(dir, FilerPaths.name(path)).orElseThrow(() -> FilerException.notFound(path));
        return put(dir, existing, change.apply(existing));
    }

    /**
     * Deletes an entry; a missing one is not an error and writes no event. A directory with children needs
     * {@code recursive}; its descendants go first, each with its own event. With {@code ifNotModifiedAfter} set,
     * an entry modified later (in whole seconds) is left alone, silently.
     *
     * @return the event of the entry itself, or empty when nothing was deleted
     */
    public synchronized Optional<SubscribeMetadataResponse> delete(String directory, String name, boolean recursive,
                                                                   boolean deleteData, long ifNotModifiedAfter)
            throws FilerException {
        String dir = FilerPaths.normalize(directory);
        NavigableMap<String, Entry> children = directories.get(dir);
        Entry existing = children == null ? null : children.get(name);
        if (existing == null) {
            return Optional.empty();
        }
        if (ifNotModifiedAfter > 0 && existing.getAttributes().getMtime() > ifNotModifiedAfter) {
            return Optional.empty();
        }
        String path = FilerPaths.join(dir, name);
        if (existing.getIsDirectory()) {
            NavigableMap<String, Entry> grandchildren = directories.get(path);
            if (grandchildren != null && !grandchildren.isEmpty() && !recursive) {
                throw new FilerException(FilerError.OK, "fail to delete non-empty folder: " + path);
            }
            deleteChildren(path, deleteData);
        }
        children.remove(name);
        directories.remove(path);
        return Optional.of(event(dir, existing, null, deleteData));
    }

    private void deleteChildren(String path, boolean deleteData) {
        NavigableMap<String, Entry> children = directories.get(path);
        if (children == null) {
            return;
        }
        for (Entry child : new ArrayList<>(children.values())) {
            String childPath = FilerPaths.join(path, child.getName());
            if (child.getIsDirectory()) {
                deleteChildren(childPath, deleteData);
                directories.remove(childPath);
            }
            children.remove(child.getName());
            event(path, child, null, deleteData);
        }
    }

    private SubscribeMetadataResponse put(String dir, Entry existing, Entry entry) {
        directories.get(dir).put(entry.getName(), entry);
        if (entry.getIsDirectory()) {
            directories.computeIfAbsent(FilerPaths.join(dir, entry.getName()), d -> new TreeMap<>());
        }
        return event(dir, existing, entry, false);
    }

    private void ensureDirectory(String dir) throws FilerException {
        if (directories.containsKey(dir)) {
            return;
        }
        String parent = FilerPaths.parent(dir);
        ensureDirectory(parent);
        Entry existing = directories.get(parent).get(FilerPaths.name(dir));
        if (existing != null && !existing.getIsDirectory()) {
            throw new FilerException(FilerError.PARENT_IS_FILE, dir + " is a file");
        }
        put(parent, null, newDirectory(FilerPaths.name(dir), clock.instant()));
    }

    /** A directory entry as the filer makes one for an implied parent. */
    public static Entry newDirectory(String name, Instant now) {
        return Entry.newBuilder()
                .setName(name)
                .setIsDirectory(true)
                .setAttributes(FuseAttributes.newBuilder()
                        .setMtime(now.getEpochSecond())
                        .setCrtime(now.getEpochSecond())
                        .setFileMode(MODE_DIR | 0775))
                .build();
    }

    /**
     * The chunks of an entry whose volume data is gone: another entry holding the same chunks was deleted with its
     * data. Empty for a readable entry; the emulator's stand-in for reading it back after a vacuum.
     */
    public synchronized List<String> deletedChunks(Entry entry) {
        return entry.getChunksList().stream().map(FilerStore::fid).filter(deletedChunks::contains).toList();
    }

    private void dataDeleted(Entry old, boolean deleteData) {
        if (deleteData && old != null && !old.getIsDirectory()) {
            old.getChunksList().forEach(c -> deletedChunks.add(fid(c)));
        }
    }

    private static String fid(io.tidemark.seaweed.pb.FilerProto.FileChunk chunk) {
        return io.tidemark.seaweed.HeadFid.of(chunk.getFileId(), chunk.getFid().getVolumeId(),
                chunk.getFid().getFileKey(), chunk.getFid().getCookie());
    }

    private SubscribeMetadataResponse event(String dir, Entry oldEntry, Entry newEntry, boolean deleteData) {
        dataDeleted(oldEntry, deleteData && newEntry == null);
        FilerNode filer = recording.get() == null ? filers.get(0) : recording.get();
        EventNotification.Builder n = EventNotification.newBuilder().setDeleteChunks(deleteData)
                .addSignatures(filer.signature());
        if (oldEntry != null) {
            n.setOldEntry(oldEntry);
        }
        if (newEntry != null) {
            n.setNewEntry(newEntry).setNewParentPath(dir);
        }
        SubscribeMetadataResponse event = filer.log.append(dir, n.build());
        delivery.deliver(filer, event, filers);
        return event;
    }

    /** Applies a recovered event to the namespace without logging it again. */
    private void replay(SubscribeMetadataResponse event) {
        EventNotification n = event.getEventNotification();
        String dir = event.getDirectory();
        directories.computeIfAbsent(dir, d -> new TreeMap<>());
        dataDeleted(n.hasOldEntry() ? n.getOldEntry() : null, n.getDeleteChunks() && !n.hasNewEntry());
        if (n.hasOldEntry()) {
            String oldPath = FilerPaths.join(dir, n.getOldEntry().getName());
            directories.get(dir).remove(n.getOldEntry().getName());
            if (!n.hasNewEntry() || !n.getNewEntry().getIsDirectory()) {
                removeSubtree(oldPath);
            }
        }
        if (n.hasNewEntry()) {
            String newDir = n.getNewParentPath().isEmpty() ? dir : n.getNewParentPath();
            directories.computeIfAbsent(newDir, d -> new TreeMap<>()).put(n.getNewEntry().getName(), n.getNewEntry());
            if (n.getNewEntry().getIsDirectory()) {
                directories.computeIfAbsent(FilerPaths.join(newDir, n.getNewEntry().getName()), d -> new TreeMap<>());
            }
        }
    }

    private void removeSubtree(String path) {
        NavigableMap<String, Entry> children = directories.remove(path);
        if (children != null) {
            for (Entry child : children.values()) {
                removeSubtree(FilerPaths.join(path, child.getName()));
            }
        }
    }

    @Override
    public void close() {
        delivery.close();
        if (journal != null) {
            journal.close();
        }
    }
}
