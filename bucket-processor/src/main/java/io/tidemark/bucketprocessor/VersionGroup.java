package io.tidemark.bucketprocessor;

import io.tidemark.lifecycle.engine.ObjectVersion;
import io.tidemark.messages.BucketTask.VersionsCursor;
import io.tidemark.messages.pb.MetaLogProto.RearmRole;
import io.tidemark.seaweed.EpochNanos;
import io.tidemark.seaweed.S3Entries;
import io.tidemark.seaweed.S3Layout;
import io.tidemark.seaweed.S3Versions;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The versions of one key, evaluated newest first. The latest is the directory's pointer (or, without one, the
 * newest); each noncurrent version's rank counts the noncurrent versions before it, and its successor time is
 * its demotion stamp or the previous version's modification time.
 */
final class VersionGroup {

    private static final Logger log = LoggerFactory.getLogger(VersionGroup.class);

    private final String key;
    private final String latestVersionId;
    private final boolean nullIsLatest;
    private long seen;
    private long noncurrentSeen;
    private long previousMtimeNs;
    private boolean ordered;
    private boolean complete;
    /** Versions in the one listing, when it held them all. */
    private long total = -1;

    private VersionGroup(String key, String latestVersionId, boolean nullIsLatest, long seen, long noncurrentSeen,
                         long previousMtimeNs, boolean ordered) {
        this.key = key;
        this.latestVersionId = latestVersionId;
        this.nullIsLatest = nullIsLatest;
        this.seen = seen;
        this.noncurrentSeen = noncurrentSeen;
        this.previousMtimeNs = previousMtimeNs;
        this.ordered = ordered;
    }

    static VersionGroup fresh(String key, Entry directory) {
        if (directory == null) {
            // Gone since the marker was written: the listing will come back empty.
            return new VersionGroup(key, "", false, 0, 0, 0, false);
        }
        return new VersionGroup(key, S3Versions.latestVersionId(directory), S3Versions.nullIsLatest(directory), 0, 0, 0,
                true);
    }

    /**
     * A walk continued inside a {@code .versions} directory, as older versions of Tidemark split one: the
     * versions listed before may have changed since, so ranks and successors count as unknown from here (never
     * early). Walks of this version list a key's versions whole, in one page.
     */
    static VersionGroup resumed(String key, VersionsCursor cursor) {
        return new VersionGroup(key, cursor.latestVersionId(), cursor.nullIsLatest(), cursor.seen(),
                cursor.noncurrentSeen(), cursor.previousMtimeNs(), false);
    }

    /** True before the first version is handled: the directory's listing is still to come. */
    boolean unlisted() {
        return seen == 0;
    }

    /** True when the first listing held every version, so ranks and successors are counted from all of them. */
    boolean complete() {
        return complete;
    }

    VersionsCursor cursor() {
        return new VersionsCursor(latestVersionId, nullIsLatest, seen, noncurrentSeen, previousMtimeNs, ordered);
    }

    /** Takes note of a listing of this directory: whether it held all versions (the first listing only). */
    void piece(List<Entry> got, boolean exhausted) {
        complete = seen == 0 && exhausted;
        if (complete) {
            total = got.size();
        }
    }

    /** A complete listing in the gateway's order: newest modification time first, then by name. */
    static List<Entry> sorted(List<Entry> got) {
        List<Entry> copy = new ArrayList<>(got);
        copy.sort(S3Versions.NEWEST_FIRST);
        return copy;
    }

    void version(String directory, Entry entry, WalkVisitor decisions, PageOutput out) {
        String name = entry.getName();
        if (entry.getIsDirectory() || !S3Layout.isVersionFileName(name)) {
            out.anomalies++;
            log.warn("{}: {} is not a version file; skipped", directory, name);
            return;
        }
        String versionId = S3Layout.versionIdOfFileName(name);
        long mtime = mtimeNs(entry);
        if (!complete && ordered && (!S3Layout.sortsNewestFirst(versionId) || (seen > 0 && mtime > previousMtimeNs))) {
            ordered = false;
        }
        // Every version before the latest one in this order is noncurrent too, so the latest comes first when the
        // order holds; the null version, when it is the latest, lives outside the directory.
        boolean latestPassed = nullIsLatest || seen > noncurrentSeen;
        boolean latest;
        if (nullIsLatest) {
            latest = false;
        } else if (!latestVersionId.isEmpty()) {
            latest = versionId.equals(latestVersionId);
            if (!latest && !latestPassed) {
                ordered = false;
            }
        } else {
            latest = ordered && seen == 0;
        }
        boolean marker = S3Entries.isDeleteMarker(entry);
        int numVersions = total >= 0 ? (int) total : (int) Math.min(Integer.MAX_VALUE, Math.max(2, seen + 2));
        Instant modTime = S3Entries.modTime(entry);
        long size = entry.getAttributes().getFileSize();
        if (versionId.equals(S3Layout.NULL_VERSION_ID)) {
            // A null delete marker: the gateway looks for version "null" at the bare path only, so no request
            // can remove it. Counted (it still holds its place among the versions), never sent.
            out.nullMarkers++;
            if (!latest) {
                noncurrentSeen++;
            }
        } else if (latest) {
            ObjectVersion version = new ObjectVersion(key, size, S3Entries.tags(entry), modTime, true, marker,
                    versionId, null, numVersions, null);
            decisions.version(directory, entry, version, RearmRole.CURRENT, Optional.empty());
        } else if (latestVersionId.isEmpty() && !nullIsLatest) {
            // No pointer and no order to trust: which version is current is unknown, so nothing is decided.
            out.anomalies++;
        } else {
            boolean known = ordered && latestPassed;
            Optional<Instant> stamp = S3Entries.noncurrentSince(entry);
            Instant successor = stamp.orElse(known && seen > 0 ? EpochNanos.toInstant(previousMtimeNs) : null);
            Integer rank = known ? (int) Math.min(Integer.MAX_VALUE, noncurrentSeen) : null;
            ObjectVersion version = new ObjectVersion(key, size, S3Entries.tags(entry), modTime, false, marker,
                    versionId, successor, numVersions, rank);
            ObjectVersion asOneEvent = new ObjectVersion(key, size, S3Entries.tags(entry), modTime, false, marker,
                    versionId, stamp.orElse(null), numVersions, null);
            decisions.version(directory, entry, version, RearmRole.NONCURRENT, Optional.of(asOneEvent));
            noncurrentSeen++;
        }
        seen++;
        previousMtimeNs = mtime;
    }

    private static long mtimeNs(Entry e) {
        return EpochNanos.of(S3Entries.modTime(e));
    }
}
