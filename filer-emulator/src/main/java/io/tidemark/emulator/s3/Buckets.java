package io.tidemark.emulator.s3;

import com.google.protobuf.ByteString;
import io.tidemark.emulator.filer.FilerPaths;
import io.tidemark.emulator.filer.FilerStore;
import io.tidemark.lifecycle.config.LifecycleConfigException;
import io.tidemark.lifecycle.config.LifecycleConfigs;
import io.tidemark.lifecycle.config.ValidationMode;
import io.tidemark.lifecycle.engine.BucketVersioning;
import io.tidemark.seaweed.S3Layout;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import java.time.Clock;
import java.util.function.UnaryOperator;

/**
 * The bucket entries under the buckets directory: their creation and removal, the versioning, object-lock and
 * lifecycle settings the gateway keeps in their extended attributes, and where a bucket's objects live.
 */
final class Buckets {

    private final FilerStore store;
    private final String bucketsDirectory;
    private final Clock clock;

    /** @param bucketsDirectory a normalized path */
    Buckets(FilerStore store, String bucketsDirectory, Clock clock) {
        this.store = store;
        this.bucketsDirectory = bucketsDirectory;
        this.clock = clock;
    }

    String bucketsDirectory() {
        return bucketsDirectory;
    }

    String bucketDirectory(String bucket) {
        return FilerPaths.join(bucketsDirectory, bucket);
    }

    void create(String bucket, boolean objectLock) {
        Entry.Builder entry = FilerStore.newDirectory(bucket, clock.instant()).toBuilder()
                .putExtended(S3Layout.OWNER, ByteString.copyFromUtf8("tidemark"));
        if (objectLock) {
            entry.putExtended(S3Layout.OBJECT_LOCK_ENABLED, ByteString.copyFromUtf8("Enabled"))
                    .putExtended(S3Layout.VERSIONING, ByteString.copyFromUtf8("Enabled"));
        }
        FilerCall.run(() -> store.create(bucketsDirectory, entry.build(), true));
    }

    void delete(String bucket) {
        require(bucket);
        FilerCall.run(() -> store.delete(bucketsDirectory, bucket, true, true, 0));
    }

    boolean exists(String bucket) {
        return store.lookup(bucketsDirectory, bucket).filter(Entry::getIsDirectory).isPresent();
    }

    Entry require(String bucket) {
        return store.lookup(bucketsDirectory, bucket).filter(Entry::getIsDirectory)
                .orElseThrow(() -> new S3Exception("NoSuchBucket", "bucket " + bucket + " does not exist"));
    }

    void setVersioning(String bucket, BucketVersioning versioning) {
        if (versioning == BucketVersioning.OFF) {
            throw new S3Exception("IllegalVersioningConfigurationException",
                    "versioning can only be Enabled or Suspended");
        }
        if (versioning == BucketVersioning.SUSPENDED && objectLocked(bucket)) {
            throw new S3Exception("InvalidBucketState", "versioning cannot be suspended on a bucket with object lock");
        }
        String value = versioning == BucketVersioning.ENABLED ? "Enabled" : "Suspended";
        modify(bucket, e -> e.toBuilder().putExtended(S3Layout.VERSIONING, ByteString.copyFromUtf8(value)).build());
    }

    BucketVersioning versioning(String bucket) {
        ByteString value = require(bucket).getExtendedMap().get(S3Layout.VERSIONING);
        return value == null ? BucketVersioning.OFF : BucketVersioning.parse(value.toStringUtf8());
    }

    boolean objectLocked(String bucket) {
        ByteString value = require(bucket).getExtendedMap().get(S3Layout.OBJECT_LOCK_ENABLED);
        return value != null && S3Layout.enabled(value.toStringUtf8());
    }

    void requireLockable(String bucket) {
        if (!objectLocked(bucket)) {
            throw new S3Exception("InvalidRequest", "bucket " + bucket + " has no object lock configuration");
        }
    }

    void putLifecycle(String bucket, String xml) {
        try {
            LifecycleConfigs.parseAndValidate(xml, ValidationMode.SEAWEEDFS);
        } catch (LifecycleConfigException e) {
            throw new S3Exception(e.code().name(), e.getMessage());
        }
        putLifecycleUnchecked(bucket, xml);
    }

    void putLifecycleUnchecked(String bucket, String xml) {
        modify(bucket, e -> e.toBuilder()
                .putExtended(S3Layout.LIFECYCLE_XML, ByteString.copyFromUtf8(xml))
                .putExtended(S3Layout.LIFECYCLE_MIN_TRANSITION_SIZE,
                        ByteString.copyFromUtf8("all_storage_classes_128K"))
                .build());
    }

    void deleteLifecycle(String bucket) {
        modify(bucket, e -> e.toBuilder()
                .removeExtended(S3Layout.LIFECYCLE_XML)
                .removeExtended(S3Layout.LIFECYCLE_MIN_TRANSITION_SIZE)
                .build());
    }

    S3Gateway.ObjectPath objectPath(String bucket, String key) {
        require(bucket);
        if (key.isEmpty() || key.startsWith("/") || key.endsWith("/")) {
            throw new S3Exception("InvalidArgument", "object key \"" + key + "\" is not supported by the emulator");
        }
        String full = FilerPaths.join(bucketDirectory(bucket), key);
        return new S3Gateway.ObjectPath(FilerPaths.parent(full), FilerPaths.name(full));
    }

    private void modify(String bucket, UnaryOperator<Entry> change) {
        require(bucket);
        FilerCall.run(() -> store.modify(bucketDirectory(bucket), change));
    }
}
