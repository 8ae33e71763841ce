package io.tidemark.emulator.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.tidemark.emulator.MutableClock;
import io.tidemark.emulator.filer.FilerStore;
import io.tidemark.emulator.filer.FilerStoreAccess;
import io.tidemark.lifecycle.engine.BucketVersioning;
import io.tidemark.seaweed.S3Layout;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class S3GatewayTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final FilerStore store = FilerStore.inMemory(clock, 7);
    private final S3Gateway s3 = new S3Gateway(store, "/buckets");
    private final EventTap tap = new EventTap(store);

    private static String ext(Entry e, String key) {
        ByteString v = e.getExtendedMap().get(key);
        return v == null ? null : v.toStringUtf8();
    }

    /** A compact description of an event: what happened to which path. */
    private static String describe(SubscribeMetadataResponse e) {
        var n = e.getEventNotification();
        String op = n.hasOldEntry() && n.hasNewEntry() ? "update" : n.hasNewEntry() ? "create" : "delete";
        String name = n.hasNewEntry() ? n.getNewEntry().getName() : n.getOldEntry().getName();
        return op + " " + e.getDirectory() + "/" + name;
    }

    @Test
    void shouldWriteAPlainObjectWithSizeTagsMetadataEtagAndAChunk() {
        s3.createBucket("photos", false);
        assertThat(s3.putObject("photos", "2026/a.jpg", 1234, Map.of("env", "prod"), Map.of("owner", "ann"))).isNull();
        Entry e = store.lookup("/buckets/photos/2026", "a.jpg").orElseThrow();
        assertThat(e.getAttributes().getFileSize()).isEqualTo(1234);
        assertThat(e.getAttributes().getMtime()).isEqualTo(clock.instant().getEpochSecond());
        assertThat(e.getAttributes().getMd5().size()).isEqualTo(16);
        assertThat(ext(e, S3Layout.TAG_PREFIX + "env")).isEqualTo("prod");
        assertThat(ext(e, S3Layout.USER_METADATA_PREFIX + "owner")).isEqualTo("ann");
        assertThat(ext(e, S3Layout.ETAG)).hasSize(32);
        assertThat(e.getChunks(0).getFid().getFileKey()).isPositive();
        assertThat(e.getExtendedMap()).doesNotContainKey(S3Layout.VERSION_ID);
    }

    @Test
    void shouldWriteTheVersionThenStampTheDemotedOneThenFlipThePointer() {
        s3.createBucket("b", false);
        s3.setVersioning("b", BucketVersioning.ENABLED);
        String v1 = s3.putObject("b", "k", 10, Map.of(), Map.of());
        clock.advance(Duration.ofSeconds(5));
        tap.mark();
        String v2 = s3.putObject("b", "k", 20, Map.of(), Map.of());
        assertThat(tap.since()).extracting(S3GatewayTest::describe).containsExactly(
                "create /buckets/b/k.versions/v_" + v2,
                "update /buckets/b/k.versions/v_" + v1,
                "update /buckets/b/k.versions");
        List<SubscribeMetadataResponse> events = tap.since();
        assertThat(ext(events.get(1).getEventNotification().getNewEntry(), S3Layout.NONCURRENT_SINCE_NS))
                .isEqualTo(String.valueOf(clock.instant().getEpochSecond() * 1_000_000_000L));
        Entry dir = events.get(2).getEventNotification().getNewEntry();
        assertThat(ext(dir, S3Layout.LATEST_VERSION_ID)).isEqualTo(v2);
        assertThat(ext(events.get(2).getEventNotification().getOldEntry(), S3Layout.LATEST_VERSION_ID)).isEqualTo(v1);
        assertThat(ext(dir, S3Layout.LATEST_VERSION_FILE_NAME)).isEqualTo("v_" + v2);
        assertThat(ext(dir, S3Layout.LATEST_VERSION_SIZE)).isEqualTo("20");
        assertThat(ext(dir, S3Layout.LATEST_VERSION_MTIME)).isEqualTo(String.valueOf(clock.instant().getEpochSecond()));
        assertThat(v2.compareTo(v1)).as("newer version ids sort first").isNegative();
        assertThat(v2).hasSize(32);
        assertThat(s3.versions("b", "k")).extracting(ObjectVersionInfo::versionId, ObjectVersionInfo::latest)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(v2, true), org.assertj.core.groups.Tuple.tuple(v1, false));
    }

    @Test
    void shouldPutADeleteMarkerOnTopInAVersionedBucket() {
        s3.createBucket("b", false);
        s3.setVersioning("b", BucketVersioning.ENABLED);
        String v1 = s3.putObject("b", "k", 10, Map.of(), Map.of());
        tap.mark();
        String marker = s3.deleteObject("b", "k");
        assertThat(tap.since()).extracting(S3GatewayTest::describe).containsExactly(
                "create /buckets/b/k.versions/v_" + marker,
                "update /buckets/b/k.versions/v_" + v1,
                "update /buckets/b/k.versions");
        Entry m = store.lookup("/buckets/b/k.versions", "v_" + marker).orElseThrow();
        assertThat(ext(m, S3Layout.DELETE_MARKER)).isEqualTo("true");
        assertThat(m.getChunksCount()).isZero();
        assertThat(s3.latest("b", "k").orElseThrow().deleteMarker()).isTrue();
        assertThat(ext(store.lookup("/buckets/b", "k.versions").orElseThrow(), S3Layout.LATEST_VERSION_IS_DELETE_MARKER))
                .isEqualTo("true");
    }

    /**
     * Issue 35 item 1: upstream stamps only the file the latest pointer names, and a current null version has none,
     * so the bare null version a new version (or a delete marker) demotes is never stamped.
     */
    @Test
    void shouldTreatAnObjectWrittenBeforeVersioningAsTheNullVersionAndNeverStampIt() {
        s3.createBucket("b", false);
        s3.putObject("b", "k", 10, Map.of(), Map.of());
        s3.setVersioning("b", BucketVersioning.ENABLED);
        clock.advance(Duration.ofSeconds(1));
        tap.mark();
        String v1 = s3.putObject("b", "k", 20, Map.of(), Map.of());
        assertThat(tap.since()).extracting(S3GatewayTest::describe).containsExactly(
                "create /buckets/b/k.versions",
                "create /buckets/b/k.versions/v_" + v1,
                "update /buckets/b/k.versions");
        assertThat(s3.versions("b", "k")).extracting(ObjectVersionInfo::versionId).containsExactly(v1, "null");
        assertThat(store.lookup("/buckets/b", "k").orElseThrow().getExtendedMap())
                .doesNotContainKey(S3Layout.NONCURRENT_SINCE_NS);

        s3.createBucket("m", false);
        s3.putObject("m", "k", 10, Map.of(), Map.of());
        s3.setVersioning("m", BucketVersioning.ENABLED);
        tap.mark();
        String marker = s3.deleteObject("m", "k");
        assertThat(tap.since()).extracting(S3GatewayTest::describe).containsExactly(
                "create /buckets/m/k.versions",
                "create /buckets/m/k.versions/v_" + marker,
                "update /buckets/m/k.versions");
    }

    /**
     * Issue 35 item 6: deleting the latest version moves the pointer first, to the file first in version-ID order
     * (newest ID), whatever the modification times say; the bare null version is never chosen.
     */
    @Test
    void shouldRepointByVersionIdOrderBeforeDeletingTheLatest() {
        s3.createBucket("b", false);
        s3.setVersioning("b", BucketVersioning.ENABLED);
        String v1 = s3.putObject("b", "k", 10, Map.of(), Map.of());
        clock.advance(Duration.ofSeconds(1));
        String v2 = s3.putObject("b", "k", 20, Map.of(), Map.of());
        clock.advance(Duration.ofSeconds(1));
        String v3 = s3.putObject("b", "k", 30, Map.of(), Map.of());
        s3.backdate("b", "k", v1, clock.instant().plusSeconds(60));   // the newest by mtime, the oldest by ID
        tap.mark();
        assertThat(s3.deleteVersion("b", "k", v3)).isTrue();
        assertThat(tap.since()).extracting(S3GatewayTest::describe).containsExactly(
                "update /buckets/b/k.versions",
                "delete /buckets/b/k.versions/v_" + v3);
        assertThat(ext(store.lookup("/buckets/b", "k.versions").orElseThrow(), S3Layout.LATEST_VERSION_ID)).isEqualTo(v2);

        s3.createBucket("n", false);
        s3.setVersioning("n", BucketVersioning.ENABLED);
        String old = s3.putObject("n", "k", 1, Map.of(), Map.of());
        s3.setVersioning("n", BucketVersioning.SUSPENDED);
        clock.advance(Duration.ofSeconds(1));
        s3.putObject("n", "k", 2, Map.of(), Map.of());
        s3.setVersioning("n", BucketVersioning.ENABLED);
        clock.advance(Duration.ofSeconds(1));
        String newest = s3.putObject("n", "k", 3, Map.of(), Map.of());
        assertThat(s3.deleteVersion("n", "k", newest)).isTrue();
        assertThat(s3.latest("n", "k").orElseThrow().versionId()).as("upstream's choice, though the null version is newer")
                .isEqualTo(old);
    }

    @Test
    void shouldReplaceTheNullVersionAndDemoteTheLatestWhenSuspended() {
        s3.createBucket("b", false);
        s3.setVersioning("b", BucketVersioning.ENABLED);
        String v1 = s3.putObject("b", "k", 10, Map.of(), Map.of());
        s3.setVersioning("b", BucketVersioning.SUSPENDED);
        clock.advance(Duration.ofSeconds(1));
        assertThat(s3.putObject("b", "k", 20, Map.of(), Map.of())).isEqualTo("null");
        Entry bare = store.lookup("/buckets/b", "k").orElseThrow();
        assertThat(ext(bare, S3Layout.VERSION_ID)).isEqualTo("null");
        Entry dir = store.lookup("/buckets/b", "k.versions").orElseThrow();
        assertThat(ext(dir, S3Layout.NULL_VERSION_IS_LATEST)).isEqualTo("true");
        assertThat(ext(dir, S3Layout.LATEST_VERSION_ID)).isNull();
        assertThat(ext(store.lookup("/buckets/b/k.versions", "v_" + v1).orElseThrow(), S3Layout.NONCURRENT_SINCE_NS))
                .isNotNull();
        assertThat(s3.latest("b", "k").orElseThrow().versionId()).isEqualTo("null");

        clock.advance(Duration.ofSeconds(1));
        assertThat(s3.deleteObject("b", "k")).isEqualTo("null");
        assertThat(store.lookup("/buckets/b", "k")).as("a suspended delete removes the null version").isEmpty();
        assertThat(ext(store.lookup("/buckets/b/k.versions", "v_null").orElseThrow(), S3Layout.DELETE_MARKER))
                .isEqualTo("true");
        assertThat(s3.latest("b", "k").orElseThrow().deleteMarker()).isTrue();
    }

    @Test
    void shouldMakeTheNextNewestVersionLatestWhenTheLatestIsDeleted() {
        s3.createBucket("b", false);
        s3.setVersioning("b", BucketVersioning.ENABLED);
        String v1 = s3.putObject("b", "k", 10, Map.of(), Map.of());
        clock.advance(Duration.ofSeconds(1));
        String v2 = s3.putObject("b", "k", 20, Map.of(), Map.of());
        assertThat(s3.deleteVersion("b", "k", v2)).isTrue();
        assertThat(ext(store.lookup("/buckets/b", "k.versions").orElseThrow(), S3Layout.LATEST_VERSION_ID)).isEqualTo(v1);
        assertThat(s3.deleteVersion("b", "k", v1)).isTrue();
        assertThat(store.lookup("/buckets/b", "k.versions")).as("the key is gone with its last version").isEmpty();
        assertThat(s3.deleteVersion("b", "k", v1)).isFalse();
    }

    @Test
    void shouldKeepMultipartUploadsUnderUploadsWithTheirDestinationKey() {
        s3.createBucket("b", false);
        String id = s3.createUpload("b", "big/file.bin");
        assertThat(id).matches("[0-9a-f]{40}_[0-9a-f]{32}");
        Entry upload = store.lookup("/buckets/b/.uploads", id).orElseThrow();
        assertThat(upload.getIsDirectory()).isTrue();
        assertThat(ext(upload, S3Layout.UPLOAD_DESTINATION_KEY)).isEqualTo("big/file.bin");
        s3.uploadPart("b", id, 1, 100);
        s3.uploadPart("b", id, 2, 50);
        s3.completeUpload("b", id);
        assertThat(store.lookup("/buckets/b/.uploads", id)).isEmpty();
        Entry object = store.lookup("/buckets/b/big", "file.bin").orElseThrow();
        assertThat(object.getAttributes().getFileSize()).isEqualTo(150);
        assertThat(ext(object, S3Layout.ETAG)).endsWith("-2");
        String aborted = s3.createUpload("b", "x");
        s3.abortUpload("b", aborted);
        assertThat(store.lookup("/buckets/b/.uploads", aborted)).isEmpty();
    }

    @Test
    void shouldStoreLifecycleXmlRawOnTheBucketAndRefuseInvalidXmlUnlessUnchecked() {
        s3.createBucket("b", false);
        String xml = "<LifecycleConfiguration><Rule><ID>r</ID><Filter/><Status>Enabled</Status>"
                + "<Expiration><Days>1</Days></Expiration></Rule></LifecycleConfiguration>";
        s3.putLifecycle("b", xml);
        assertThat(ext(store.lookup("/buckets", "b").orElseThrow(), S3Layout.LIFECYCLE_XML)).isEqualTo(xml);
        assertThatThrownBy(() -> s3.putLifecycle("b", "<LifecycleConfiguration/>"))
                .isInstanceOf(S3Exception.class).extracting(e -> ((S3Exception) e).code()).isEqualTo("MalformedXML");
        s3.putLifecycleUnchecked("b", "<oops");
        assertThat(ext(store.lookup("/buckets", "b").orElseThrow(), S3Layout.LIFECYCLE_XML)).isEqualTo("<oops");
        s3.deleteLifecycle("b");
        assertThat(ext(store.lookup("/buckets", "b").orElseThrow(), S3Layout.LIFECYCLE_XML)).isNull();
    }

    @Test
    void shouldChangeTagsLocksAndMtimeWithUpdates() {
        s3.createBucket("locked", true);
        assertThat(s3.versioning("locked")).isEqualTo(BucketVersioning.ENABLED);
        String v = s3.putObject("locked", "k", 1, Map.of("a", "1"), Map.of());
        tap.mark();
        s3.putTags("locked", "k", null, Map.of("b", "2"));
        s3.putLegalHold("locked", "k", v, true);
        s3.putRetention("locked", "k", v, "GOVERNANCE", Instant.parse("2030-01-01T00:00:00Z"));
        s3.backdate("locked", "k", v, Instant.parse("2025-01-01T00:00:00Z"));
        assertThat(tap.since()).extracting(S3GatewayTest::describe).containsOnly("update /buckets/locked/k.versions/v_" + v);
        Entry e = s3.latest("locked", "k").orElseThrow().entry();
        assertThat(e.getExtendedMap()).containsKey(S3Layout.TAG_PREFIX + "b").doesNotContainKey(S3Layout.TAG_PREFIX + "a");
        assertThat(ext(e, S3Layout.LEGAL_HOLD)).isEqualTo("ON");
        assertThat(ext(e, S3Layout.LOCK_MODE)).isEqualTo("GOVERNANCE");
        assertThat(ext(e, S3Layout.RETAIN_UNTIL)).isEqualTo("1893456000");
        assertThat(e.getAttributes().getMtime()).isEqualTo(Instant.parse("2025-01-01T00:00:00Z").getEpochSecond());
        assertThatThrownBy(() -> s3.setVersioning("locked", BucketVersioning.SUSPENDED)).isInstanceOf(S3Exception.class);
    }

    /** Collects the events written after a mark. */
    static final class EventTap {
        private final FilerStore store;
        private long after;

        EventTap(FilerStore store) {
            this.store = store;
        }

        void mark() {
            List<SubscribeMetadataResponse> all = all();
            after = all.isEmpty() ? 0 : all.get(all.size() - 1).getTsNs();
        }

        List<SubscribeMetadataResponse> since() {
            return all().stream().filter(e -> e.getTsNs() > after).toList();
        }

        private List<SubscribeMetadataResponse> all() {
            return new ArrayList<>(FilerStoreAccess.events(store));
        }
    }
}
