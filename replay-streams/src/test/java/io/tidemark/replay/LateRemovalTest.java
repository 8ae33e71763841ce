package io.tidemark.replay;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.tidemark.lifecycle.config.ValidationMode;
import io.tidemark.lifecycle.engine.BucketVersioning;
import io.tidemark.lifecycle.engine.DuePolicy;
import io.tidemark.lifecycle.engine.LifecycleCalendar;
import io.tidemark.lifecycle.engine.RuleReader;
import io.tidemark.messages.ObjectTask;
import io.tidemark.messages.pb.MetaLogProto.EventKind;
import io.tidemark.messages.pb.MetaLogProto.MetaLogRecord;
import io.tidemark.replay.TimerPlanner.Arm;
import io.tidemark.replay.TimerPlanner.BucketRules;
import io.tidemark.replay.TimerPlanner.Cancel;
import io.tidemark.replay.TimerPlanner.Change;
import io.tidemark.seaweed.EntryIdentity;
import io.tidemark.seaweed.EpochNanos;
import io.tidemark.seaweed.S3Layout;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A removal's event that reaches replay-streams after the event of a newer write of the same key (issue 46 item 2):
 * with several filers, a DELETE through filer B released late (B silent past the merge's hold), or a copy of it
 * published again after a populator's restart, comes after the re-PUT through filer A. The removal cancels only the
 * timer of the entry it removed, never the newer object's: otherwise that object never expires (steady walks do not
 * cover Expiration/Days). A pure {@link TimerPlanner} test, each record planned and applied in stream order.
 */
class LateRemovalTest {

    private static final Duration DAY = Duration.ofSeconds(10);
    private static final Instant T0 = Instant.parse("2026-11-28T16:00:00Z");
    private static final String XML = "<LifecycleConfiguration><Rule><ID>r</ID><Status>Enabled</Status>"
            + "<Filter><Prefix></Prefix></Filter><Expiration><Days>1</Days></Expiration></Rule>"
            + "</LifecycleConfiguration>";

    private static final String NONCURRENT_XML = "<LifecycleConfiguration><Rule><ID>n</ID><Status>Enabled</Status>"
            + "<Filter><Prefix></Prefix></Filter><NoncurrentVersionExpiration><NoncurrentDays>1</NoncurrentDays>"
            + "</NoncurrentVersionExpiration></Rule></LifecycleConfiguration>";

    private final TimerPlanner planner = new TimerPlanner();
    private final Map<String, ReplayTimer> timers = new HashMap<>();
    private final List<TimerPlanner.Walk> walks = new ArrayList<>();

    private static Optional<BucketRules> rules(BucketVersioning versioning) {
        return rules(XML, versioning);
    }

    private static Optional<BucketRules> rules(String xml, BucketVersioning versioning) {
        try {
            RuleReader reader = new RuleReader(ValidationMode.SEAWEEDFS, LifecycleCalendar.of(DuePolicy.EXACT, DAY));
            return Optional.of(new BucketRules(reader.read(xml), versioning));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private void apply(MetaLogRecord record, Optional<BucketRules> rules, Instant now) {
        for (Change change : planner.plan(record, rules, id -> Optional.ofNullable(timers.get(id)), now)) {
            if (change instanceof Arm arm) {
                timers.put(arm.timer().timerId(), arm.timer());
            } else if (change instanceof Cancel cancel) {
                timers.remove(cancel.timerId());
            } else if (change instanceof TimerPlanner.Walk walk) {
                walks.add(walk);
            }
        }
    }

    private static final String VERSIONS = "/buckets/v/k" + S3Layout.VERSIONS_SUFFIX;

    private static Entry version(String id, Instant mtime, long size) {
        return Events.object(S3Layout.VERSION_FILE_PREFIX + id, mtime, size, Map.of());
    }

    private static Entry marker(String id, Instant mtime) {
        return Events.object(S3Layout.VERSION_FILE_PREFIX + id, mtime, 0, Map.of(S3Layout.DELETE_MARKER, "true"));
    }

    /** A versioned key's event, stamped {@code at} by its filer, applied at {@code now}. */
    private void versioned(EventKind kind, Entry entry, Instant at, Instant now) {
        apply(Events.record(kind, "v", "k", VERSIONS, null, entry, at), rules(BucketVersioning.ENABLED), now);
    }

    private static ObjectTask.ExpectedIdentity identity(Entry entry) {
        return ObjectTask.ExpectedIdentity.of(EntryIdentity.of(entry));
    }

    /**
     * Found by {@code check --filers 2 --seed 4719}: version 1 written through a filer whose stream is late, version 2
     * through the other at once. Version 2's events come first, the gateway's noncurrent stamp on version 1 among
     * them, which arms its NoncurrentDays timer; then version 1's own, late: its creation and the pointer moved to it.
     * That flip says version 1 is current, which it no longer is; cancelling its timer on the flip's word lost the
     * expiration. A flip that cancels a noncurrent timer now also asks for a walk of the key, whose listing says which
     * version is current and re-arms the timer of the one that is not.
     */
    @Test
    void shouldAskForAWalkOfTheKeyWhenALatePointerFlipCancelsANoncurrentTimer() {
        Optional<BucketRules> rules = rules(NONCURRENT_XML, BucketVersioning.ENABLED);
        Instant v1At = T0;
        Instant v2At = T0.plusMillis(120);
        Entry v1 = version("1", v1At, 10);
        Entry v2 = version("2", v2At, 20);
        Entry v1Demoted = v1.toBuilder().putExtended(S3Layout.NONCURRENT_SINCE_NS,
                ByteString.copyFromUtf8(String.valueOf(EpochNanos.of(v2At)))).build();
        apply(Events.record(EventKind.VERSION_CREATED, "v", "k", VERSIONS, null, v2, v2At), rules, v2At);
        apply(Events.record(EventKind.OTHER, "v", "k", VERSIONS, v1, v1Demoted, v2At), rules, v2At);
        apply(flipped(directory("1", v1At), directory("2", v2At), v2At), rules, v2At);
        assertThat(timers).containsKey(TimerPlanner.noncurrentTimerId("v", "k", "1"));

        // Version 1's own events, through the late filer.
        Instant late = T0.plusSeconds(2);
        apply(Events.record(EventKind.VERSION_CREATED, "v", "k", VERSIONS, null, v1, v1At), rules, late);
        apply(flipped(Events.object("k" + S3Layout.VERSIONS_SUFFIX, v1At, 0, Map.of()).toBuilder().setIsDirectory(true)
                .build(), directory("1", v1At), v1At), rules, late);

        assertThat(walks).as("a walk of the key, whose listing times version 1 again").singleElement()
                .satisfies(w -> {
                    assertThat(w.task().details().prefix()).isEqualTo("k");
                    assertThat(w.reason()).isEqualTo("promoted-version");
                });
    }

    /** The same for the null version: a late flip that makes it latest again puts its armed timer back to waiting. */
    @Test
    void shouldAskForAWalkOfTheKeyWhenALateFlipMakesADemotedNullVersionLatest() {
        Optional<BucketRules> rules = rules(NONCURRENT_XML, BucketVersioning.ENABLED);
        Entry bare = Events.object("k", T0, 5, Map.of());
        apply(Events.record(EventKind.OBJECT_WRITTEN, "v", "k", "/buckets/v", null, bare, T0), rules, T0);
        Instant v1At = T0.plusSeconds(1);
        apply(Events.record(EventKind.VERSION_CREATED, "v", "k", VERSIONS, null, version("1", v1At, 6), v1At), rules,
                v1At);
        apply(flipped(nullLatest(), directory("1", v1At), v1At), rules, v1At);
        assertThat(timers.get(TimerPlanner.noncurrentTimerId("v", "k", S3Layout.NULL_VERSION_ID)))
                .as("the null version, demoted").isNotNull().extracting(ReplayTimer::noncurrentSince).isNotNull();

        // An earlier flip to the null version, through a late filer.
        apply(flipped(directory("0", T0.minusSeconds(5)), nullLatest(), T0.plusMillis(500)), rules, v1At.plusSeconds(1));

        assertThat(walks).as("a walk of the key, whose listing times the null version again").singleElement()
                .satisfies(w -> assertThat(w.task().details().prefix()).isEqualTo("k"));
    }

    private static Entry nullLatest() {
        return Events.object("k" + S3Layout.VERSIONS_SUFFIX, T0, 0, Map.of(S3Layout.NULL_VERSION_IS_LATEST, "true"))
                .toBuilder().setIsDirectory(true).build();
    }

    @Test
    void shouldAskForNoWalkWhenAFlipCancelsNoTimer() {
        Optional<BucketRules> rules = rules(NONCURRENT_XML, BucketVersioning.ENABLED);
        Entry v1 = version("1", T0, 10);
        apply(Events.record(EventKind.VERSION_CREATED, "v", "k", VERSIONS, null, v1, T0), rules, T0);
        apply(flipped(Events.object("k" + S3Layout.VERSIONS_SUFFIX, T0, 0, Map.of()).toBuilder().setIsDirectory(true)
                .build(), directory("1", T0), T0), rules, T0);

        assertThat(walks).isEmpty();
    }

    private static Entry directory(String latest, Instant latestMtime) {
        return Events.object("k" + S3Layout.VERSIONS_SUFFIX, latestMtime, 0, Map.of(S3Layout.LATEST_VERSION_ID, latest,
                S3Layout.LATEST_VERSION_MTIME, String.valueOf(latestMtime.getEpochSecond()),
                S3Layout.LATEST_VERSION_IS_DELETE_MARKER, "false")).toBuilder().setIsDirectory(true).build();
    }

    private static MetaLogRecord flipped(Entry before, Entry after, Instant at) {
        return Events.record(EventKind.LATEST_POINTER_FLIPPED, "v", "k", "/buckets/v", before, after, at);
    }

    @Test
    void shouldKeepTheTimerOfAReputObjectWhenTheDeleteOfTheOldOneComesLate() {
        Optional<BucketRules> rules = rules(BucketVersioning.OFF);
        Entry first = Events.object("k", T0, 10, Map.of());
        Entry second = Events.object("k", T0.plusSeconds(2), 20, Map.of());
        apply(Events.written("b", first, T0), rules, T0);

        // The re-PUT's event (through filer A) is published before the DELETE's (through filer B, released late).
        apply(Events.written("b", second, T0.plusSeconds(2)), rules, T0.plusSeconds(2));
        apply(Events.deleted("b", first, T0.plusSeconds(1)), rules, T0.plusSeconds(3));

        ReplayTimer timer = timers.get(TimerPlanner.currentTimerId("b", "k"));
        assertThat(timer).as("the new object's timer").isNotNull();
        assertThat(timer.identity()).isEqualTo(identity(second));
        assertThat(timer.dueAt()).isEqualTo(T0.plusSeconds(2).plus(DAY));
    }

    @Test
    void shouldKeepTheTimerWhenACopyOfAnOldDeleteIsPublishedAgain() {
        Optional<BucketRules> rules = rules(BucketVersioning.OFF);
        Entry first = Events.object("k", T0, 10, Map.of());
        Entry second = Events.object("k", T0.plusSeconds(2), 20, Map.of());
        apply(Events.written("b", first, T0), rules, T0);
        apply(Events.deleted("b", first, T0.plusSeconds(1)), rules, T0.plusSeconds(1));
        apply(Events.written("b", second, T0.plusSeconds(2)), rules, T0.plusSeconds(2));

        // A populator restarted with an empty memory of what it published sends the DELETE's copy again.
        apply(Events.deleted("b", first, T0.plusSeconds(1)), rules, T0.plusSeconds(3));

        assertThat(timers.get(TimerPlanner.currentTimerId("b", "k"))).isNotNull()
                .extracting(ReplayTimer::identity).isEqualTo(identity(second));
    }

    @Test
    void shouldStillCancelTheTimerOfTheEntryTheDeleteRemoved() {
        Optional<BucketRules> rules = rules(BucketVersioning.OFF);
        Entry first = Events.object("k", T0, 10, Map.of());
        Entry second = Events.object("k", T0.plusSeconds(2), 20, Map.of());
        apply(Events.written("b", first, T0), rules, T0);
        apply(Events.overwritten("b", first, second, T0.plusSeconds(2)), rules, T0.plusSeconds(2));

        apply(Events.deleted("b", second, T0.plusSeconds(3)), rules, T0.plusSeconds(3));

        assertThat(timers).isEmpty();
    }

    @Test
    void shouldCancelATimerArmedOnAnOlderEntryThanTheOneRemoved() {
        // The overwrite's event was never seen (a gap a walk repairs): the timer knows an entry older than the one
        // removed, which is gone too.
        Optional<BucketRules> rules = rules(BucketVersioning.OFF);
        Entry first = Events.object("k", T0, 10, Map.of());
        Entry second = Events.object("k", T0.plusSeconds(2), 20, Map.of());
        apply(Events.written("b", first, T0), rules, T0);

        apply(Events.deleted("b", second, T0.plusSeconds(3)), rules, T0.plusSeconds(3));

        assertThat(timers).isEmpty();
    }

    @Test
    void shouldKeepTheNewVersionsTimerWhenTheMarkerBeneathItComesLate() {
        Entry v2 = version("2", T0.plusSeconds(2), 20);
        versioned(EventKind.VERSION_CREATED, version("1", T0, 10), T0, T0);

        // The version written after the marker (through filer A) is published before the marker (through filer B).
        versioned(EventKind.VERSION_CREATED, v2, T0.plusSeconds(2), T0.plusSeconds(2));
        versioned(EventKind.DELETE_MARKER_CREATED, marker("m", T0.plusSeconds(1)), T0.plusSeconds(1),
                T0.plusSeconds(3));

        assertThat(timers.get(TimerPlanner.currentTimerId("v", "k"))).as("the latest version's timer").isNotNull()
                .extracting(ReplayTimer::identity).isEqualTo(identity(v2));
    }

    @Test
    void shouldStillCancelTheCurrentTimerWhenAMarkerComesInOrder() {
        versioned(EventKind.VERSION_CREATED, version("1", T0, 10), T0, T0);

        versioned(EventKind.DELETE_MARKER_CREATED, marker("m", T0.plusSeconds(1)), T0.plusSeconds(1),
                T0.plusSeconds(1));

        assertThat(timers.get(TimerPlanner.currentTimerId("v", "k"))).isNull();
    }

    /** Gateways stamp mtimes in whole seconds: a DELETE and a PUT at once give the marker and the version one mtime. */
    @Test
    void shouldKeepTheNewVersionsTimerWhenALateMarkerHasTheSameMtime() {
        Instant second = T0.plusSeconds(1);
        Entry v2 = version("2", second, 20);
        versioned(EventKind.VERSION_CREATED, v2, second.plusMillis(300), second.plusMillis(300));

        versioned(EventKind.DELETE_MARKER_CREATED, marker("m", second), second.plusMillis(200), second.plusMillis(400));

        assertThat(timers.get(TimerPlanner.currentTimerId("v", "k"))).isNotNull()
                .extracting(ReplayTimer::identity).isEqualTo(identity(v2));
    }

    @Test
    void shouldCancelOnAMarkerInOrderWithTheSameMtimeAsTheVersion() {
        Instant second = T0.plusSeconds(1);
        versioned(EventKind.VERSION_CREATED, version("1", second, 10), second.plusMillis(100), second.plusMillis(100));

        versioned(EventKind.DELETE_MARKER_CREATED, marker("m", second), second.plusMillis(200), second.plusMillis(200));

        assertThat(timers.get(TimerPlanner.currentTimerId("v", "k"))).isNull();
    }

    @Test
    void shouldKeepALaterMarkersCandidateWhenAnEarlierMarkerComesLate() {
        versioned(EventKind.DELETE_MARKER_CREATED, marker("m3", T0.plusSeconds(3)), T0.plusSeconds(3),
                T0.plusSeconds(3));
        String candidate = timers.get(TimerPlanner.markerTimerId("v", "k")).versionId();

        versioned(EventKind.DELETE_MARKER_CREATED, marker("m1", T0.plusSeconds(1)), T0.plusSeconds(1),
                T0.plusSeconds(4));

        assertThat(timers.get(TimerPlanner.markerTimerId("v", "k"))).isNotNull()
                .extracting(ReplayTimer::versionId).isEqualTo(candidate);
    }
}
