package io.tidemark.emulator.s3;

import com.google.protobuf.ByteString;
import io.tidemark.emulator.filer.FilerStore;
import io.tidemark.seaweed.S3Layout;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

/**
 * Changes to one existing version in place — its tags, legal hold and retention, and the test knobs that age it
 * or alter it behind the pipeline's back — each a single update of the version's own entry.
 */
final class VersionUpdates {

    private final FilerStore store;
    private final Buckets buckets;
    private final ObjectVersions versions;
    private final AtomicLong driftCounter = new AtomicLong();

    VersionUpdates(FilerStore store, Buckets buckets, ObjectVersions versions) {
        this.store = store;
        this.buckets = buckets;
        this.versions = versions;
    }

    void putTags(String bucket, String key, String versionId, Map<String, String> tags) {
        modify(bucket, key, versionId, e -> {
            Entry.Builder b = e.toBuilder();
            e.getExtendedMap().keySet().stream().filter(k -> k.startsWith(S3Layout.TAG_PREFIX))
                    .forEach(b::removeExtended);
            tags.forEach((k, v) -> b.putExtended(S3Layout.TAG_PREFIX + k, ByteString.copyFromUtf8(v)));
            return b.build();
        });
    }

    void putLegalHold(String bucket, String key, String versionId, boolean on) {
        buckets.requireLockable(bucket);
        modify(bucket, key, versionId, e -> e.toBuilder()
                .putExtended(S3Layout.LEGAL_HOLD, ByteString.copyFromUtf8(on ? "ON" : "OFF")).build());
    }

    void putRetention(String bucket, String key, String versionId, String mode, Instant until) {
        buckets.requireLockable(bucket);
        if (!mode.equals("GOVERNANCE") && !mode.equals("COMPLIANCE")) {
            throw new S3Exception("MalformedXML", "retention mode must be GOVERNANCE or COMPLIANCE");
        }
        modify(bucket, key, versionId, e -> e.toBuilder()
                .putExtended(S3Layout.LOCK_MODE, ByteString.copyFromUtf8(mode))
                .putExtended(S3Layout.RETAIN_UNTIL, ByteString.copyFromUtf8(String.valueOf(until.getEpochSecond())))
                .build());
    }

    void backdate(String bucket, String key, String versionId, Instant mtime) {
        modify(bucket, key, versionId, e -> e.toBuilder().setAttributes(e.getAttributes().toBuilder()
                .setMtime(mtime.getEpochSecond()).setMtimeNs(mtime.getNano())).build());
    }

    void drift(String bucket, String key, String versionId) {
        // A new value each time, so every drift changes the entry, however many came before.
        String value = String.valueOf(driftCounter.incrementAndGet());
        modify(bucket, key, versionId, e -> e.toBuilder()
                .putExtended(S3Layout.USER_METADATA_PREFIX + "Tidemark-Drift", ByteString.copyFromUtf8(value)).build());
    }

    private void modify(String bucket, String key, String versionId, UnaryOperator<Entry> change) {
        synchronized (store) {
            ObjectVersionInfo target = versions.find(bucket, key, versionId).orElseThrow(() -> new S3Exception(
                    versionId == null ? "NoSuchKey" : "NoSuchVersion", bucket + "/" + key
                    + (versionId == null ? "" : " version " + versionId) + " does not exist"));
            FilerCall.run(() -> store.modify(target.path(), change));
        }
    }
}
