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
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * The emulated filer's namespace and meta-log, with SeaweedFS's filer semantics: creating an entry creates its
 * missing parent directories, listing is in name order, a recursive delete removes children before their
 * directory, and every mutation appends one event per entry touched. One lock orders mutations and their
 * events, so the log replays to exactly the namespace it describes.
 */
public final class FilerStore implements AutoCloseable {

    /** {@code os.ModeDir} in Go, which SeaweedFS sets in the mode of directories. */
    public static final int MODE_DIR = 1 << 31;

    private final Map<String, NavigableMap<String, Entry>> directories = new HashMap<>();
    /** The volume data deleted with its entries (a delete with {@code is_delete_data}), by chunk file id. */
    private final java.util.Set<String> deletedChunks = new java.util.HashSet<>();
    private final MetaLog metaLog;
    private final Clock clock;
    private final int signature;

    private FilerStore(Clock clock, int signature, MetaLogFile file, List<SubscribeMetadataResponse> recovered) {
        this.clock = clock;
        this.signature = signature;
        this.metaLog = new MetaLog(clock, file, recovered);
        directories.put(FilerPaths.ROOT, new TreeMap<>());
        for (SubscribeMetadataResponse event : recovered) {
            replay(event);
        }
    }

    /** A namespace that lives in memory only. */
    public static FilerStore inMemory(Clock clock, int signature) {
        return new FilerStore(clock, signature, null, List.of());
    }

    /** A namespace rebuilt from, and appended to, the meta-log file in {@code dataDir}. */
    public static FilerStore durable(Path dataDir, Clock clock, int signature, boolean fsync) {
        MetaLogFile.Opened opened = MetaLogFile.open(dataDir.resolve("metalog.bin"), fsync);
        return new FilerStore(clock, signature, opened.file(), opened.events());
    }

    public Clock clock() {
        return clock;
    }

    /**
     * Makes the meta-log stamp every {@code length} consecutive events with one {@code ts_ns}, as a filer's
     * aggregated logs may: what the subscribers' count-at-timestamp resume must get right.
     */
    public void stampEventsInRunsOf(int length) {
        metaLog.stampInRunsOf(length);
    }

    /**
     * Sets how many of the newest meta-log events the filer holds in memory (1,000 unless set). A subscription from
     * an older {@code since_ns} is served from "disk" first, as upstream does: see FilerService.
     */
    public void setMetaLogMemoryWindow(int events) {
        metaLog.setMemoryWindow(events);
    }

    public int signature() {
        return signature;
    }

    /**
     * Purges the meta-log as {@code fs.log.purge} purges a filer's log files: every log file (a minute of events)
     * that starts before {@code before}'s minute goes, and with it the events no subscription can be served any
     * more. Returns how many events went.
     */
    public int purgeMetaLogBefore(Instant before) {
        long minute = 60_000_000_000L;
        return metaLog.purgeBefore(Math.floorDiv(EpochNanos.of(before), minute) * minute);
    }

    /**
     * The persisted meta-log as a filer lays it out, {@code /topics/.system/log/<day>/<HH-MM>.<filer id>}: a file for
     * each minute that has events, named by this filer's signature.
     */
    private NavigableMap<String, Entry> logFiles(String directory) {
        NavigableMap<String, Entry> children = new TreeMap<>();
        for (long minuteNs : metaLog.minutes()) {
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
        return children;
    }

    MetaLog metaLog() {
        return metaLog;
    }

    /** The meta-log's events from position {@code from} on (those not purged), in order. */
    public List<SubscribeMetadataResponse> events(int from) {
        List<SubscribeMetadataResponse> events = new ArrayList<>();
        for (int i = Math.max(from, metaLog.firstIndex()); i < metaLog.size(); i++) {
            events.add(metaLog.get(i));
        }
        return events;
    }

    /** How many events the meta-log holds. */
    public int eventCount() {
        return metaLog.size();
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
        EventNotification.Builder n = EventNotification.newBuilder().setDeleteChunks(deleteData).addSignatures(signature);
        if (oldEntry != null) {
            n.setOldEntry(oldEntry);
        }
        if (newEntry != null) {
            n.setNewEntry(newEntry).setNewParentPath(dir);
        }
        return metaLog.append(dir, n.build());
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
        metaLog.close();
    }
}
