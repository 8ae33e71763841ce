package io.tidemark.objectprocessor;

import io.tidemark.lifecycle.engine.ActionKind;
import io.tidemark.seaweed.S3Entries;
import io.tidemark.seaweed.S3Layout;
import io.tidemark.seaweed.S3Versions;
import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The last look at a noncurrent version before it is deleted, from a fresh read of its key (architecture.md, invariant
 * 5). Neither the identity check nor the gateway can see a version's role or rank: a version that became latest again
 * (its successor deleted) still has the identity it was decided on, and upstream's "is it latest" guard reads only the
 * pointer, which the null version does not have. So: the version must not be the key's current version now; for a
 * rule that keeps a number of newer noncurrent versions, its rank among them, counted from one listing of the key now,
 * must still be past that number; and for NoncurrentDays, the time it became noncurrent is read from that listing too
 * (its successor's creation), since it may have been current again and demoted again since the task was timed.
 */
final class VersionCheck {

    private static final int PAGE = 1_000;

    private final FilerClient filer;

    VersionCheck(FilerClient filer) {
        this.filer = filer;
    }

    static boolean applies(ActionKind kind) {
        return kind == ActionKind.NONCURRENT_DAYS || kind == ActionKind.NEWER_NONCURRENT;
    }

    /**
     * Blocking: whether the version a task names is still there — the bare object for version "null" (where the
     * gateway looks for it), the version's file otherwise, and for a task of the current version (no version ID)
     * the bare object or the key's versions directory. An answer of NOT_FOUND means a missing entry or a failure to
     * read one; this read tells them apart.
     */
    boolean present(String bucket, String key, String versionId) {
        ObjectPath path = path(bucket, key);
        String directory = path.directory();
        String name = path.name();
        boolean bare = filer.lookup(directory, name).filter(e -> !e.getIsDirectory()).isPresent();
        if (versionId == null || versionId.isEmpty()) {
            return bare || filer.lookup(directory, S3Layout.versionsDirectoryName(name)).isPresent();
        }
        if (versionId.equals(S3Layout.NULL_VERSION_ID)) {
            return bare;
        }
        return filer.lookup(directory + "/" + S3Layout.versionsDirectoryName(name),
                S3Layout.versionFileName(versionId)).isPresent();
    }

    /**
     * What a fresh read of the key says of a noncurrent version a task would delete.
     *
     * @param changed why the delete must not be sent now (the version is current again, or its rank no longer passes
     *                the keep count), or null
     * @param demoted when the version became noncurrent as the key shows it now — the creation of the next newer
     *                version — when that was asked for and can be told; else null
     */
    record Look(String changed, Instant demoted) {
    }

    /**
     * Blocking: reads the key's versions directory, and lists its versions when a rank or a demotion time is asked for.
     *
     * <p>The demotion time is read from the listing rather than taken from the task: a version current again (its
     * successor deleted) and demoted again later keeps its identity — the bare null version is never stamped, so
     * nothing on it changes — and a task timed from its first demotion would otherwise delete it a day after that
     * demotion, hours after the second. A stamped version is timed from its stamp, which the gateway writes at each
     * demotion, as the walker times it (the next newer version may be a later write that demoted nothing: a null
     * version overwritten in a Suspended bucket); an unstamped one from its successor's creation, the next newer
     * version of its key in the gateway's order.
     *
     * @param keep     the rule's NewerNoncurrentVersions, 0 for none
     * @param demotion whether to find when the version became noncurrent (a NoncurrentDays task)
     */
    Look look(String bucket, String key, String versionId, int keep, boolean demotion) {
        ObjectPath path = path(bucket, key);
        String directory = path.directory();
        String name = path.name();
        Optional<Entry> versions = filer.lookup(directory, S3Layout.versionsDirectoryName(name))
                .filter(Entry::getIsDirectory);
        Optional<Entry> bare = filer.lookup(directory, name).filter(e -> !e.getIsDirectory());
        Optional<String> latest = S3Versions.latest(versions, bare.isPresent());
        if (latest.isPresent() && latest.get().equals(versionId)) {
            return new Look("version " + versionId + " is the current version of " + key + " now", null);
        }
        if (keep <= 0 && !demotion) {
            return new Look(null, null);
        }
        List<Entry> files = new ArrayList<>();
        if (versions.isPresent()) {
            filer.listAll(directory + "/" + S3Layout.versionsDirectoryName(name), S3Layout.VERSION_FILE_PREFIX, PAGE)
                    .forEach(files::add);
        }
        List<S3Versions.Version> newestFirst = S3Versions.newestFirst(files, bare);
        Instant demoted = demotion ? demotedAt(newestFirst, versionId, bare).orElse(null) : null;
        if (keep <= 0) {
            return new Look(null, demoted);
        }
        Optional<Integer> rank = S3Versions.noncurrentRank(newestFirst, latest.orElse(""), versionId);
        if (rank.isEmpty()) {
            return new Look("version " + versionId + " of " + key + " is not a noncurrent version now", null);
        }
        if (rank.get() < keep) {
            return new Look("version " + versionId + " of " + key + " ranks " + rank.get()
                    + " among the noncurrent versions now, and the rule keeps the newest " + keep, null);
        }
        return new Look(null, demoted);
    }

    /**
     * When the version became noncurrent, as the walker tells it: the gateway's demotion stamp (written again at each
     * demotion) when the version carries one, else the creation of the version just newer than it (the null version is
     * never stamped). Empty when the version is not listed or none is newer. Version "null" is the bare object, where
     * the gateway looks for it.
     */
    private static Optional<Instant> demotedAt(List<S3Versions.Version> newestFirst, String versionId,
                                               Optional<Entry> bare) {
        boolean nullVersion = versionId.equals(S3Layout.NULL_VERSION_ID);
        for (int i = 0; i < newestFirst.size(); i++) {
            S3Versions.Version v = newestFirst.get(i);
            boolean target = nullVersion ? bare.isPresent() && v.entry() == bare.get()
                    : v.versionId().equals(versionId);
            if (target) {
                Optional<Instant> stamped = S3Entries.noncurrentSince(v.entry());
                if (stamped.isPresent()) {
                    return stamped;
                }
                return i == 0 ? Optional.empty() : Optional.of(S3Entries.modTime(newestFirst.get(i - 1).entry()));
            }
        }
        return Optional.empty();
    }

    /** Where an object's entry lives: its directory on the filer, and its name there. */
    private record ObjectPath(String directory, String name) {
    }

    private ObjectPath path(String bucket, String key) {
        String full = filer.bucketsDirectory() + "/" + bucket + "/" + key;
        int slash = full.lastIndexOf('/');
        return new ObjectPath(full.substring(0, slash), full.substring(slash + 1));
    }
}
