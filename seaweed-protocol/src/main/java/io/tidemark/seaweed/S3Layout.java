package io.tidemark.seaweed;

import java.util.Locale;

/**
 * How SeaweedFS's S3 gateway lays buckets and objects out in the filer: the directory and file names and the
 * extended-attribute keys it writes. The emulator writes this layout; the pipeline reads it.
 */
public final class S3Layout {

    public static final String DEFAULT_BUCKETS_DIRECTORY = "/buckets";

    // Bucket entry.
    public static final String VERSIONING = "Seaweed-X-Amz-Versioning";
    public static final String LIFECYCLE_XML = "s3-bucket-lifecycle-configuration-xml";
    public static final String LIFECYCLE_MIN_TRANSITION_SIZE = "s3-bucket-lifecycle-transition-default-minimum-object-size";
    public static final String OBJECT_LOCK_ENABLED = "Seaweed-X-Amz-Object-Lock-Enabled";
    public static final String OWNER = "Seaweed-X-Amz-Owner";

    // Objects and versions.
    public static final String ETAG = "Seaweed-X-Amz-ETag";
    public static final String TAG_PREFIX = "X-Amz-Tagging-";
    public static final String USER_METADATA_PREFIX = "X-Amz-Meta-";
    public static final String VERSION_ID = "Seaweed-X-Amz-Version-Id";
    public static final String DELETE_MARKER = "Seaweed-X-Amz-Delete-Marker";
    public static final String NONCURRENT_SINCE_NS = "Seaweed-X-Amz-Noncurrent-Since-Ns";
    public static final String NULL_VERSION_ID = "null";

    // The ".versions" directory's pointer to the latest version, and its cache of that version.
    public static final String VERSIONS_SUFFIX = ".versions";
    public static final String VERSION_FILE_PREFIX = "v_";
    public static final String LATEST_VERSION_ID = "Seaweed-X-Amz-Latest-Version-Id";
    public static final String LATEST_VERSION_FILE_NAME = "Seaweed-X-Amz-Latest-Version-File-Name";
    public static final String LATEST_VERSION_SIZE = "Seaweed-X-Amz-Latest-Version-Size";
    public static final String LATEST_VERSION_ETAG = "Seaweed-X-Amz-Latest-Version-ETag";
    public static final String LATEST_VERSION_MTIME = "Seaweed-X-Amz-Latest-Version-Mtime";
    public static final String LATEST_VERSION_IS_DELETE_MARKER = "Seaweed-X-Amz-Latest-Version-Is-Delete-Marker";
    public static final String NULL_VERSION_IS_LATEST = "Seaweed-X-Amz-Null-Version-Is-Latest";

    // Object lock on a version.
    public static final String LOCK_MODE = "Seaweed-X-Amz-Object-Lock-Mode";
    public static final String RETAIN_UNTIL = "Seaweed-X-Amz-Retention-Until-Date";
    public static final String LEGAL_HOLD = "Seaweed-X-Amz-Legal-Hold";

    // Multipart uploads: a directory per upload under the bucket, naming its destination key.
    public static final String UPLOADS_DIRECTORY = ".uploads";
    public static final String UPLOAD_DESTINATION_KEY = "key";

    private S3Layout() {
    }

    public static String versionFileName(String versionId) {
        return VERSION_FILE_PREFIX + versionId;
    }

    /** The name of the directory holding the versions of an object named {@code name}. */
    public static String versionsDirectoryName(String name) {
        return name + VERSIONS_SUFFIX;
    }

    /**
     * Whether a bucket's object-lock attribute turns object lock on, as the gateway reads it ("Enabled" or "true",
     * any case).
     */
    public static boolean enabled(String value) {
        String v = value == null ? "" : value.toLowerCase(Locale.ROOT);
        return v.equals("enabled") || v.equals("true");
    }

    /**
     * Whether an entry's flag attribute is set — the delete marker, the null version being latest, the latest
     * version being a delete marker. The gateway writes "true" and reads exactly that, so this reads exactly that:
     * an entry is a marker to Tidemark when and only when it is one to the gateway.
     */
    public static boolean flag(String value) {
        return "true".equals(value);
    }

    /**
     * Whether a directory's name or path is an object's versions directory: {@code <name>.versions}, with something
     * before the suffix ({@code dir/.versions} passes as a path: the versions directory of the key {@code dir/}).
     */
    public static boolean isVersionsDirectoryName(String name) {
        return name.endsWith(VERSIONS_SUFFIX) && name.length() > VERSIONS_SUFFIX.length();
    }

    /** The object a versions directory belongs to: its name (or path) without {@code .versions}. */
    public static String objectOfVersionsDirectory(String versionsDirectory) {
        if (!versionsDirectory.endsWith(VERSIONS_SUFFIX)) {
            throw new IllegalArgumentException(versionsDirectory + " is not a versions directory");
        }
        return versionsDirectory.substring(0, versionsDirectory.length() - VERSIONS_SUFFIX.length());
    }

    /** Whether a file name in a versions directory names a version ({@code v_<id>}). */
    public static boolean isVersionFileName(String name) {
        return name.startsWith(VERSION_FILE_PREFIX);
    }

    /** The version ID a version file's name carries ({@code v_<id>}). */
    public static String versionIdOfFileName(String name) {
        if (!isVersionFileName(name)) {
            throw new IllegalArgumentException(name + " is not a version file's name");
        }
        return name.substring(VERSION_FILE_PREFIX.length());
    }

    /**
     * Whether a version ID is one the gateway makes now, whose first 16 hex digits are MaxInt64 minus the creation
     * time in nanoseconds, so that names sort newest first. Older gateways made IDs that sort oldest first, and
     * {@code "null"} has no order at all: for those, name order says nothing about age.
     */
    public static boolean sortsNewestFirst(String versionId) {
        if (versionId.length() != 32) {
            return false;
        }
        try {
            return Long.parseUnsignedLong(versionId.substring(0, 16), 16) > 0x4000000000000000L;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
