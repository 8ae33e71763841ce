package io.tidemark.emulator.s3;

import com.google.protobuf.ByteString;
import io.tidemark.emulator.filer.FilerPaths;
import io.tidemark.emulator.filer.FilerStore;
import io.tidemark.seaweed.EpochNanos;
import io.tidemark.seaweed.S3Entries;
import io.tidemark.seaweed.S3Layout;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import java.time.Clock;
import java.util.Optional;

/**
 * An object's {@code .versions} directory and the latest-version pointer upstream keeps on it: the pointer names
 * the current version file and caches its size, ETag, mtime and marker flag, so the current version is known
 * without a listing. When the bare null version is current there is no pointer.
 */
final class VersionsDirectory {

    private final FilerStore store;
    private final Clock clock;

    VersionsDirectory(FilerStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    Optional<Entry> find(S3Gateway.ObjectPath p) {
        return store.lookup(p.directory(), S3Layout.versionsDirectoryName(p.name())).filter(Entry::getIsDirectory);
    }

    /**
     * Upstream's demotion stamp: on the {@code .versions} file the pointer names (best effort), unless that is the
     * file just written. With no pointer — the null version current — nothing is stamped.
     */
    void stampPointedVersion(S3Gateway.ObjectPath p, Entry versionsDirectory, String newFileName) {
        String previous = S3Entries.text(versionsDirectory, S3Layout.LATEST_VERSION_FILE_NAME).orElse("");
        if (previous.isEmpty() || previous.equals(newFileName)
                || store.lookup(p.versionsDirectory(), previous).isEmpty()) {
            return;
        }
        String since = String.valueOf(EpochNanos.of(clock.instant()));
        FilerCall.run(() -> store.modify(FilerPaths.join(p.versionsDirectory(), previous), e -> e.toBuilder()
                .putExtended(S3Layout.NONCURRENT_SINCE_NS, ByteString.copyFromUtf8(since)).build()));
    }

    void pointTo(S3Gateway.ObjectPath p, String versionId, Entry version, boolean marker) {
        String size = String.valueOf(version.getAttributes().getFileSize());
        String mtime = String.valueOf(version.getAttributes().getMtime());
        FilerCall.run(() -> store.modify(p.versionsDirectory(), d -> d.toBuilder()
                .putExtended(S3Layout.LATEST_VERSION_ID, ByteString.copyFromUtf8(versionId))
                .putExtended(S3Layout.LATEST_VERSION_FILE_NAME,
                        ByteString.copyFromUtf8(S3Layout.versionFileName(versionId)))
                .putExtended(S3Layout.LATEST_VERSION_SIZE, ByteString.copyFromUtf8(size))
                .putExtended(S3Layout.LATEST_VERSION_ETAG, version.getExtendedMap().getOrDefault(S3Layout.ETAG,
                        ByteString.EMPTY))
                .putExtended(S3Layout.LATEST_VERSION_MTIME, ByteString.copyFromUtf8(mtime))
                .putExtended(S3Layout.LATEST_VERSION_IS_DELETE_MARKER, ByteString.copyFromUtf8(String.valueOf(marker)))
                .removeExtended(S3Layout.NULL_VERSION_IS_LATEST)
                .build()));
    }

    void pointToNullVersion(S3Gateway.ObjectPath p) {
        FilerCall.run(() -> store.modify(p.versionsDirectory(), d -> withoutPointer(d).toBuilder()
                .putExtended(S3Layout.NULL_VERSION_IS_LATEST, ByteString.copyFromUtf8("true"))
                .build()));
    }

    void clearPointer(S3Gateway.ObjectPath p) {
        FilerCall.run(() -> store.modify(p.versionsDirectory(), VersionsDirectory::withoutPointer));
    }

    private static Entry withoutPointer(Entry directory) {
        return directory.toBuilder()
                .removeExtended(S3Layout.LATEST_VERSION_ID)
                .removeExtended(S3Layout.LATEST_VERSION_FILE_NAME)
                .removeExtended(S3Layout.LATEST_VERSION_SIZE)
                .removeExtended(S3Layout.LATEST_VERSION_ETAG)
                .removeExtended(S3Layout.LATEST_VERSION_MTIME)
                .removeExtended(S3Layout.LATEST_VERSION_IS_DELETE_MARKER)
                .build();
    }
}
