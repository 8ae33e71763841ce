package io.tidemark.lifecycle.engine;

/** What a lifecycle rule does to one object version or upload. */
public enum LifecycleAction {
    NONE("none", false),
    /** Permanently remove the object of an unversioned bucket. */
    DELETE("delete", true),
    /** Expire the current version of a versioned bucket by putting a delete marker on top of it. */
    CREATE_DELETE_MARKER("create_delete_marker", false),
    /** Permanently remove a noncurrent version (or a noncurrent delete marker). */
    DELETE_VERSION("delete_version", true),
    /** Remove a delete marker that is the only version left of its key. */
    DELETE_MARKER_CLEANUP("delete_marker_cleanup", true),
    /** Abort an incomplete multipart upload and drop its parts. */
    ABORT_MPU("abort_mpu", true);

    private final String wireName;
    private final boolean permanent;

    LifecycleAction(String wireName, boolean permanent) {
        this.wireName = wireName;
        this.permanent = permanent;
    }

    /** The lower-case name used in task messages and the CLI. */
    public String wireName() {
        return wireName;
    }

    /** Whether the action removes data for good; S3 prefers these when several rules fall due together. */
    public boolean permanent() {
        return permanent;
    }
}
