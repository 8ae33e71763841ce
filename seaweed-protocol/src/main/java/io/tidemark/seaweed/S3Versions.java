package io.tidemark.seaweed;

import io.tidemark.seaweed.pb.FilerProto.Entry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * One reading of a key's versions in the gateway's layout, for everyone who needs it (the walker, the object
 * processor's rank check): which version the {@code .versions} directory names latest, and the versions newest first.
 */
public final class S3Versions {

    /** The gateway's order of a key's versions: newest modification time first, ties by version file name. */
    public static final Comparator<Entry> NEWEST_FIRST = Comparator
            .comparingLong((Entry e) -> -EpochNanos.of(S3Entries.modTime(e))).thenComparing(Entry::getName);

    private S3Versions() {
    }

    /** The latest pointer's version ID, or empty when the directory has none. */
    public static String latestVersionId(Entry versionsDirectory) {
        var id = versionsDirectory.getExtendedMap().get(S3Layout.LATEST_VERSION_ID);
        return id == null ? "" : id.toStringUtf8();
    }

    /** Whether the bare null version is the latest (the gateway's flag after a write in a suspended bucket). */
    public static boolean nullIsLatest(Entry versionsDirectory) {
        return S3Layout.flag(S3Entries.text(versionsDirectory, S3Layout.NULL_VERSION_IS_LATEST).orElse(""));
    }

    /**
     * The version that is current: {@code "null"} when the null version is flagged latest or when there is no
     * {@code .versions} directory or pointer but a bare object; the pointer's ID otherwise; empty when nothing says.
     */
    public static Optional<String> latest(Optional<Entry> versionsDirectory, boolean bareExists) {
        if (versionsDirectory.isEmpty()) {
            return bareExists ? Optional.of(S3Layout.NULL_VERSION_ID) : Optional.empty();
        }
        if (nullIsLatest(versionsDirectory.get())) {
            return Optional.of(S3Layout.NULL_VERSION_ID);
        }
        String pointer = latestVersionId(versionsDirectory.get());
        if (!pointer.isEmpty()) {
            return Optional.of(pointer);
        }
        return bareExists ? Optional.of(S3Layout.NULL_VERSION_ID) : Optional.empty();
    }

    /** One version of a key: its ID and entry. */
    public record Version(String versionId, Entry entry) {
    }

    /**
     * Every version of a key newest first: the files of its {@code .versions} directory and the bare null version.
     *
     * @param versionFiles the directory's {@code v_<id>} entries, in any order
     * @param bare         the bare object at the key's path, if it is a file
     */
    public static List<Version> newestFirst(List<Entry> versionFiles, Optional<Entry> bare) {
        List<Entry> all = new ArrayList<>();
        for (Entry e : versionFiles) {
            if (!e.getIsDirectory() && S3Layout.isVersionFileName(e.getName())) {
                all.add(e);
            }
        }
        bare.filter(e -> !e.getIsDirectory()).ifPresent(all::add);
        all.sort(NEWEST_FIRST);
        List<Version> versions = new ArrayList<>();
        for (Entry e : all) {
            boolean file = S3Layout.isVersionFileName(e.getName()) && versionFiles.contains(e);
            versions.add(new Version(file ? S3Layout.versionIdOfFileName(e.getName())
                    : S3Layout.NULL_VERSION_ID, e));
        }
        return versions;
    }

    /**
     * A noncurrent version's 0-based rank among the key's noncurrent versions, newest first; empty when the version
     * is not there or is the latest.
     */
    public static Optional<Integer> noncurrentRank(List<Version> newestFirst, String latestId, String versionId) {
        int rank = 0;
        for (Version v : newestFirst) {
            if (v.versionId().equals(latestId)) {
                if (v.versionId().equals(versionId)) {
                    return Optional.empty();
                }
                continue;
            }
            if (v.versionId().equals(versionId)) {
                return Optional.of(rank);
            }
            rank++;
        }
        return Optional.empty();
    }
}
