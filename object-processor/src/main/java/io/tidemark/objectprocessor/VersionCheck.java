package io.tidemark.objectprocessor;

import io.tidemark.lifecycle.engine.ActionKind;
import io.tidemark.seaweed.S3Layout;
import io.tidemark.seaweed.S3Versions;
import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The last look at a noncurrent version before it is deleted, from a fresh read of its key (architecture.md, invariant
 * 5). Neither the identity check nor the gateway can see a version's role or rank: a version that became latest again
 * (its successor deleted) still has the identity it was decided on, and upstream's "is it latest" guard reads only the
 * pointer, which the null version does not have. So: the version must not be the key's current version now, and for a
 * rule that keeps a number of newer noncurrent versions, its rank among them, counted from one listing of the key now,
 * must still be past that number.
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
     * Blocking: reads the key's versions directory (and, with a keep count, lists its versions).
     *
     * @param keep the rule's NewerNoncurrentVersions, 0 for none
     * @return why the delete must not be sent now, or empty
     */
    Optional<String> stale(String bucket, String key, String versionId, int keep) {
        ObjectPath path = path(bucket, key);
        String directory = path.directory();
        String name = path.name();
        Optional<Entry> versions = filer.lookup(directory, S3Layout.versionsDirectoryName(name))
                .filter(Entry::getIsDirectory);
        Optional<Entry> bare = filer.lookup(directory, name).filter(e -> !e.getIsDirectory());
        Optional<String> latest = S3Versions.latest(versions, bare.isPresent());
        if (latest.isPresent() && latest.get().equals(versionId)) {
            return Optional.of("version " + versionId + " is the current version of " + key + " now");
        }
        if (keep <= 0) {
            return Optional.empty();
        }
        List<Entry> files = new ArrayList<>();
        if (versions.isPresent()) {
            filer.listAll(directory + "/" + S3Layout.versionsDirectoryName(name), S3Layout.VERSION_FILE_PREFIX, PAGE)
                    .forEach(files::add);
        }
        Optional<Integer> rank = S3Versions.noncurrentRank(S3Versions.newestFirst(files, bare), latest.orElse(""),
                versionId);
        if (rank.isEmpty()) {
            return Optional.of("version " + versionId + " of " + key + " is not a noncurrent version now");
        }
        if (rank.get() < keep) {
            return Optional.of("version " + versionId + " of " + key + " ranks " + rank.get()
                    + " among the noncurrent versions now, and the rule keeps the newest " + keep);
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
