package io.tidemark.emulator.s3;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.tidemark.emulator.EmulatorSettings;
import io.tidemark.emulator.FilerEmulator;
import io.tidemark.emulator.MutableClock;
import io.tidemark.lifecycle.engine.BucketVersioning;
import io.tidemark.seaweed.EntryIdentity;
import io.tidemark.seaweed.S3Layout;
import io.tidemark.seaweed.client.GrpcTls;
import io.tidemark.seaweed.client.LifecycleDeleteClient;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import io.tidemark.seaweed.pb.S3LifecycleProto;
import io.tidemark.seaweed.pb.S3LifecycleProto.ActionKind;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteOutcome;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteRequest;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LifecycleDeleteTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T10:00:00Z"));
    private FilerEmulator emulator;
    private S3Gateway s3;
    private LifecycleDeleteClient client;

    @BeforeEach
    void start() {
        emulator = new FilerEmulator(EmulatorSettings.ephemeral(), clock).start();
        s3 = emulator.s3();
        client = LifecycleDeleteClient.connect(emulator.s3GrpcAddress(), GrpcTls.PLAINTEXT, Duration.ofSeconds(5));
    }

    @AfterEach
    void stop() {
        client.close();
        emulator.close();
    }

    private static LifecycleDeleteRequest.Builder request(String bucket, String key, ActionKind kind) {
        return LifecycleDeleteRequest.newBuilder().setBucket(bucket).setObjectPath(key).setActionKind(kind)
                .setRuleHash(ByteString.copyFrom(new byte[8]));
    }

    /** The identity the pipeline captures when it decides: from the entry as it is now. */
    private S3LifecycleProto.EntryIdentity identityOf(String bucket, String key, String versionId) {
        Entry entry = s3.version(bucket, key, versionId).orElseThrow().entry();
        EntryIdentity id = LifecycleDeleteHandler.identity(entry);
        return S3LifecycleProto.EntryIdentity.newBuilder().setMtimeNs(id.mtimeNs()).setSize(id.size())
                .setHeadFid(id.headFid()).setExtendedHash(ByteString.copyFrom(id.extendedHash())).build();
    }

    private LifecycleDeleteResponse send(LifecycleDeleteRequest.Builder request) {
        return client.delete(request.build());
    }

    /** The outcome, and a reason that starts as given; a reason is always named, never the empty prefix. */
    private static void assertOutcome(LifecycleDeleteResponse r, LifecycleDeleteOutcome outcome, String reason) {
        if (reason.isEmpty()) {
            throw new IllegalArgumentException("name the reason expected; use assertDone for DONE");
        }
        assertThat(r.getOutcome()).isEqualTo(outcome);
        assertThat(r.getReason()).startsWith(reason);
    }

    private static void assertDone(LifecycleDeleteResponse r) {
        assertThat(r.getOutcome()).as(r.getReason()).isEqualTo(LifecycleDeleteOutcome.DONE);
    }

    @Nested
    class CurrentVersions {

        @Test
        void shouldDeleteAnUnversionedObjectWhoseIdentityStillMatches() {
            s3.createBucket("b", false);
            s3.putObject("b", "logs/a", 10, Map.of("t", "1"), Map.of());
            var id = identityOf("b", "logs/a", null);
            assertDone(send(request("b", "logs/a", ActionKind.EXPIRATION_DAYS).setExpectedIdentity(id)));
            assertThat(s3.versions("b", "logs/a")).isEmpty();
            assertOutcome(send(request("b", "logs/a", ActionKind.EXPIRATION_DAYS).setExpectedIdentity(id)),
                    LifecycleDeleteOutcome.NOOP_RESOLVED, "NOT_FOUND");
        }

        @Test
        void shouldRefuseWhenTheEntryChangedAfterTheDecision() {
            s3.createBucket("b", false);
            s3.putObject("b", "k", 10, Map.of(), Map.of());
            var id = identityOf("b", "k", null);
            s3.drift("b", "k", null);
            assertOutcome(send(request("b", "k", ActionKind.EXPIRATION_DAYS).setExpectedIdentity(id)),
                    LifecycleDeleteOutcome.NOOP_RESOLVED, "STALE_IDENTITY");
            s3.backdate("b", "k", null, Instant.parse("2020-01-01T00:00:00Z"));
            var wrongSize = identityOf("b", "k", null).toBuilder().setSize(11);
            assertOutcome(send(request("b", "k", ActionKind.EXPIRATION_DAYS).setExpectedIdentity(wrongSize)),
                    LifecycleDeleteOutcome.NOOP_RESOLVED, "STALE_IDENTITY");
            var fresh = identityOf("b", "k", null);
            clock.advance(Duration.ofSeconds(1));
            s3.putObject("b", "k", 10, Map.of(), Map.of());
            assertOutcome(send(request("b", "k", ActionKind.EXPIRATION_DAYS).setExpectedIdentity(fresh)),
                    LifecycleDeleteOutcome.NOOP_RESOLVED, "STALE_IDENTITY");
            assertThat(s3.latest("b", "k")).isPresent();
        }

        @Test
        void shouldSkipTheIdentityCheckOnlyWhenNoIdentityIsSent() {
            s3.createBucket("b", false);
            s3.putObject("b", "k", 10, Map.of(), Map.of());
            assertDone(send(request("b", "k", ActionKind.EXPIRATION_DATE)));
        }

        @Test
        void shouldAddADeleteMarkerInAVersionedBucket() {
            s3.createBucket("b", false);
            s3.setVersioning("b", BucketVersioning.ENABLED);
            String v1 = s3.putObject("b", "k", 10, Map.of(), Map.of());
            assertDone(send(request("b", "k", ActionKind.EXPIRATION_DAYS).setExpectedIdentity(identityOf("b", "k", null))));
            assertThat(s3.latest("b", "k").orElseThrow().deleteMarker()).isTrue();
            assertThat(s3.version("b", "k", v1)).isPresent();
        }

        /**
         * Issue 35 item 5: upstream's lifecycle path deletes the null version, then puts a marker with a new version
         * ID (not the "null" marker an S3 DELETE leaves), which a later suspended write does not remove.
         */
        @Test
        void shouldDeleteTheNullVersionAndPutAMarkerWithANewVersionIdWhenSuspended() {
            s3.createBucket("b", false);
            s3.setVersioning("b", BucketVersioning.ENABLED);
            String v1 = s3.putObject("b", "k", 10, Map.of(), Map.of());
            s3.setVersioning("b", BucketVersioning.SUSPENDED);
            clock.advance(Duration.ofSeconds(1));
            s3.putObject("b", "k", 20, Map.of(), Map.of());
            assertDone(send(request("b", "k", ActionKind.EXPIRATION_DAYS).setExpectedIdentity(identityOf("b", "k", null))));
            assertThat(emulator.store().lookup("/buckets/b", "k")).as("the null version went").isEmpty();
            ObjectVersionInfo marker = s3.latest("b", "k").orElseThrow();
            assertThat(marker.deleteMarker()).isTrue();
            assertThat(marker.versionId()).isNotEqualTo("null").hasSize(32);
            assertThat(s3.versions("b", "k")).extracting(ObjectVersionInfo::versionId)
                    .containsExactlyInAnyOrder(marker.versionId(), v1);

            clock.advance(Duration.ofSeconds(1));
            s3.putObject("b", "k", 30, Map.of(), Map.of());
            assertThat(s3.versions("b", "k")).as("a suspended write removes only a \"null\" marker")
                    .extracting(ObjectVersionInfo::versionId).containsExactlyInAnyOrder("null", marker.versionId(), v1);
            assertThat(s3.version("b", "k", marker.versionId()).orElseThrow().entry().getExtendedMap())
                    .as("demoted by the write, so NoncurrentDays can remove it").containsKey(S3Layout.NONCURRENT_SINCE_NS);
            assertDone(send(request("b", "k", ActionKind.NONCURRENT_DAYS).setVersionId(marker.versionId())
                    .setExpectedIdentity(identityOf("b", "k", marker.versionId()))));
        }

        @Test
        void shouldAnswerForAMissingBucketOrObject() {
            assertOutcome(send(request("nope", "k", ActionKind.EXPIRATION_DAYS)), LifecycleDeleteOutcome.NOOP_RESOLVED,
                    "BUCKET_NOT_FOUND");
            s3.createBucket("b", false);
            assertOutcome(send(request("b", "k", ActionKind.EXPIRATION_DAYS)), LifecycleDeleteOutcome.NOOP_RESOLVED,
                    "NOT_FOUND");
        }
    }

    @Nested
    class ObjectLock {

        @Test
        void shouldNeverDeleteAVersionUnderLegalHold() {
            s3.createBucket("l", true);
            String v = s3.putObject("l", "k", 1, Map.of(), Map.of());
            clock.advance(Duration.ofSeconds(1));
            s3.putObject("l", "k", 1, Map.of(), Map.of());
            s3.putLegalHold("l", "k", v, true);
            assertOutcome(send(request("l", "k", ActionKind.NONCURRENT_DAYS).setVersionId(v)
                    .setExpectedIdentity(identityOf("l", "k", v))), LifecycleDeleteOutcome.SKIPPED_OBJECT_LOCK, "object is under");
            assertThat(s3.version("l", "k", v)).as("the held version survived").isPresent();
            s3.putLegalHold("l", "k", v, false);
            assertDone(send(request("l", "k", ActionKind.NONCURRENT_DAYS).setVersionId(v)
                    .setExpectedIdentity(identityOf("l", "k", v))));
        }

        @ParameterizedTest
        @ValueSource(strings = {"GOVERNANCE", "COMPLIANCE"})
        void shouldHonourRetentionInEitherModeEvenForDeleteMarkerCreation(String mode) {
            s3.createBucket("l", true);
            s3.putObject("l", "k", 1, Map.of(), Map.of());
            s3.putRetention("l", "k", null, mode, clock.instant().plus(Duration.ofDays(1)));
            assertOutcome(send(request("l", "k", ActionKind.EXPIRATION_DAYS).setExpectedIdentity(identityOf("l", "k", null))),
                    LifecycleDeleteOutcome.SKIPPED_OBJECT_LOCK, "object is retained until");
            assertThat(s3.versions("l", "k")).as("no delete marker was put on the retained version").hasSize(1)
                    .allSatisfy(version -> assertThat(version.deleteMarker()).isFalse());
            clock.advance(Duration.ofDays(2));
            assertDone(send(request("l", "k", ActionKind.EXPIRATION_DAYS).setExpectedIdentity(identityOf("l", "k", null))));
        }
    }

    @Nested
    class NoncurrentVersions {

        @Test
        void shouldDeleteANoncurrentVersionButNeverTheLatest() {
            s3.createBucket("b", false);
            s3.setVersioning("b", BucketVersioning.ENABLED);
            String v1 = s3.putObject("b", "k", 10, Map.of(), Map.of());
            clock.advance(Duration.ofSeconds(1));
            String v2 = s3.putObject("b", "k", 20, Map.of(), Map.of());
            assertOutcome(send(request("b", "k", ActionKind.NONCURRENT_DAYS).setVersionId(v2)
                    .setExpectedIdentity(identityOf("b", "k", v2))), LifecycleDeleteOutcome.NOOP_RESOLVED, "VERSION_IS_LATEST");
            assertDone(send(request("b", "k", ActionKind.NEWER_NONCURRENT).setVersionId(v1)
                    .setExpectedIdentity(identityOf("b", "k", v1))));
            assertThat(s3.versions("b", "k")).extracting(ObjectVersionInfo::versionId).containsExactly(v2);
            assertOutcome(send(request("b", "k", ActionKind.NONCURRENT_DAYS).setVersionId(v1)),
                    LifecycleDeleteOutcome.NOOP_RESOLVED, "NOT_FOUND");
        }

        @Test
        void shouldBlockAVersionActionWithoutAVersionId() {
            s3.createBucket("b", false);
            s3.setVersioning("b", BucketVersioning.ENABLED);
            s3.putObject("b", "k", 10, Map.of(), Map.of());
            assertOutcome(send(request("b", "k", ActionKind.NONCURRENT_DAYS)), LifecycleDeleteOutcome.BLOCKED,
                    "FATAL_EVENT_ERROR");
        }
    }

    @Nested
    class ExpiredDeleteMarkers {

        private String soleMarker() {
            s3.createBucket("b", false);
            s3.setVersioning("b", BucketVersioning.ENABLED);
            String v1 = s3.putObject("b", "k", 10, Map.of(), Map.of());
            clock.advance(Duration.ofSeconds(1));
            String marker = s3.deleteObject("b", "k");
            s3.deleteVersion("b", "k", v1);
            return marker;
        }

        @Test
        void shouldRemoveAMarkerThatIsTheSoleSurvivor() {
            String marker = soleMarker();
            assertDone(send(request("b", "k", ActionKind.EXPIRED_DELETE_MARKER).setVersionId(marker)
                    .setExpectedIdentity(identityOf("b", "k", marker))));
            assertThat(s3.versions("b", "k")).isEmpty();
            assertThat(emulator.store().lookup("/buckets/b", "k.versions")).isEmpty();
        }

        @Test
        void shouldLeaveAMarkerThatIsNoLongerAlone() {
            String marker = soleMarker();
            var id = identityOf("b", "k", marker);
            clock.advance(Duration.ofSeconds(1));
            String v3 = s3.putObject("b", "k", 5, Map.of(), Map.of());
            assertOutcome(send(request("b", "k", ActionKind.EXPIRED_DELETE_MARKER).setVersionId(marker)),
                    LifecycleDeleteOutcome.NOOP_RESOLVED, "NOT_SOLE_SURVIVOR");
            s3.deleteVersion("b", "k", marker);
            assertOutcome(send(request("b", "k", ActionKind.EXPIRED_DELETE_MARKER).setVersionId(v3)),
                    LifecycleDeleteOutcome.NOOP_RESOLVED, "MARKER_REPLACED");
            assertOutcome(send(request("b", "k", ActionKind.EXPIRED_DELETE_MARKER).setVersionId(marker)
                    .setExpectedIdentity(id)), LifecycleDeleteOutcome.NOOP_RESOLVED, "NOT_FOUND");
        }

        /** The identity of a file in the key's .versions directory, read from the store. */
        private S3LifecycleProto.EntryIdentity fileIdentity(String fileName) {
            EntryIdentity id = LifecycleDeleteHandler.identity(emulator.store().lookup("/buckets/b/k.versions", fileName)
                    .orElseThrow());
            return S3LifecycleProto.EntryIdentity.newBuilder().setMtimeNs(id.mtimeNs()).setSize(id.size())
                    .setHeadFid(id.headFid()).setExtendedHash(ByteString.copyFrom(id.extendedHash())).build();
        }

        /**
         * Issue 35 item 4: a null delete marker (what an S3 DELETE leaves in a Suspended bucket, at .versions/v_null)
         * is never found by upstream, which looks version "null" up at the bare path only: every request for it,
         * current or noncurrent, answers NOT_FOUND, for ever.
         */
        @Test
        void shouldNeverFindANullMarkerForUpstreamLooksForVersionNullAtTheBarePathOnly() {
            s3.createBucket("b", false);
            s3.setVersioning("b", BucketVersioning.SUSPENDED);
            s3.putObject("b", "k", 10, Map.of(), Map.of());
            clock.advance(Duration.ofSeconds(1));
            assertThat(s3.deleteObject("b", "k")).isEqualTo("null");
            assertThat(emulator.store().lookup("/buckets/b/k.versions", "v_null")).isPresent();
            var marker = fileIdentity("v_null");
            assertOutcome(send(request("b", "k", ActionKind.EXPIRED_DELETE_MARKER).setVersionId("null")
                    .setExpectedIdentity(marker)), LifecycleDeleteOutcome.NOOP_RESOLVED, "NOT_FOUND");
            assertThat(s3.version("b", "k", "null")).as("\"null\" is the bare path only").isEmpty();
            assertThat(s3.deleteVersion("b", "k", "null")).isFalse();

            s3.setVersioning("b", BucketVersioning.ENABLED);
            clock.advance(Duration.ofSeconds(1));
            String v2 = s3.putObject("b", "k", 20, Map.of(), Map.of());
            assertOutcome(send(request("b", "k", ActionKind.NONCURRENT_DAYS).setVersionId("null")
                    .setExpectedIdentity(fileIdentity("v_null"))), LifecycleDeleteOutcome.NOOP_RESOLVED, "NOT_FOUND");
            assertThat(s3.versions("b", "k")).extracting(ObjectVersionInfo::versionId).containsExactly(v2, "null");
        }

        @Test
        void shouldLeaveAMarkerWhileANullVersionExists() {
            String marker = soleMarker();
            // An object written directly at the bare path: a null version beside the marker.
            s3.setVersioning("b", BucketVersioning.SUSPENDED);
            s3.putObject("b", "k", 1, Map.of(), Map.of());
            s3.setVersioning("b", BucketVersioning.ENABLED);
            assertOutcome(send(request("b", "k", ActionKind.EXPIRED_DELETE_MARKER).setVersionId(marker)),
                    LifecycleDeleteOutcome.NOOP_RESOLVED, "NULL_VERSION_PRESENT");
            assertThat(s3.version("b", "k", marker)).isPresent();
        }

        @Test
        void shouldAskToRetryWhileTheLatestPointerIsBeingWritten() throws Exception {
            String marker = soleMarker();
            emulator.store().modify("/buckets/b/k.versions", e -> e.toBuilder()
                    .removeExtended(S3Layout.LATEST_VERSION_ID).build());
            assertOutcome(send(request("b", "k", ActionKind.EXPIRED_DELETE_MARKER).setVersionId(marker)),
                    LifecycleDeleteOutcome.RETRY_LATER, "PENDING_LATEST_POINTER");
            emulator.store().modify("/buckets/b/k.versions", e -> e.toBuilder()
                    .putExtended(S3Layout.LATEST_VERSION_ID, ByteString.copyFromUtf8("f00")).build());
            assertOutcome(send(request("b", "k", ActionKind.EXPIRED_DELETE_MARKER).setVersionId(marker)),
                    LifecycleDeleteOutcome.RETRY_LATER, "PENDING_SURVIVOR_ENTRY");
        }
    }

    @Nested
    class MultipartUploads {

        @Test
        void shouldAbortAnUploadAndAnswerNotFoundOnceItIsGone() {
            s3.createBucket("b", false);
            String id = s3.createUpload("b", "big");
            s3.uploadPart("b", id, 1, 10);
            assertDone(send(request("b", ".uploads/" + id, ActionKind.ABORT_MPU)));
            assertThat(emulator.store().lookup("/buckets/b/.uploads", id)).isEmpty();
            assertOutcome(send(request("b", ".uploads/" + id, ActionKind.ABORT_MPU)), LifecycleDeleteOutcome.NOOP_RESOLVED,
                    "NOT_FOUND");
        }

        @ParameterizedTest
        @ValueSource(strings = {"x", ".uploads", ".uploads/", ".uploads/.", ".uploads/..", ".uploads/u1/x"})
        void shouldBlockAbortsOfPathsThatAreNotAnUpload(String path) {
            s3.createBucket("b", false);
            assertOutcome(send(request("b", path, ActionKind.ABORT_MPU)), LifecycleDeleteOutcome.BLOCKED,
                    "FATAL_EVENT_ERROR");
        }
    }

    /** Where upstream is laxer or stranger than S3: what the pipeline must be right against (docs/filer-emulator.md). */
    @Nested
    class UpstreamQuirks {

        /** Issue 35 item 2: upstream wraps any failure to read the entry as "object not found". */
        @Test
        void shouldAnswerNotFoundWhenTheGatewayFailsToReadAnObjectThatIsThere() {
            s3.createBucket("b", false);
            s3.putObject("b", "k", 10, Map.of(), Map.of());
            var identity = identityOf("b", "k", null);
            emulator.faults().failObjectReads("b", "k", 1);
            assertOutcome(send(request("b", "k", ActionKind.EXPIRATION_DAYS).setExpectedIdentity(identity)),
                    LifecycleDeleteOutcome.NOOP_RESOLVED, "NOT_FOUND");
            assertThat(s3.latest("b", "k")).as("still there").isPresent();
            assertDone(send(request("b", "k", ActionKind.EXPIRATION_DAYS).setExpectedIdentity(identity)));
        }

        /**
         * Issue 35 item 7: upstream's gateway fails open on a retention without a mode, with an unknown mode or with
         * a date it cannot read, and takes only an exact "ON" as a legal hold.
         */
        @ParameterizedTest
        @ValueSource(strings = {"no-mode", "unknown-mode", "unreadable-date", "hold-lowercase"})
        void shouldDeleteWhereUpstreamsLockCheckFailsOpen(String lock) throws Exception {
            s3.createBucket("l", true);
            s3.putObject("l", "k", 1, Map.of(), Map.of());
            long future = clock.instant().plus(Duration.ofDays(30)).getEpochSecond();
            emulator.store().modify("/buckets/l/k.versions/" + s3.latest("l", "k").orElseThrow().entry().getName(),
                    e -> {
                        Entry.Builder b = e.toBuilder();
                        switch (lock) {
                            case "no-mode" -> b.putExtended(S3Layout.RETAIN_UNTIL, ByteString.copyFromUtf8("" + future));
                            case "unknown-mode" -> b.putExtended(S3Layout.LOCK_MODE, ByteString.copyFromUtf8("governance"))
                                    .putExtended(S3Layout.RETAIN_UNTIL, ByteString.copyFromUtf8("" + future));
                            case "unreadable-date" -> b.putExtended(S3Layout.LOCK_MODE, ByteString.copyFromUtf8("COMPLIANCE"))
                                    .putExtended(S3Layout.RETAIN_UNTIL, ByteString.copyFromUtf8("2099-01-01T00:00:00Z"));
                            default -> b.putExtended(S3Layout.LEGAL_HOLD, ByteString.copyFromUtf8("on"));
                        }
                        return b.build();
                    });
            assertDone(send(request("l", "k", ActionKind.EXPIRATION_DAYS).setExpectedIdentity(identityOf("l", "k", null))));
            assertThat(s3.latest("l", "k").orElseThrow().deleteMarker()).isTrue();
        }

        /**
         * Issue 35 item 7: the "is it still the latest" guard reads the pointer alone. A null version made current
         * by a suspended write has none, so a noncurrent delete of it is done: only the pipeline's own check
         * (and the identity) stands between it and a current object.
         */
        @Test
        void shouldGuardTheLatestByThePointerAloneAndSoDeleteACurrentNullVersion() {
            s3.createBucket("b", false);
            s3.setVersioning("b", BucketVersioning.ENABLED);
            String v1 = s3.putObject("b", "k", 10, Map.of(), Map.of());
            s3.setVersioning("b", BucketVersioning.SUSPENDED);
            clock.advance(Duration.ofSeconds(1));
            s3.putObject("b", "k", 20, Map.of(), Map.of());
            assertThat(s3.latest("b", "k").orElseThrow().versionId()).isEqualTo("null");
            assertDone(send(request("b", "k", ActionKind.NONCURRENT_DAYS).setVersionId("null")
                    .setExpectedIdentity(identityOf("b", "k", "null"))));
            assertThat(emulator.store().lookup("/buckets/b", "k")).as("the current null version went").isEmpty();
            assertThat(s3.version("b", "k", v1)).isPresent();

            s3.createBucket("fresh", false);
            s3.putObject("fresh", "k", 10, Map.of(), Map.of());
            s3.setVersioning("fresh", BucketVersioning.ENABLED);
            assertOutcome(send(request("fresh", "k", ActionKind.NONCURRENT_DAYS).setVersionId("null")
                    .setExpectedIdentity(identityOf("fresh", "k", "null"))), LifecycleDeleteOutcome.NOOP_RESOLVED,
                    "NOT_FOUND");
        }
    }

    @Test
    void shouldBlockRequestsThatCanNeverSucceed() {
        assertOutcome(send(request("", "k", ActionKind.EXPIRATION_DAYS)), LifecycleDeleteOutcome.BLOCKED, "FATAL_EVENT_ERROR");
        assertOutcome(send(request("b", "", ActionKind.EXPIRATION_DAYS)), LifecycleDeleteOutcome.BLOCKED, "FATAL_EVENT_ERROR");
        s3.createBucket("b", false);
        s3.putObject("b", "k", 1, Map.of(), Map.of());
        assertOutcome(send(request("b", "k", ActionKind.EXPIRATION_DAYS).setActionKindValue(999)),
                LifecycleDeleteOutcome.BLOCKED, "FATAL_EVENT_ERROR");
        assertThat(s3.latest("b", "k")).isPresent();
    }

    /**
     * A request that can never succeed is refused as BLOCKED before anything is looked up, so a missing object
     * cannot turn it into a NOOP counted as resolved, and a key the gateway rejects is not retried for ever.
     */
    @Test
    void shouldRefuseMalformedRequestsBeforeLookingAnythingUp() {
        s3.createBucket("b", false);
        s3.setVersioning("b", BucketVersioning.ENABLED);
        assertOutcome(send(request("b", "missing", ActionKind.NONCURRENT_DAYS)), LifecycleDeleteOutcome.BLOCKED,
                "FATAL_EVENT_ERROR");
        assertOutcome(send(request("b", "missing", ActionKind.EXPIRED_DELETE_MARKER)), LifecycleDeleteOutcome.BLOCKED,
                "FATAL_EVENT_ERROR");
        assertOutcome(send(request("b", "missing", ActionKind.EXPIRATION_DAYS).setActionKindValue(999)),
                LifecycleDeleteOutcome.BLOCKED, "FATAL_EVENT_ERROR");
        assertOutcome(send(request("b", "missing", ActionKind.ACTION_KIND_UNSPECIFIED)), LifecycleDeleteOutcome.BLOCKED,
                "FATAL_EVENT_ERROR");
        assertOutcome(send(request("b", "dir/", ActionKind.EXPIRATION_DAYS)), LifecycleDeleteOutcome.BLOCKED,
                "FATAL_EVENT_ERROR: InvalidArgument");
    }

    @Test
    void shouldAnswerWithAForcedOutcomeForAChosenPath() {
        s3.createBucket("b", false);
        s3.putObject("b", "k", 1, Map.of(), Map.of());
        emulator.faults().force("b", "k", LifecycleDeleteOutcome.RETRY_LATER, "TEST");
        assertOutcome(send(request("b", "k", ActionKind.EXPIRATION_DAYS)), LifecycleDeleteOutcome.RETRY_LATER, "TEST");
        emulator.faults().force("b", "k", LifecycleDeleteOutcome.BLOCKED, "TEST");
        assertOutcome(send(request("b", "k", ActionKind.EXPIRATION_DAYS)), LifecycleDeleteOutcome.BLOCKED, "TEST");
        emulator.faults().clearForced("b", "k");
        assertDone(send(request("b", "k", ActionKind.EXPIRATION_DAYS)));
    }
}
