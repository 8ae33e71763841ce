package io.tidemark.messages;

/** A listing task for one bucket (Backbeat's shape), the value of {@code bucket-tasks}. */
public record BucketTask(String action, Target target, Details details) {

    public static final String PROCESS_BUCKET = "processBucket";

    /** How the scan id of a conductor's steady walk begins: the object processor tells a steady walk's tasks by it. */
    public static final String STEADY_SCAN_PREFIX = "steady-";

    public enum Mode { steady, recovery }

    public record Target(String bucket) {
    }

    /**
     * @param prefix   only keys under this prefix are walked; empty for the whole bucket
     * @param marker   the bucket-relative path of the last entry the walk handled, so the next page starts after it;
     *                 a trailing {@code /} names a directory whose own entries are still to come; {@code null} for
     *                 the first page
     * @param versions when the marker lies inside a {@code .versions} directory, what the walk learned so far of
     *                 that key's versions, so they are evaluated together across pages
     */
    public record Details(String scanId, Mode mode, String prefix, String marker, VersionsCursor versions) {

        public Details(String scanId, Mode mode, String prefix, String marker) {
            this(scanId, mode, prefix, marker, null);
        }
    }

    /**
     * The walk's knowledge of one key's versions, carried from a page to the next.
     *
     * @param latestVersionId   the {@code .versions} directory's latest pointer, empty when it has none
     * @param nullIsLatest      whether the bare null version is the latest, so every file in the directory is
     *                          noncurrent
     * @param seen              versions evaluated so far
     * @param noncurrentSeen    noncurrent versions evaluated so far: the rank of the next one
     * @param previousMtimeNs   the modification time of the version evaluated last (the next one's successor)
     * @param ordered           whether the versions so far came newest first, so ranks and successors are known
     */
    public record VersionsCursor(String latestVersionId, boolean nullIsLatest, long seen, long noncurrentSeen,
                                 long previousMtimeNs, boolean ordered) {
    }
}
