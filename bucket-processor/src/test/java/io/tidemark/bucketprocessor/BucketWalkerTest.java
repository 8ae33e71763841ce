package io.tidemark.bucketprocessor;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.lifecycle.config.ValidationMode;
import io.tidemark.lifecycle.engine.BucketVersioning;
import io.tidemark.messages.BucketTask.Mode;
import io.tidemark.messages.ObjectTask;
import io.tidemark.messages.pb.MetaLogProto.EventKind;
import io.tidemark.messages.pb.MetaLogProto.MetaLogRecord;
import io.tidemark.messages.pb.MetaLogProto.RearmRole;
import io.tidemark.seaweed.EntryIdentity;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class BucketWalkerTest {

    private final WalkFixture f = new WalkFixture();

    @AfterEach
    void close() {
        f.close();
    }

    private static String rules(String... rules) {
        return "<LifecycleConfiguration>" + String.join("", rules) + "</LifecycleConfiguration>";
    }

    private static String rule(String id, String prefix, String body) {
        return "<Rule><ID>" + id + "</ID><Filter><Prefix>" + prefix + "</Prefix></Filter><Status>Enabled</Status>"
                + body + "</Rule>";
    }

    private void bucket(String name, BucketVersioning versioning, String xml) {
        f.s3.createBucket(name, false);
        if (versioning != BucketVersioning.OFF) {
            f.s3.setVersioning(name, versioning);
        }
        f.s3.putLifecycle(name, xml);
    }

    private void put(String bucket, String key) {
        f.s3.putObject(bucket, key, 10, Map.of(), Map.of());
    }

    @Test
    void shouldExpireCurrentVersionsOnceTheRuleDateHasPassedWithTheListedIdentity() {
        bucket("b", BucketVersioning.OFF, rules(rule("date", "logs/",
                "<Expiration><Date>2026-03-02T00:00:00Z</Date></Expiration>")));
        put("b", "logs/a");
        put("b", "logs/deep/b");
        put("b", "data/c");

        assertThat(f.walk("b", Mode.steady, 1000).tasks()).isEmpty();

        f.clock.advance(Duration.ofDays(2));
        List<ObjectTask> tasks = f.walk("b", Mode.steady, 1000).tasks();
        assertThat(tasks).extracting(t -> t.target().objectPath()).containsExactly("logs/a", "logs/deep/b");
        ObjectTask first = tasks.get(0);
        assertThat(first.kind()).isEqualTo("EXPIRATION_DATE");
        assertThat(first.action()).isEqualTo("expire");
        assertThat(first.target().versionId()).isEmpty();
        assertThat(first.details().origin()).isEqualTo("walker");
        assertThat(first.details().scanId()).isEqualTo("scan-1");
        assertThat(first.details().expectedIdentity()).isEqualTo(ObjectTask.ExpectedIdentity.of(EntryIdentity.of(
                f.emulator.store().lookup("/buckets/b/logs", "a").orElseThrow())));
        assertThat(first.actionId()).startsWith("walker-")
                .isEqualTo(f.walk("b", Mode.steady, 1000).tasks().get(0).actionId());
    }

    @Test
    void shouldLeaveTimerKindsToReplayInASteadyWalkButSendThemInARecoveryWalk() {
        bucket("b", BucketVersioning.OFF, rules(rule("days", "", "<Expiration><Days>1</Days></Expiration>")));
        put("b", "old");
        f.clock.advance(Duration.ofDays(2));

        assertThat(f.walk("b", Mode.steady, 1000).tasks()).isEmpty();
        assertThat(f.walk("b", Mode.recovery, 1000).tasks()).extracting(ObjectTask::kind)
                .containsExactly("EXPIRATION_DAYS");
    }

    @Test
    void shouldRemoveAnExpiredDeleteMarkerOnlyWhenItIsTheSoleVersionLeft() {
        bucket("b", BucketVersioning.ENABLED, rules(rule("markers", "",
                "<Expiration><ExpiredObjectDeleteMarker>true</ExpiredObjectDeleteMarker></Expiration>")));
        String onlyVersion = f.s3.putObject("b", "alone", 1, Map.of(), Map.of());
        String marker = f.s3.deleteObject("b", "alone");
        f.s3.deleteVersion("b", "alone", onlyVersion);
        put("b", "kept");
        f.s3.deleteObject("b", "kept");

        List<ObjectTask> tasks = f.walk("b", Mode.steady, 1000).tasks();

        assertThat(tasks).hasSize(1);
        assertThat(tasks.get(0).kind()).isEqualTo("EXPIRED_DELETE_MARKER");
        assertThat(tasks.get(0).target()).isEqualTo(new ObjectTask.Target("b", "alone", marker));
    }

    @Test
    void shouldDeleteNoncurrentVersionsBeyondTheNewerCountByRank() {
        bucket("b", BucketVersioning.ENABLED, rules(rule("keep2", "",
                "<NoncurrentVersionExpiration><NoncurrentDays>1</NoncurrentDays>"
                        + "<NewerNoncurrentVersions>2</NewerNoncurrentVersions></NoncurrentVersionExpiration>")));
        List<String> versions = IntStream.range(0, 5).mapToObj(i -> {
            f.clock.advance(Duration.ofMinutes(1));
            return f.s3.putObject("b", "k", i, Map.of(), Map.of());
        }).toList();
        f.clock.advance(Duration.ofDays(2));

        List<ObjectTask> tasks = f.walk("b", Mode.steady, 1000).tasks();

        // Newest first: versions 4 (latest), 3 and 2 (ranks 0, 1: kept), 1 and 0 (ranks 2, 3: due).
        assertThat(tasks).extracting(t -> t.target().versionId()).containsExactly(versions.get(1), versions.get(0));
        assertThat(tasks).allSatisfy(t -> assertThat(t.kind()).isEqualTo("NONCURRENT_DAYS"));
    }

    @Test
    void shouldDeleteByRankAloneAKeepCountWithoutDaysOnlyInTheSeaweedfsValidationMode() {
        // SeaweedFS's gateway stores such a rule; S3 would have refused it.
        bucket("b", BucketVersioning.ENABLED, rules(rule("keep2", "",
                "<NoncurrentVersionExpiration><NewerNoncurrentVersions>2</NewerNoncurrentVersions>"
                        + "</NoncurrentVersionExpiration>")));
        List<String> versions = IntStream.range(0, 5).mapToObj(i -> {
            f.clock.advance(Duration.ofMinutes(1));
            return f.s3.putObject("b", "k", i, Map.of(), Map.of());
        }).toList();

        assertThat(f.walk("b", Mode.steady, 1000).tasks()).as("aws mode: the rules are invalid, so none apply")
                .isEmpty();

        f.mode = ValidationMode.SEAWEEDFS;
        List<ObjectTask> tasks = f.walk("b", Mode.steady, 1000).tasks();
        assertThat(tasks).extracting(t -> t.target().versionId()).containsExactly(versions.get(1), versions.get(0));
        assertThat(tasks).allSatisfy(t -> assertThat(t.kind()).isEqualTo("NEWER_NONCURRENT"));
    }

    /**
     * Issue 27 item 4: a key's versions are ranked from one listing, never from a count carried from one page to the
     * next (a version deleted between the pages would leave the older ones ranked too high, and deleted).
     */
    @Test
    void shouldRankAKeysVersionsFromOneListingWhateverThePageSize() {
        bucket("b", BucketVersioning.ENABLED, rules(rule("keep2", "",
                "<NoncurrentVersionExpiration><NoncurrentDays>1</NoncurrentDays>"
                        + "<NewerNoncurrentVersions>2</NewerNoncurrentVersions></NoncurrentVersionExpiration>")));
        for (String key : List.of("a", "k", "z")) {
            for (int i = 0; i < 9; i++) {
                f.clock.advance(Duration.ofSeconds(1));
                put("b", key);
            }
        }
        f.clock.advance(Duration.ofDays(2));

        WalkFixture.Walk whole = f.walk("b", Mode.steady, 1000);
        WalkFixture.Walk paged = f.walk("b", Mode.steady, 3);

        assertThat(whole.pages()).hasSize(1);
        assertThat(paged.pages().size()).isGreaterThan(2);
        assertThat(paged.pages()).as("no page ends inside a .versions directory").allSatisfy(p -> assertThat(
                p.next().map(t -> t.details().versions() != null).orElse(false)).isFalse());
        assertThat(paged.pages()).allSatisfy(p -> assertThat(p.output().tasksByKind.getOrDefault("NONCURRENT_DAYS", 0L))
                .as("a key's due versions come from one page").isIn(0L, 6L, 12L, 18L));
        assertThat(whole.tasks()).hasSize(3 * 6);
        assertThat(paged.tasks()).containsExactlyElementsOf(whole.tasks());
    }

    /**
     * Issue 27 item 8: the walk of one key that replay-streams or the object processor asks for lists only what can
     * lead to the key, not every directory on its path in full.
     */
    @Test
    void shouldListOnlyWhatLeadsToTheKeyWhenWalkingOneKey() {
        bucket("b", BucketVersioning.ENABLED, rules(rule("date", "", "<Expiration><Date>2026-03-02T00:00:00Z</Date>"
                + "</Expiration>")));
        for (int i = 0; i < 300; i++) {
            put("b", String.format("logs/app/x%03d", i));
            put("b", String.format("logs/y%03d", i));
            put("b", String.format("other%03d", i));
        }
        put("b", "logs/app/k");
        f.clock.advance(Duration.ofDays(2));
        long listedBefore = f.lister.listed;

        PageWorker worker = f.worker(1000);
        var task = new io.tidemark.messages.BucketTask(io.tidemark.messages.BucketTask.PROCESS_BUCKET,
                new io.tidemark.messages.BucketTask.Target("b"),
                new io.tidemark.messages.BucketTask.Details("key-walk", Mode.recovery, "logs/app/k", null));
        PageWorker.PageResult page = worker.page(task);

        assertThat(page.next()).isEmpty();
        assertThat(page.output().tasks).extracting(t -> t.value().target().objectPath()).containsExactly("logs/app/k");
        assertThat(f.lister.listed - listedBefore).as("entries listed for one key").isLessThan(10);
        assertThat(page.output().handled).isLessThan(10);
    }

    @Test
    void shouldListEveryEntryOnceWalkingA100000EntryBucketToTheEnd() {
        bucket("big", BucketVersioning.OFF, rules(rule("date", "", "<Expiration><Date>2027-01-01T00:00:00Z</Date>"
                + "</Expiration>")));
        for (int d = 0; d < 100; d++) {
            for (int i = 0; i < 999; i++) {
                put("big", String.format("day-%03d/object-%04d", d, i));
            }
        }
        long entries = 100 + 100 * 999;
        long callsBefore = f.lister.listCalls;
        long listedBefore = f.lister.listed;

        WalkFixture.Walk walk = f.walk("big", Mode.steady, 1000);

        assertThat(walk.endReason()).isNull();
        assertThat(walk.sum(o -> o.handled)).isEqualTo(entries);
        assertThat(f.lister.listed - listedBefore).as("entries listed").isEqualTo(entries);
        assertThat(walk.sum(o -> o.relisted)).isZero();
        // A page that ends exactly at the last entry leaves one more, empty page to find the end.
        assertThat(walk.pages().size()).isBetween(100, 101);
        assertThat(walk.pages()).allSatisfy(p -> assertThat(p.output().listed).isLessThanOrEqualTo(1000));
        assertThat((double) (f.lister.listCalls - callsBefore) / entries).as("ListEntries calls per entry")
                .isLessThan(0.01);
    }

    @Test
    void shouldListAVersionedBucketNearlyOnceAcrossPages() {
        bucket("v", BucketVersioning.ENABLED, rules(rule("date", "", "<Expiration><Date>2027-01-01T00:00:00Z</Date>"
                + "</Expiration>")));
        for (int i = 0; i < 3_000; i++) {
            put("v", String.format("k%05d", i));
            if (i % 3 == 0) {
                put("v", String.format("k%05d", i));
            }
        }
        long entries = 3_000 + 3_000 + 1_000;
        long listedBefore = f.lister.listed;

        WalkFixture.Walk walk = f.walk("v", Mode.steady, 1000);

        assertThat(walk.sum(o -> o.handled)).isEqualTo(entries);
        long listed = f.lister.listed - listedBefore;
        assertThat(listed - walk.sum(o -> o.relisted)).isEqualTo(entries);
        assertThat((double) listed / entries).as("entries listed per entry").isLessThan(1.05);
    }

    @Test
    void shouldReArmTimersStillToComeInARecoveryWalk() {
        bucket("b", BucketVersioning.ENABLED, rules(
                rule("days", "", "<Expiration><Days>30</Days></Expiration>"
                        + "<NoncurrentVersionExpiration><NoncurrentDays>10</NoncurrentDays></NoncurrentVersionExpiration>"),
                rule("mpu", "", "<AbortIncompleteMultipartUpload><DaysAfterInitiation>7</DaysAfterInitiation>"
                        + "</AbortIncompleteMultipartUpload>")));
        String older = f.s3.putObject("b", "doc", 1, Map.of(), Map.of());
        f.clock.advance(Duration.ofHours(1));
        String latest = f.s3.putObject("b", "doc", 2, Map.of(), Map.of());
        String upload = f.s3.createUpload("b", "big/file");

        WalkFixture.Walk walk = f.walk("b", Mode.recovery, 1000);

        assertThat(walk.tasks()).isEmpty();
        Map<RearmRole, List<MetaLogRecord>> byRole = walk.rearms().stream()
                .collect(Collectors.groupingBy(MetaLogRecord::getRearmRole));
        assertThat(walk.rearms()).allSatisfy(r -> assertThat(r.getKind()).isEqualTo(EventKind.REARM));
        assertThat(byRole.get(RearmRole.CURRENT)).singleElement().satisfies(r -> {
            assertThat(r.getLogicalKey()).isEqualTo("doc");
            assertThat(r.getEvent().getNewEntry().getName()).isEqualTo("v_" + latest);
            assertThat(r.getDirectory()).isEqualTo("/buckets/b/doc.versions");
        });
        assertThat(byRole.get(RearmRole.NONCURRENT)).singleElement().satisfies(r -> {
            assertThat(r.getEvent().getNewEntry().getName()).isEqualTo("v_" + older);
            assertThat(r.getNoncurrentSinceNs()).isPositive();
        });
        assertThat(byRole.get(RearmRole.UPLOAD)).singleElement().satisfies(r -> {
            assertThat(r.getLogicalKey()).isEqualTo("big/file");
            assertThat(r.getEvent().getNewEntry().getName()).isEqualTo(upload);
        });

        f.clock.advance(Duration.ofDays(31));
        assertThat(f.walk("b", Mode.recovery, 1000).tasks()).extracting(ObjectTask::kind)
                .containsExactlyInAnyOrder("EXPIRATION_DAYS", "NONCURRENT_DAYS", "ABORT_MPU");
    }

    @Test
    void shouldSendNoTaskForAVersionUnderObjectLock() {
        f.s3.createBucket("locked", true);
        f.s3.putLifecycle("locked", rules(rule("date", "", "<Expiration><Date>2026-03-02T00:00:00Z</Date>"
                + "</Expiration>")));
        String held = f.s3.putObject("locked", "held", 1, Map.of(), Map.of());
        f.s3.putLegalHold("locked", "held", held, true);
        put("locked", "free");
        f.clock.advance(Duration.ofDays(2));

        WalkFixture.Walk walk = f.walk("locked", Mode.steady, 1000);

        assertThat(walk.tasks()).extracting(t -> t.target().objectPath()).containsExactly("free");
        assertThat(walk.sum(o -> o.locked)).isEqualTo(1);
    }

    /**
     * Issue 35 item 1: a null version demoted by a new version carries no stamp (upstream stamps only the file its
     * pointer names); a steady walk times it from its successor's creation, and ranks it among the other versions.
     */
    @Test
    void shouldTimeADemotedNullVersionFromItsSuccessorsCreation() {
        bucket("b", BucketVersioning.OFF, rules(rule("old", "", "<NoncurrentVersionExpiration><NoncurrentDays>1"
                + "</NoncurrentDays></NoncurrentVersionExpiration>")));
        put("b", "k");
        f.clock.advance(Duration.ofDays(10));
        f.s3.setVersioning("b", BucketVersioning.ENABLED);
        String v1 = f.s3.putObject("b", "k", 20, Map.of(), Map.of());
        f.clock.advance(Duration.ofHours(12));
        assertThat(f.walk("b", Mode.steady, 1000).tasks()).as("half a day after its demotion").isEmpty();

        f.clock.advance(Duration.ofHours(13));
        List<ObjectTask> tasks = f.walk("b", Mode.steady, 1000).tasks();
        assertThat(tasks).singleElement().satisfies(t -> {
            assertThat(t.kind()).isEqualTo("NONCURRENT_DAYS");
            assertThat(t.target()).isEqualTo(new ObjectTask.Target("b", "k", "null"));
            assertThat(t.details().noncurrentSince()).isEqualTo(java.time.Instant.ofEpochSecond(
                    f.s3.version("b", "k", v1).orElseThrow().entry().getAttributes().getMtime()));
        });
    }

    @Test
    void shouldRankADemotedNullVersionAmongTheVersionsAboveIt() {
        bucket("b", BucketVersioning.OFF, rules(rule("keep1", "", "<NoncurrentVersionExpiration><NoncurrentDays>1"
                + "</NoncurrentDays><NewerNoncurrentVersions>1</NewerNoncurrentVersions></NoncurrentVersionExpiration>")));
        put("b", "k");
        f.s3.setVersioning("b", BucketVersioning.ENABLED);
        f.clock.advance(Duration.ofMinutes(1));
        f.s3.putObject("b", "k", 1, Map.of(), Map.of());
        f.clock.advance(Duration.ofDays(2));
        assertThat(f.walk("b", Mode.steady, 1000).tasks()).as("the only noncurrent version: kept").isEmpty();
        f.clock.advance(Duration.ofMinutes(1));
        f.s3.putObject("b", "k", 2, Map.of(), Map.of());
        f.clock.advance(Duration.ofDays(2));
        assertThat(f.walk("b", Mode.steady, 1000).tasks()).extracting(t -> t.target().versionId())
                .as("one newer noncurrent version above it now").containsExactly("null");
    }

    /**
     * Issue 35 item 4: a null delete marker cannot be removed by any request (the gateway looks for version "null" at
     * the bare path only): no task is sent for it, and it is counted.
     */
    @Test
    void shouldSendNothingForANullDeleteMarkerAndCountIt() {
        bucket("b", BucketVersioning.SUSPENDED, rules(rule("all", "", "<Expiration><ExpiredObjectDeleteMarker>true"
                + "</ExpiredObjectDeleteMarker></Expiration><NoncurrentVersionExpiration><NoncurrentDays>1"
                + "</NoncurrentDays></NoncurrentVersionExpiration>")));
        put("b", "current");
        f.s3.deleteObject("b", "current");
        put("b", "noncurrent");
        f.s3.deleteObject("b", "noncurrent");
        f.s3.setVersioning("b", BucketVersioning.ENABLED);
        f.s3.putObject("b", "noncurrent", 1, Map.of(), Map.of());
        f.clock.advance(Duration.ofDays(2));

        WalkFixture.Walk walk = f.walk("b", Mode.steady, 1000);
        assertThat(walk.tasks()).isEmpty();
        assertThat(walk.sum(o -> o.nullMarkers)).isEqualTo(2);
    }

    @Test
    void shouldEndTheWalkCleanlyWhenTheBucketVanishesMidWalk() {
        bucket("gone", BucketVersioning.OFF, rules(rule("date", "", "<Expiration><Date>2027-01-01T00:00:00Z</Date>"
                + "</Expiration>")));
        IntStream.range(0, 50).forEach(i -> put("gone", "o" + i));
        PageWorker worker = f.worker(10);
        var first = worker.page(new io.tidemark.messages.BucketTask(io.tidemark.messages.BucketTask.PROCESS_BUCKET,
                new io.tidemark.messages.BucketTask.Target("gone"),
                new io.tidemark.messages.BucketTask.Details("s", Mode.steady, "", null)));
        assertThat(first.next()).isPresent();

        f.s3.deleteBucket("gone");
        var second = worker.page(first.next().get());

        assertThat(second.next()).isEmpty();
        assertThat(second.endReason()).isEqualTo("bucket-gone");
    }

    @Test
    void shouldStepOverEntriesThatDoNotFitTheLayoutAndGoOn() throws Exception {
        bucket("odd", BucketVersioning.ENABLED, rules(rule("date", "", "<Expiration><Date>2026-03-02T00:00:00Z</Date>"
                + "</Expiration>")));
        put("odd", "a");
        put("odd", "z");
        f.emulator.store().create("/buckets/odd/.uploads", io.tidemark.seaweed.pb.FilerProto.Entry.newBuilder()
                .setName("stray-file").build(), false);
        f.emulator.store().create("/buckets/odd/a.versions", io.tidemark.seaweed.pb.FilerProto.Entry.newBuilder()
                .setName("not-a-version").build(), false);
        f.clock.advance(Duration.ofDays(2));

        WalkFixture.Walk walk = f.walk("odd", Mode.steady, 1000);

        assertThat(walk.sum(o -> o.anomalies)).isEqualTo(2);
        assertThat(walk.tasks()).extracting(t -> t.target().objectPath()).containsExactly("a", "z");
    }
    @Test
    void shouldHandAVisitorEveryVersionAndUploadOnceAcrossPagesWithoutBuildingTasks() {
        bucket("b", BucketVersioning.ENABLED, rules(rule("date", "", "<Expiration><Date>2026-03-02T00:00:00Z</Date>"
                + "</Expiration>")));
        for (int i = 0; i < 25; i++) {
            f.clock.advance(Duration.ofSeconds(1));
            put("b", "dir-" + (i % 3) + "/k" + i);
        }
        f.clock.advance(Duration.ofSeconds(1));
        put("b", "dir-0/k0");
        String upload = f.s3.createUpload("b", "dir-1/big");
        List<String> seen = new java.util.ArrayList<>();
        WalkVisitor visitor = new WalkVisitor() {
            @Override
            public void version(String directory, io.tidemark.seaweed.pb.FilerProto.Entry entry,
                                io.tidemark.lifecycle.engine.ObjectVersion version, RearmRole role,
                                java.util.Optional<io.tidemark.lifecycle.engine.ObjectVersion> asOneEvent) {
                seen.add(version.key() + (version.isLatest() ? "" : " (noncurrent, rank " + version.noncurrentIndex()
                        + ")"));
            }

            @Override
            public void upload(String directory, io.tidemark.seaweed.pb.FilerProto.Entry entry, String key) {
                seen.add("upload " + entry.getName() + " of " + key);
            }
        };
        List<WholeWalk.Progress> pages = new java.util.ArrayList<>();

        WholeWalk.Progress total = WholeWalk.visit(f.lister, "/buckets", "b", BucketVersioning.ENABLED, 4, visitor,
                pages::add);

        assertThat(seen).hasSize(27).doesNotHaveDuplicates().contains("dir-0/k0 (noncurrent, rank 0)",
                "upload " + upload + " of dir-1/big");
        assertThat(pages).hasSizeGreaterThan(5).last().isEqualTo(total);
        assertThat(total.position()).isEmpty();
        assertThat(pages.get(0).position()).isNotEmpty();
        assertThat(total.handled()).isGreaterThanOrEqualTo(27);
    }
}
