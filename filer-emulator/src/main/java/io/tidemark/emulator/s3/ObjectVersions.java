package io.tidemark.emulator.s3;

import io.tidemark.emulator.filer.FilerPaths;
import io.tidemark.emulator.filer.FilerStore;
import io.tidemark.seaweed.S3Entries;
import io.tidemark.seaweed.S3Layout;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** A key's versions as the gateway lists them: the files in its {@code .versions} directory and the bare object. */
final class ObjectVersions {

    private final FilerStore store;
    private final Buckets buckets;
    private final VersionsDirectory versionsDirectory;

    ObjectVersions(FilerStore store, Buckets buckets, VersionsDirectory versionsDirectory) {
        this.store = store;
        this.buckets = buckets;
        this.versionsDirectory = versionsDirectory;
    }

    List<ObjectVersionInfo> all(String bucket, String key) {
        S3Gateway.ObjectPath p = buckets.objectPath(bucket, key);
        synchronized (store) {
            Optional<Entry> dir = versionsDirectory.find(p);
            String latestId = dir.flatMap(d -> S3Entries.text(d, S3Layout.LATEST_VERSION_ID)).orElse(null);
            boolean nullIsLatest = dir.flatMap(d -> S3Entries.text(d, S3Layout.NULL_VERSION_IS_LATEST))
                    .map(S3Layout::flag)
                    .orElse(dir.isEmpty() || latestId == null);
            List<ObjectVersionInfo> all = new ArrayList<>();
            if (dir.isPresent()) {
                for (Entry e : store.list(p.versionsDirectory(), S3Layout.VERSION_FILE_PREFIX, "", false, 0)) {
                    String id = VersionIds.of(e);
                    all.add(new ObjectVersionInfo(id, !nullIsLatest && id.equals(latestId), S3Entries.isDeleteMarker(e),
                            FilerPaths.join(p.versionsDirectory(), e.getName()), e));
                }
            }
            store.lookup(p.directory(), p.name()).filter(e -> !e.getIsDirectory()).ifPresent(e ->
                    all.add(new ObjectVersionInfo(S3Layout.NULL_VERSION_ID, nullIsLatest, S3Entries.isDeleteMarker(e),
                            p.bare(), e)));
            all.sort(Comparator.comparingLong((ObjectVersionInfo v) -> -mtimeNanos(v.entry()))
                    .thenComparing(v -> v.entry().getName()));
            if (all.stream().noneMatch(ObjectVersionInfo::latest) && !all.isEmpty()) {
                ObjectVersionInfo newest = all.get(0);
                all.set(0, new ObjectVersionInfo(newest.versionId(), true, newest.deleteMarker(), newest.path(),
                        newest.entry()));
            }
            return all;
        }
    }

    Optional<ObjectVersionInfo> latest(String bucket, String key) {
        return all(bucket, key).stream().filter(ObjectVersionInfo::latest).findFirst();
    }

    Optional<ObjectVersionInfo> find(String bucket, String key, String versionId) {
        if (versionId == null) {
            return latest(bucket, key);
        }
        String bare = buckets.objectPath(bucket, key).bare();
        return all(bucket, key).stream().filter(v -> v.versionId().equals(versionId))
                .filter(v -> !versionId.equals(S3Layout.NULL_VERSION_ID) || v.path().equals(bare)).findFirst();
    }

    private static long mtimeNanos(Entry e) {
        return e.getAttributes().getMtime() * 1_000_000_000L + e.getAttributes().getMtimeNs();
    }
}
