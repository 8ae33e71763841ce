package io.tidemark.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.messages.BucketConfig;
import io.tidemark.messages.ObjectTask;
import io.tidemark.messages.pb.MetaLogProto.MetaLogRecord;
import io.tidemark.seaweed.EntryIdentity;
import io.tidemark.seaweed.S3Layout;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import io.tidemark.topics.ShardPartitioner;
import io.tidemark.topics.TopicRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.errors.LogAndContinueExceptionHandler;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The replay topology without a broker: wall-clock time is advanced by hand, a lifecycle day lasts ten seconds and
 * due times are exact (no midnight rounding), so "1 day" is ten seconds after the object's mtime.
 */
class ReplayTopologyTest {

    private static final Instant T0 = Instant.parse("2026-11-23T10:00:00Z");
    private static final String EXPIRE_1_DAY = """
            <LifecycleConfiguration><Rule><ID>expire</ID><Filter><Prefix>logs/</Prefix></Filter><Status>Enabled</Status>\
            <Expiration><Days>1</Days></Expiration></Rule></LifecycleConfiguration>""";
    private static final String EXPIRE_3_DAYS = EXPIRE_1_DAY.replace("<Days>1</Days>", "<Days>3</Days>");
    private static final String ABORT_1_DAY = """
            <LifecycleConfiguration><Rule><ID>abort</ID><Filter></Filter><Status>Enabled</Status>\
            <AbortIncompleteMultipartUpload><DaysAfterInitiation>1</DaysAfterInitiation>\
            </AbortIncompleteMultipartUpload></Rule></LifecycleConfiguration>""";

    private final TidemarkConfig config = new TidemarkConfig(Map.of("shard.bits", "2", "lifecycle.day.seconds", "10",
            "lifecycle.test.mode", "true",
            "lifecycle.due.policy", "exact", "replay-streams.punctuate.interval.ms", "1000",
            "replay-streams.max.fired.per.tick", "2"));
    private final TopicRegistry topics = TopicRegistry.from(config);
    private final ReplayStreamsMetrics metrics = new ReplayStreamsMetrics(new SimpleMeterRegistry());
    private TopologyTestDriver driver;
    private TestInputTopic<String, MetaLogRecord> metaLog;
    private TestInputTopic<String, MetaLogRecord> rearm;
    private TestInputTopic<String, byte[]> rawMetaLog;
    private TestInputTopic<String, BucketConfig> configs;
    private TestOutputTopic<String, ObjectTask> tasks;

    @BeforeEach
    void start() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "replay-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, LogAndContinueExceptionHandler.class);
        props.put(StreamsConfig.STATE_DIR_CONFIG, "target/tmp/topology-test-" + System.nanoTime());
        driver = new TopologyTestDriver(ReplayTopology.build(ReplayTopology.Params.from(config, metrics)), props, T0);
        metaLog = driver.createInputTopic(topics.metaLog().name(), Serdes.String().serializer(),
                topics.metaLog().valueSerde().serializer());
        rearm = driver.createInputTopic(topics.rearm().name(), Serdes.String().serializer(),
                topics.rearm().valueSerde().serializer());
        rawMetaLog = driver.createInputTopic(topics.metaLog().name(), Serdes.String().serializer(),
                Serdes.ByteArray().serializer());
        configs = driver.createInputTopic(topics.bucketConfigs().name(), Serdes.String().serializer(),
                topics.bucketConfigs().valueSerde().serializer());
        tasks = driver.createOutputTopic(topics.objectTasks().name(), Serdes.String().deserializer(),
                topics.objectTasks().valueSerde().deserializer());
    }

    @AfterEach
    void stop() {
        driver.close();
    }

    private void lifecycle(String bucket, String xml) {
        lifecycle(bucket, xml, "Off");
    }

    private void lifecycle(String bucket, String xml, String versioning) {
        configs.pipeInput(bucket, new BucketConfig(bucket, versioning, false, xml, Integer.toHexString(xml.hashCode()),
                null, null));
    }

    private static final String NONCURRENT_1_DAY = """
            <LifecycleConfiguration><Rule><ID>old</ID><Filter></Filter><Status>Enabled</Status>            <NoncurrentVersionExpiration><NoncurrentDays>1</NoncurrentDays></NoncurrentVersionExpiration>            </Rule></LifecycleConfiguration>""";

    private void event(MetaLogRecord record) {
        metaLog.pipeInput(ShardPartitioner.key(record.getBucket(), record.getLogicalKey()), record);
    }

    private Instant now = T0;

    /** Moves the wall clock a second at a time, as the punctuator would see it tick. */
    private void advanceTo(Instant instant) {
        while (now.isBefore(instant)) {
            Duration step = Duration.between(now, instant).compareTo(Duration.ofSeconds(1)) < 0
                    ? Duration.between(now, instant) : Duration.ofSeconds(1);
            driver.advanceWallClockTime(step);
            now = now.plus(step);
        }
    }

    @Test
    void shouldEmitAnExpirationOnceItsDayHasPassed() {
        lifecycle("b", EXPIRE_1_DAY);
        Entry entry = Events.object("logs/a", T0, 42, Map.of());
        event(Events.written("b", Events.object("logs/a", T0, 42, Map.of()), T0));
        event(Events.written("b", Events.object("other/a", T0, 42, Map.of()), T0));

        advanceTo(T0.plusSeconds(9));
        assertThat(tasks.isEmpty()).as("not due before its day").isTrue();
        advanceTo(T0.plusSeconds(11));
        TestRecord<String, ObjectTask> fired = tasks.readRecord();
        assertThat(tasks.isEmpty()).as("the unmatched prefix has no timer").isTrue();
        assertThat(fired.key()).isEqualTo("b/logs/a");
        ObjectTask task = fired.value();
        assertThat(task.kind()).isEqualTo("EXPIRATION_DAYS");
        assertThat(task.target()).isEqualTo(new ObjectTask.Target("b", "logs/a", ""));
        assertThat(task.details().expectedIdentity()).isEqualTo(ObjectTask.ExpectedIdentity.of(EntryIdentity.of(entry)));
        assertThat(task.details().ruleId()).isEqualTo("expire");
        assertThat(task.details().origin()).isEqualTo("replay");
        assertThat(task.details().dueAt()).isEqualTo(T0.plusSeconds(10));
        assertThat(task.actionId()).startsWith("replay-");

        advanceTo(T0.plusSeconds(30));
        assertThat(tasks.isEmpty()).as("fired once").isTrue();
        assertThat(metrics.total("tidemark.replay.timers.fired", "expiration_days")).isEqualTo(1);
    }

    /** Issue 14: pending timers are counted exactly, by kind, as they are armed, replaced, cancelled and fired. */
    @Test
    void shouldCountPendingTimersByKindAsTheyAreArmedReplacedCancelledAndFired() {
        lifecycle("b", EXPIRE_1_DAY.replace("</Rule></LifecycleConfiguration>", "</Rule>"
                + "<Rule><ID>abort</ID><Filter><Prefix>up/</Prefix></Filter><Status>Enabled</Status>"
                + "<AbortIncompleteMultipartUpload><DaysAfterInitiation>3</DaysAfterInitiation>"
                + "</AbortIncompleteMultipartUpload></Rule></LifecycleConfiguration>"));
        Entry a = Events.object("logs/a", T0, 1, Map.of());
        Entry b = Events.object("logs/b", T0, 1, Map.of());
        event(Events.written("b", a, T0));
        event(Events.written("b", b, T0));
        event(Events.written("b", Events.object("logs/c", T0, 1, Map.of()), T0));
        event(Events.overwritten("b", a, Events.object("logs/a", T0.plusSeconds(1), 2, Map.of()), T0.plusSeconds(1)));
        event(Events.uploadInitiated("b", Events.upload("u1", "up/big", T0), T0));
        event(Events.deleted("b", b, T0.plusSeconds(2)));
        advanceTo(T0.plusSeconds(2));
        assertThat(metrics.pendingByKind()).containsExactlyInAnyOrderEntriesOf(
                Map.of("EXPIRATION_DAYS", 2L, "ABORT_MPU", 1L));
        assertThat(metrics.pending()).isEqualTo(3);

        advanceTo(T0.plusSeconds(13));
        assertThat(tasks.readValuesToList()).hasSize(2);
        assertThat(metrics.pendingByKind()).containsExactlyInAnyOrderEntriesOf(
                Map.of("EXPIRATION_DAYS", 0L, "ABORT_MPU", 1L));
    }

    @Test
    void shouldRetimeOnOverwriteAndFireOnceWithTheNewIdentity() {
        lifecycle("b", EXPIRE_1_DAY);
        Entry first = Events.object("logs/a", T0, 1, Map.of());
        Entry second = Events.object("logs/a", T0.plusSeconds(5), 2, Map.of());
        event(Events.written("b", first, T0));
        advanceTo(T0.plusSeconds(5));
        event(Events.overwritten("b", first, second, T0.plusSeconds(5)));

        advanceTo(T0.plusSeconds(12));
        assertThat(tasks.isEmpty()).as("the first write's timer was replaced").isTrue();
        advanceTo(T0.plusSeconds(16));
        assertThat(tasks.readValuesToList()).singleElement().satisfies(t -> assertThat(t.details().expectedIdentity())
                .isEqualTo(ObjectTask.ExpectedIdentity.of(EntryIdentity.of(second))));
    }

    @Test
    void shouldRetimeWhenTagsChangeBeforeTheDueTime() {
        lifecycle("b", EXPIRE_1_DAY.replace("<Filter><Prefix>logs/</Prefix></Filter>",
                "<Filter><Tag><Key>tier</Key><Value>tmp</Value></Tag></Filter>"));
        Entry tmp = Events.tagged("k", T0, 1, Map.of("tier", "tmp"));
        Entry kept = Events.tagged("k", T0, 1, Map.of("tier", "keep"));
        event(Events.written("b", tmp, T0));
        event(Events.record(io.tidemark.messages.pb.MetaLogProto.EventKind.TAGS_CHANGED, "b", "k", "/buckets/b", tmp,
                kept, T0.plusSeconds(1)));
        advanceTo(T0.plusSeconds(20));
        assertThat(tasks.isEmpty()).as("re-tagged out of the rule").isTrue();
    }

    @Test
    void shouldCancelTheTimerWhenTheObjectIsDeleted() {
        lifecycle("b", EXPIRE_1_DAY);
        Entry entry = Events.object("logs/a", T0, 1, Map.of());
        event(Events.written("b", entry, T0));
        event(Events.deleted("b", entry, T0.plusSeconds(2)));
        advanceTo(T0.plusSeconds(20));
        assertThat(tasks.isEmpty()).isTrue();
    }

    @Test
    void shouldDropADueTimerWhoseBucketLostItsLifecycle() {
        lifecycle("b", EXPIRE_1_DAY);
        event(Events.written("b", Events.object("logs/a", T0, 1, Map.of()), T0));
        configs.pipeInput("b", (BucketConfig) null);
        advanceTo(T0.plusSeconds(20));
        assertThat(tasks.isEmpty()).isTrue();
        assertThat(metrics.total("tidemark.replay.timers.dropped", "no-lifecycle")).isEqualTo(1);
    }

    @Test
    void shouldRetimeADueTimerWhenItsRuleNowWaitsLonger() {
        lifecycle("b", EXPIRE_1_DAY);
        event(Events.written("b", Events.object("logs/a", T0, 1, Map.of()), T0));
        lifecycle("b", EXPIRE_3_DAYS);
        advanceTo(T0.plusSeconds(15));
        assertThat(tasks.isEmpty()).as("the edited rule is not due yet").isTrue();
        assertThat(metrics.total("tidemark.replay.timers.retimed", "expiration_days")).isEqualTo(1);
        advanceTo(T0.plusSeconds(31));
        assertThat(tasks.readValuesToList()).singleElement()
                .satisfies(t -> assertThat(t.details().dueAt()).isEqualTo(T0.plusSeconds(30)));
    }

    @Test
    void shouldAbortAForgottenUploadButNotACompletedOne() {
        lifecycle("b", ABORT_1_DAY);
        Entry forgotten = Events.upload("u1", "big.bin", T0);
        Entry completed = Events.upload("u2", "done.bin", T0);
        event(Events.uploadInitiated("b", forgotten, T0));
        event(Events.uploadInitiated("b", completed, T0));
        event(Events.uploadEnded("b", completed, T0.plusSeconds(3)));
        advanceTo(T0.plusSeconds(11));
        List<ObjectTask> fired = tasks.readValuesToList();
        assertThat(fired).singleElement().satisfies(t -> {
            assertThat(t.kind()).isEqualTo("ABORT_MPU");
            assertThat(t.target().objectPath()).isEqualTo(".uploads/u1");
            assertThat(t.action()).isEqualTo("abort-upload");
        });
    }

    @Test
    void shouldNeverFireForAnEntryUnderObjectLockWhateverTheBucketFlag() {
        lifecycle("b", EXPIRE_1_DAY);
        Entry held = Events.object("logs/held", T0, 1, Map.of(S3Layout.LEGAL_HOLD, "ON"));
        event(Events.written("b", held, T0));
        event(Events.written("b", Events.object("logs/retained", T0, 1, Map.of(S3Layout.RETAIN_UNTIL,
                String.valueOf(T0.plusSeconds(30).getEpochSecond()))), T0));
        advanceTo(T0.plusSeconds(20));
        assertThat(tasks.isEmpty()).isTrue();
        assertThat(metrics.total("tidemark.replay.timers.retimed", "expiration_days")).as("both wait").isEqualTo(2);

        // The hold is lifted (an update of the entry): the timer is re-armed from the entry as it is now.
        Entry lifted = held.toBuilder().putExtended(S3Layout.LEGAL_HOLD, com.google.protobuf.ByteString
                .copyFromUtf8("OFF")).build();
        event(Events.record(io.tidemark.messages.pb.MetaLogProto.EventKind.OTHER, "b", "logs/held", "/buckets/b", held,
                lifted, T0.plusSeconds(20)));
        advanceTo(T0.plusSeconds(22));
        assertThat(tasks.readValuesToList()).singleElement().satisfies(t -> {
            assertThat(t.target().objectPath()).isEqualTo("logs/held");
            assertThat(t.details().expectedIdentity()).isEqualTo(ObjectTask.ExpectedIdentity.of(EntryIdentity.of(lifted)));
        });
        advanceTo(T0.plusSeconds(31));
        assertThat(tasks.readValuesToList()).as("the retention ended").singleElement()
                .satisfies(t -> assertThat(t.target().objectPath()).isEqualTo("logs/retained"));
    }

    @Test
    void shouldTreatAReArmRecordAsTheEntryNow() {
        lifecycle("b", EXPIRE_1_DAY);
        Entry listed = Events.object("logs/old", T0.minusSeconds(100), 1, Map.of());
        MetaLogRecord record = Events.rearm("b", listed, T0);
        rearm.pipeInput(ShardPartitioner.key("b", "logs/old"), record);
        advanceTo(T0.plusSeconds(1));
        assertThat(tasks.readValuesToList()).as("already due: fires at the next tick").singleElement()
                .satisfies(t -> assertThat(t.details().dueAt()).isEqualTo(T0.minusSeconds(90)));
    }

    @Test
    void shouldArmANoncurrentTimerFromAReArmRecordWithTheSuccessorTimeTheWalkFound() {
        lifecycle("v", NONCURRENT_1_DAY, "Enabled");
        // An unstamped old version: the walk gives its successor's mtime as the time it became noncurrent.
        Entry v1 = Events.object("v_1", T0.minusSeconds(1000), 1, Map.of());
        MetaLogRecord record = MetaLogRecord.newBuilder(Events.rearm("v", v1, T0)).setDirectory("/buckets/v/doc.versions")
                .setLogicalKey("doc").setRearmRole(io.tidemark.messages.pb.MetaLogProto.RearmRole.NONCURRENT)
                .setNoncurrentSinceNs(io.tidemark.seaweed.EpochNanos.of(T0.plusSeconds(5))).build();
        rearm.pipeInput(ShardPartitioner.key("v", "doc"), record);

        advanceTo(T0.plusSeconds(14));
        assertThat(tasks.readValuesToList()).as("due ten seconds after the successor, not after v1's mtime").isEmpty();
        advanceTo(T0.plusSeconds(16));
        assertThat(tasks.readValuesToList()).singleElement().satisfies(t -> {
            assertThat(t.kind()).isEqualTo("NONCURRENT_DAYS");
            assertThat(t.target()).isEqualTo(new ObjectTask.Target("v", "doc", "1"));
        });
    }

    @Test
    void shouldArmAnUploadTimerFromAReArmRecordOfAnUpload() {
        lifecycle("b", ABORT_1_DAY);
        Entry upload = Events.upload("u1", "big/file", T0);
        MetaLogRecord record = MetaLogRecord.newBuilder(Events.uploadInitiated("b", upload, T0))
                .setKind(io.tidemark.messages.pb.MetaLogProto.EventKind.REARM)
                .setRearmRole(io.tidemark.messages.pb.MetaLogProto.RearmRole.UPLOAD).build();
        rearm.pipeInput(ShardPartitioner.key("b", "big/file"), record);

        advanceTo(T0.plusSeconds(11));
        assertThat(tasks.readValuesToList()).singleElement().satisfies(t -> {
            assertThat(t.kind()).isEqualTo("ABORT_MPU");
            assertThat(t.target().objectPath()).isEqualTo(".uploads/u1");
        });
    }

    @Test
    void shouldFireABacklogAFewTimersPerTick() {
        lifecycle("b", EXPIRE_1_DAY);
        // Five objects of one shard: one stream task holds all their timers.
        int shard = Events.SHARDS.shardOf("b", "logs/0");
        java.util.stream.IntStream.iterate(0, i -> i + 1).mapToObj(i -> "logs/" + i)
                .filter(k -> Events.SHARDS.shardOf("b", k) == shard).limit(5)
                .forEach(k -> event(Events.written("b", Events.object(k, T0, 1, Map.of()), T0)));
        advanceTo(T0.plusSeconds(10));
        assertThat(tasks.readValuesToList()).as("one tick, max.fired.per.tick is 2").hasSize(2);
        advanceTo(T0.plusSeconds(12));
        assertThat(metrics.total("tidemark.replay.timers.fired", "expiration_days")).isEqualTo(5);
    }

    /** v1 is demoted by v2 at T0+3 (the gateway stamps it); NoncurrentDays count from the stamp, not v1's mtime. */
    @Test
    void shouldDeleteANoncurrentVersionOneDayAfterItWasDemoted() {
        lifecycle("v", NONCURRENT_1_DAY, "Enabled");
        Entry v1 = Events.object("v_1", T0.minusSeconds(1000), 1, Map.of());
        Entry v1Demoted = v1.toBuilder().putExtended(S3Layout.NONCURRENT_SINCE_NS, com.google.protobuf.ByteString
                .copyFromUtf8(String.valueOf(T0.plusSeconds(3).getEpochSecond() * 1_000_000_000L))).build();
        Entry v2 = Events.object("v_2", T0.plusSeconds(3), 2, Map.of());
        String dir = "/buckets/v/k" + S3Layout.VERSIONS_SUFFIX;
        event(Events.record(io.tidemark.messages.pb.MetaLogProto.EventKind.VERSION_CREATED, "v", "k", dir, null, v2,
                T0.plusSeconds(3)));
        event(Events.record(io.tidemark.messages.pb.MetaLogProto.EventKind.OTHER, "v", "k", dir, v1, v1Demoted,
                T0.plusSeconds(3)));
        advanceTo(T0.plusSeconds(12));
        assertThat(tasks.isEmpty()).as("a day from demotion, not from v1's old mtime").isTrue();
        advanceTo(T0.plusSeconds(14));
        assertThat(tasks.readValuesToList()).singleElement().satisfies(t -> {
            assertThat(t.kind()).isEqualTo("NONCURRENT_DAYS");
            assertThat(t.target()).isEqualTo(new ObjectTask.Target("v", "k", "1"));
            assertThat(t.action()).isEqualTo("delete-version");
            assertThat(t.details().expectedIdentity()).isEqualTo(ObjectTask.ExpectedIdentity.of(
                    EntryIdentity.of(v1Demoted)));
        });
    }

    @Test
    void shouldLeaveKeepCountRulesToTheWalkerAndCancelOnVersionDelete() {
        lifecycle("v", NONCURRENT_1_DAY.replace("<NoncurrentDays>1</NoncurrentDays>",
                "<NoncurrentDays>1</NoncurrentDays><NewerNoncurrentVersions>2</NewerNoncurrentVersions>"), "Enabled");
        Entry demoted = Events.object("v_1", T0, 1, Map.of(S3Layout.NONCURRENT_SINCE_NS,
                String.valueOf(T0.getEpochSecond() * 1_000_000_000L)));
        String dir = "/buckets/v/k" + S3Layout.VERSIONS_SUFFIX;
        event(Events.record(io.tidemark.messages.pb.MetaLogProto.EventKind.OTHER, "v", "k", dir, null, demoted, T0));
        lifecycle("v", NONCURRENT_1_DAY, "Enabled");
        Entry other = Events.object("v_9", T0, 1, Map.of(S3Layout.NONCURRENT_SINCE_NS,
                String.valueOf(T0.getEpochSecond() * 1_000_000_000L)));
        event(Events.record(io.tidemark.messages.pb.MetaLogProto.EventKind.OTHER, "v", "j", "/buckets/v/j.versions",
                null, other, T0));
        event(Events.record(io.tidemark.messages.pb.MetaLogProto.EventKind.VERSION_DELETED, "v", "j",
                "/buckets/v/j.versions", other, null, T0.plusSeconds(1)));
        advanceTo(T0.plusSeconds(20));
        assertThat(tasks.isEmpty()).isTrue();
    }

    private static final String MARKERS_AND_NONCURRENT = """
            <LifecycleConfiguration><Rule><ID>markers</ID><Filter></Filter><Status>Enabled</Status>\
            <Expiration><ExpiredObjectDeleteMarker>true</ExpiredObjectDeleteMarker></Expiration>\
            <NoncurrentVersionExpiration><NoncurrentDays>1</NoncurrentDays></NoncurrentVersionExpiration>\
            </Rule></LifecycleConfiguration>""";

    private static MetaLogRecord versionEvent(io.tidemark.messages.pb.MetaLogProto.EventKind kind, String key,
                                              Entry oldEntry, Entry newEntry, Instant at) {
        return Events.record(kind, "v", key, "/buckets/v/" + key + S3Layout.VERSIONS_SUFFIX, oldEntry, newEntry, at);
    }

    private static Entry marker(String versionId, Instant at) {
        return Events.object(S3Layout.VERSION_FILE_PREFIX + versionId, at, 0, Map.of(S3Layout.DELETE_MARKER, "true"));
    }

    /**
     * Issue 14: a delete marker becomes latest, so it is offered for removal at once (the gateway refuses while a
     * version lies beneath it); when the version beneath is deleted it is offered again, and once the marker itself
     * is gone nothing is left armed.
     */
    @Test
    void shouldOfferALatestDeleteMarkerAtCreationAndAgainWhenTheVersionBeneathIsDeleted() {
        lifecycle("v", MARKERS_AND_NONCURRENT, "Enabled");
        Entry v1 = Events.object(S3Layout.VERSION_FILE_PREFIX + "1", T0.minusSeconds(100), 5, Map.of());
        Entry m = marker("m", T0);
        event(versionEvent(io.tidemark.messages.pb.MetaLogProto.EventKind.DELETE_MARKER_CREATED, "k", null, m, T0));

        advanceTo(T0.plusSeconds(1));
        ObjectTask first = tasks.readValue();
        assertThat(first.kind()).isEqualTo("EXPIRED_DELETE_MARKER");
        assertThat(first.action()).isEqualTo("delete-version");
        assertThat(first.target()).isEqualTo(new ObjectTask.Target("v", "k", "m"));
        assertThat(first.details().expectedIdentity()).isEqualTo(ObjectTask.ExpectedIdentity.of(EntryIdentity.of(m)));
        assertThat(first.details().ruleId()).isEqualTo("markers");
        assertThat(metrics.pendingByKind()).as("watched after firing").containsEntry("EXPIRED_DELETE_MARKER", 1L);

        advanceTo(T0.plusSeconds(4));
        assertThat(tasks.isEmpty()).as("fired once until something changes beneath it").isTrue();
        event(versionEvent(io.tidemark.messages.pb.MetaLogProto.EventKind.VERSION_DELETED, "k", v1, null,
                T0.plusSeconds(4)));
        advanceTo(T0.plusSeconds(5));
        ObjectTask second = tasks.readValue();
        assertThat(second.target()).isEqualTo(first.target());
        assertThat(second.details().dueAt()).isEqualTo(T0.plusSeconds(4));
        assertThat(second.actionId()).as("a new attempt, not a replay of the first").isNotEqualTo(first.actionId());

        event(versionEvent(io.tidemark.messages.pb.MetaLogProto.EventKind.VERSION_DELETED, "k", m, null,
                T0.plusSeconds(5)));
        advanceTo(T0.plusSeconds(30));
        assertThat(tasks.isEmpty()).isTrue();
        assertThat(metrics.pendingByKind()).containsEntry("EXPIRED_DELETE_MARKER", 0L);
    }

    @Test
    void shouldStopWatchingAMarkerOnceANewVersionIsWrittenOnTopOfIt() {
        lifecycle("v", MARKERS_AND_NONCURRENT, "Enabled");
        Entry v1 = Events.object(S3Layout.VERSION_FILE_PREFIX + "1", T0.minusSeconds(100), 5, Map.of());
        event(versionEvent(io.tidemark.messages.pb.MetaLogProto.EventKind.DELETE_MARKER_CREATED, "k", null,
                marker("m", T0), T0));
        advanceTo(T0.plusSeconds(1));
        assertThat(tasks.readValuesToList()).hasSize(1);

        event(versionEvent(io.tidemark.messages.pb.MetaLogProto.EventKind.VERSION_CREATED, "k", null,
                Events.object(S3Layout.VERSION_FILE_PREFIX + "2", T0.plusSeconds(2), 7, Map.of()), T0.plusSeconds(2)));
        event(versionEvent(io.tidemark.messages.pb.MetaLogProto.EventKind.VERSION_DELETED, "k", v1, null,
                T0.plusSeconds(3)));
        advanceTo(T0.plusSeconds(5));

        assertThat(tasks.isEmpty()).as("the marker is not latest any more").isTrue();
        assertThat(metrics.pendingByKind()).containsEntry("EXPIRED_DELETE_MARKER", 0L);
    }

    @Test
    void shouldArmNoMarkerCandidateWhereNoRuleRemovesMarkers() {
        lifecycle("v", NONCURRENT_1_DAY, "Enabled");
        event(versionEvent(io.tidemark.messages.pb.MetaLogProto.EventKind.DELETE_MARKER_CREATED, "k", null,
                marker("m", T0), T0));
        advanceTo(T0.plusSeconds(5));

        assertThat(tasks.isEmpty()).isTrue();
        assertThat(metrics.pendingByKind()).doesNotContainKey("EXPIRED_DELETE_MARKER");
    }

    private static Entry versionsDirectory(String key, String latest, Instant latestMtime, boolean marker) {
        return Events.object(key + S3Layout.VERSIONS_SUFFIX, T0, 0, Map.of(S3Layout.LATEST_VERSION_ID, latest,
                S3Layout.LATEST_VERSION_MTIME, String.valueOf(latestMtime.getEpochSecond()),
                S3Layout.LATEST_VERSION_IS_DELETE_MARKER, String.valueOf(marker))).toBuilder().setIsDirectory(true)
                .build();
    }

    private static MetaLogRecord flipped(String key, Entry before, Entry after, Instant at) {
        String parent = key.contains("/") ? "/" + key.substring(0, key.lastIndexOf('/')) : "";
        return Events.record(io.tidemark.messages.pb.MetaLogProto.EventKind.LATEST_POINTER_FLIPPED, "v", key,
                "/buckets/v" + parent, before, after, at);
    }

    /**
     * Issue 14: deleting a delete marker (an "undelete") makes the version beneath it latest again without an event
     * of its own; replay-streams asks the walker to walk that key, and the walk's re-arm record arms its expiration
     * (and voids the timer from its demotion). A pointer moved to a newer version, or on a key no Expiration rule
     * reaches, asks for nothing.
     */
    @Test
    void shouldRequestAWalkOfTheKeyWhenAnOlderVersionBecomesLatestAgain() {
        lifecycle("v", EXPIRE_1_DAY.replace("</Expiration>", "</Expiration><NoncurrentVersionExpiration>"
                + "<NoncurrentDays>1</NoncurrentDays></NoncurrentVersionExpiration>"), "Enabled");
        var bucketTasks = driver.createOutputTopic(topics.bucketTasks().name(), Serdes.String().deserializer(),
                topics.bucketTasks().valueSerde().deserializer());
        Entry v1 = Events.object(S3Layout.VERSION_FILE_PREFIX + "1", T0, 5, Map.of());
        Entry v1Demoted = v1.toBuilder().putExtended(S3Layout.NONCURRENT_SINCE_NS, com.google.protobuf.ByteString
                .copyFromUtf8(String.valueOf(T0.plusSeconds(2).getEpochSecond() * 1_000_000_000L))).build();
        Entry m = marker("m", T0.plusSeconds(2));
        Entry pointsAtV1 = versionsDirectory("logs/k", "1", T0, false);
        Entry pointsAtMarker = versionsDirectory("logs/k", "m", T0.plusSeconds(2), true);
        event(versionEvent(io.tidemark.messages.pb.MetaLogProto.EventKind.VERSION_CREATED, "logs/k", null, v1, T0));
        event(versionEvent(io.tidemark.messages.pb.MetaLogProto.EventKind.DELETE_MARKER_CREATED, "logs/k", null, m,
                T0.plusSeconds(2)));
        event(versionEvent(io.tidemark.messages.pb.MetaLogProto.EventKind.OTHER, "logs/k", v1, v1Demoted,
                T0.plusSeconds(2)));
        event(flipped("logs/k", pointsAtV1, pointsAtMarker, T0.plusSeconds(2)));
        assertThat(bucketTasks.isEmpty()).as("a marker on top is timed by its own event").isTrue();

        event(versionEvent(io.tidemark.messages.pb.MetaLogProto.EventKind.VERSION_DELETED, "logs/k", m, null,
                T0.plusSeconds(3)));
        event(flipped("logs/k", pointsAtMarker, pointsAtV1, T0.plusSeconds(3)));

        var walk = bucketTasks.readKeyValue();
        assertThat(walk.key).isEqualTo("v");
        assertThat(walk.value.details().mode()).isEqualTo(io.tidemark.messages.BucketTask.Mode.recovery);
        assertThat(walk.value.details().prefix()).isEqualTo("logs/k");
        assertThat(walk.value.details().scanId()).startsWith("promoted-v-");
        assertThat(bucketTasks.isEmpty()).isTrue();

        // The walk finds v1 latest and re-arms it in that role.
        rearm.pipeInput("v/logs/k", MetaLogRecord.newBuilder(versionEvent(
                        io.tidemark.messages.pb.MetaLogProto.EventKind.REARM, "logs/k", null, v1Demoted,
                        T0.plusSeconds(4)))
                .setRearmRole(io.tidemark.messages.pb.MetaLogProto.RearmRole.CURRENT).build());
        advanceTo(T0.plusSeconds(14));
        assertThat(tasks.readValuesToList()).singleElement().satisfies(t -> {
            assertThat(t.kind()).isEqualTo("EXPIRATION_DAYS");
            assertThat(t.target()).isEqualTo(new ObjectTask.Target("v", "logs/k", ""));
            assertThat(t.details().expectedIdentity()).isEqualTo(ObjectTask.ExpectedIdentity.of(
                    EntryIdentity.of(v1Demoted)));
        });

        Entry v2 = Events.object(S3Layout.VERSION_FILE_PREFIX + "2", T0.plusSeconds(20), 5, Map.of());
        event(versionEvent(io.tidemark.messages.pb.MetaLogProto.EventKind.VERSION_CREATED, "logs/k", null, v2,
                T0.plusSeconds(20)));
        event(flipped("logs/k", pointsAtV1, versionsDirectory("logs/k", "2", T0.plusSeconds(20), false),
                T0.plusSeconds(20)));
        event(flipped("other/k", versionsDirectory("other/k", "9", T0.plusSeconds(5), false),
                versionsDirectory("other/k", "8", T0, false), T0.plusSeconds(21)));
        assertThat(bucketTasks.isEmpty()).as("a newer version on top; a key no rule reaches").isTrue();
    }

    /**
     * A walk listed the object, then it was overwritten; the walk's re-arm record is processed after the overwrite's
     * event (the two topics are not ordered against each other). The older listing must not take the timer back to
     * the entry that is gone, which could only ever NOOP at the gateway and would lose the expiration.
     */
    @Test
    void shouldNotLetAReArmOfAnEarlierListingUndoANewerWrite() {
        lifecycle("b", EXPIRE_1_DAY);
        Entry first = Events.object("logs/a", T0, 1, Map.of());
        Entry second = Events.object("logs/a", T0.plusSeconds(3), 2, Map.of());
        event(Events.written("b", first, T0));
        event(Events.overwritten("b", first, second, T0.plusSeconds(3)));
        rearm.pipeInput("b/logs/a", Events.rearm("b", first, T0.plusSeconds(2)));

        advanceTo(T0.plusSeconds(12));
        assertThat(tasks.isEmpty()).as("not at the first write's due time").isTrue();
        advanceTo(T0.plusSeconds(14));
        assertThat(tasks.readValuesToList()).singleElement().satisfies(t -> assertThat(
                t.details().expectedIdentity()).isEqualTo(ObjectTask.ExpectedIdentity.of(EntryIdentity.of(second))));
        assertThat(metrics.total("tidemark.replay.records.skipped", "stale-rearm")).isEqualTo(1);
    }

    private static final String EXPIRE_AND_NONCURRENT = EXPIRE_1_DAY.replace("</Expiration>", "</Expiration>"
            + "<NoncurrentVersionExpiration><NoncurrentDays>1</NoncurrentDays></NoncurrentVersionExpiration>");

    private static Entry demoted(Entry version, Instant since) {
        return version.toBuilder().putExtended(S3Layout.NONCURRENT_SINCE_NS, com.google.protobuf.ByteString
                .copyFromUtf8(String.valueOf(since.getEpochSecond() * 1_000_000_000L))).build();
    }

    /**
     * Issue 27 item 1: a tag put on a noncurrent version (PutObjectTagging with its version ID) updates that
     * version's file only. It must re-arm that version's own timer with its new identity, and leave the current
     * version's expiration alone.
     */
    @Test
    void shouldReArmOnlyTheTaggedVersionsOwnTimerWhenANoncurrentVersionIsTagged() {
        lifecycle("v", EXPIRE_AND_NONCURRENT, "Enabled");
        Entry v1 = Events.object(S3Layout.VERSION_FILE_PREFIX + "1", T0, 5, Map.of());
        Entry v1Demoted = demoted(v1, T0.plusSeconds(2));
        Entry v1Tagged = v1Demoted.toBuilder().putExtended(S3Layout.TAG_PREFIX + "team",
                com.google.protobuf.ByteString.copyFromUtf8("a")).build();
        Entry v2 = Events.object(S3Layout.VERSION_FILE_PREFIX + "2", T0.plusSeconds(2), 6, Map.of());
        event(versionEvent(io.tidemark.messages.pb.MetaLogProto.EventKind.VERSION_CREATED, "logs/k", null, v1, T0));
        event(versionEvent(io.tidemark.messages.pb.MetaLogProto.EventKind.VERSION_CREATED, "logs/k", null, v2,
                T0.plusSeconds(2)));
        event(versionEvent(io.tidemark.messages.pb.MetaLogProto.EventKind.OTHER, "logs/k", v1, v1Demoted,
                T0.plusSeconds(2)));
        event(flipped("logs/k", versionsDirectory("logs/k", "1", T0, false),
                versionsDirectory("logs/k", "2", T0.plusSeconds(2), false), T0.plusSeconds(2)));
        event(versionEvent(io.tidemark.messages.pb.MetaLogProto.EventKind.TAGS_CHANGED, "logs/k", v1Demoted, v1Tagged,
                T0.plusSeconds(3)));

        advanceTo(T0.plusSeconds(13));
        List<ObjectTask> fired = tasks.readValuesToList();
        assertThat(fired).filteredOn(t -> t.kind().equals("EXPIRATION_DAYS")).singleElement()
                .satisfies(t -> assertThat(t.details().expectedIdentity()).as("the current version, v2")
                        .isEqualTo(ObjectTask.ExpectedIdentity.of(EntryIdentity.of(v2))));
        assertThat(fired).filteredOn(t -> t.kind().equals("NONCURRENT_DAYS")).singleElement().satisfies(t -> {
            assertThat(t.target().versionId()).isEqualTo("1");
            assertThat(t.details().expectedIdentity()).as("v1 as it is since its tagging")
                    .isEqualTo(ObjectTask.ExpectedIdentity.of(EntryIdentity.of(v1Tagged)));
        });
    }

    /** A version whose role this one event cannot tell (no timer knows it) is looked at by a walk of its key. */
    @Test
    void shouldAskForAWalkOfTheKeyWhenAVersionItKnowsNothingAboutIsTagged() {
        lifecycle("v", EXPIRE_AND_NONCURRENT, "Enabled");
        var bucketTasks = driver.createOutputTopic(topics.bucketTasks().name(), Serdes.String().deserializer(),
                topics.bucketTasks().valueSerde().deserializer());
        Entry v7 = Events.object(S3Layout.VERSION_FILE_PREFIX + "7", T0, 5, Map.of());
        Entry v7Tagged = v7.toBuilder().putExtended(S3Layout.TAG_PREFIX + "team",
                com.google.protobuf.ByteString.copyFromUtf8("a")).build();
        event(versionEvent(io.tidemark.messages.pb.MetaLogProto.EventKind.TAGS_CHANGED, "logs/k", v7, v7Tagged, T0));

        assertThat(bucketTasks.readValuesToList()).singleElement().satisfies(w -> {
            assertThat(w.details().prefix()).isEqualTo("logs/k");
            assertThat(w.details().mode()).isEqualTo(io.tidemark.messages.BucketTask.Mode.recovery);
        });
        advanceTo(T0.plusSeconds(20));
        assertThat(tasks.isEmpty()).as("no timer taken from an entry whose role is unknown").isTrue();
    }

    /**
     * Issue 27 item 5: deleting the latest version makes an older one latest again (the pointer flips back); a
     * timer from its demotion must not outlive that, whatever the gateway would answer.
     */
    @Test
    void shouldCancelTheNoncurrentTimerOfAVersionThatIsLatestAgain() {
        lifecycle("v", NONCURRENT_1_DAY, "Enabled");
        Entry v1 = Events.object(S3Layout.VERSION_FILE_PREFIX + "1", T0, 5, Map.of());
        Entry v1Demoted = demoted(v1, T0.plusSeconds(2));
        Entry v2 = Events.object(S3Layout.VERSION_FILE_PREFIX + "2", T0.plusSeconds(2), 6, Map.of());
        Entry pointsAtV1 = versionsDirectory("k", "1", T0, false);
        Entry pointsAtV2 = versionsDirectory("k", "2", T0.plusSeconds(2), false);
        event(versionEvent(io.tidemark.messages.pb.MetaLogProto.EventKind.VERSION_CREATED, "k", null, v1, T0));
        event(versionEvent(io.tidemark.messages.pb.MetaLogProto.EventKind.VERSION_CREATED, "k", null, v2,
                T0.plusSeconds(2)));
        event(versionEvent(io.tidemark.messages.pb.MetaLogProto.EventKind.OTHER, "k", v1, v1Demoted,
                T0.plusSeconds(2)));
        event(flipped("k", pointsAtV1, pointsAtV2, T0.plusSeconds(2)));
        advanceTo(T0.plusSeconds(1));
        assertThat(metrics.pendingByKind()).containsEntry("NONCURRENT_DAYS", 1L);

        event(versionEvent(io.tidemark.messages.pb.MetaLogProto.EventKind.VERSION_DELETED, "k", v2, null,
                T0.plusSeconds(3)));
        event(flipped("k", pointsAtV2, pointsAtV1, T0.plusSeconds(3)));

        advanceTo(T0.plusSeconds(2));
        assertThat(metrics.pendingByKind()).containsEntry("NONCURRENT_DAYS", 0L);
        advanceTo(T0.plusSeconds(20));
        assertThat(tasks.isEmpty()).as("v1 is the current version again").isTrue();
    }

    /** The same for the bare null version, when the pointer is removed in its favour. */
    @Test
    void shouldCancelTheNoncurrentTimerOfTheNullVersionWhenItIsLatestAgain() {
        lifecycle("v", NONCURRENT_1_DAY, "Enabled");
        Entry nullVersion = demoted(Events.object("k", T0.minusSeconds(100), 5, Map.of(S3Layout.VERSION_ID, "null")),
                T0.plusSeconds(2));
        event(Events.record(io.tidemark.messages.pb.MetaLogProto.EventKind.OTHER, "v", "k", "/buckets/v", null,
                nullVersion, T0.plusSeconds(2)));
        advanceTo(T0.plusSeconds(1));
        assertThat(metrics.pendingByKind()).containsEntry("NONCURRENT_DAYS", 1L);

        Entry nullIsLatest = Events.object("k" + S3Layout.VERSIONS_SUFFIX, T0, 0, Map.of(
                S3Layout.NULL_VERSION_IS_LATEST, "true")).toBuilder().setIsDirectory(true).build();
        event(flipped("k", versionsDirectory("k", "2", T0.plusSeconds(2), false), nullIsLatest, T0.plusSeconds(3)));

        advanceTo(T0.plusSeconds(2));
        assertThat(metrics.pendingByKind()).containsEntry("NONCURRENT_DAYS", 0L)
                .as("it waits for its next demotion").containsEntry("NULL_VERSION_WAITING", 1L);
        advanceTo(T0.plusSeconds(20));
        assertThat(tasks.isEmpty()).as("the null version is the current version again").isTrue();
    }

    /** A .versions directory as the filer creates it for a key's first version: no pointer yet. */
    private static Entry freshVersionsDirectory(String key) {
        return Events.object(key + S3Layout.VERSIONS_SUFFIX, T0, 0, Map.of()).toBuilder().setIsDirectory(true).build();
    }

    /**
     * Issue 35 item 1: an object written before versioning is the null version; when a new version demotes it, the
     * gateway does not stamp it (the pointer named no file before). Its noncurrent timer, waiting since its write,
     * is timed from the pointer flip — the creation of its successor — and deletes version "null" a day later.
     */
    @Test
    void shouldTimeANullVersionFromThePointerFlipThatDemotesIt() {
        lifecycle("v", NONCURRENT_1_DAY);
        Entry bare = Events.object("k", T0.minusSeconds(500), 5, Map.of());
        event(Events.record(io.tidemark.messages.pb.MetaLogProto.EventKind.OBJECT_WRITTEN, "v", "k", "/buckets/v", null,
                bare, T0.minusSeconds(500)));
        lifecycle("v", NONCURRENT_1_DAY, "Enabled");
        Entry v1 = Events.object(S3Layout.VERSION_FILE_PREFIX + "1", T0.plusSeconds(2), 6, Map.of());
        event(versionEvent(io.tidemark.messages.pb.MetaLogProto.EventKind.VERSION_CREATED, "k", null, v1,
                T0.plusSeconds(2)));
        event(flipped("k", freshVersionsDirectory("k"), versionsDirectory("k", "1", T0.plusSeconds(2), false),
                T0.plusSeconds(2)));

        advanceTo(T0.plusSeconds(11));
        assertThat(tasks.isEmpty()).as("a day from the demotion, not from the null version's own mtime").isTrue();
        advanceTo(T0.plusSeconds(13));
        assertThat(tasks.readValuesToList()).singleElement().satisfies(t -> {
            assertThat(t.kind()).isEqualTo("NONCURRENT_DAYS");
            assertThat(t.target()).isEqualTo(new ObjectTask.Target("v", "k", "null"));
            assertThat(t.details().expectedIdentity()).isEqualTo(ObjectTask.ExpectedIdentity.of(EntryIdentity.of(bare)));
        });
    }

    /** A key's first version demotes nothing: no null version was written, so nothing is armed. */
    @Test
    void shouldArmNothingWhenAKeysFirstVersionFlipsThePointer() {
        lifecycle("v", NONCURRENT_1_DAY, "Enabled");
        Entry v1 = Events.object(S3Layout.VERSION_FILE_PREFIX + "1", T0, 6, Map.of());
        event(versionEvent(io.tidemark.messages.pb.MetaLogProto.EventKind.VERSION_CREATED, "k", null, v1, T0));
        event(flipped("k", freshVersionsDirectory("k"), versionsDirectory("k", "1", T0, false), T0));
        advanceTo(T0.plusSeconds(30));
        assertThat(tasks.isEmpty()).isTrue();
        assertThat(metrics.pendingByKind().values().stream().mapToLong(Long::longValue).sum()).isZero();
    }

    /**
     * Deleting a noncurrent null version (the bare object) must not cancel the expiration armed for the latest
     * version in .versions: the event is an object delete at the bare path, but the current version is another.
     */
    @Test
    void shouldKeepTheLatestVersionsExpirationWhenTheNoncurrentNullVersionIsDeleted() {
        lifecycle("v", EXPIRE_1_DAY, "Enabled");
        Entry bare = Events.object("logs/k", T0.minusSeconds(500), 5, Map.of());
        Entry v1 = Events.object(S3Layout.VERSION_FILE_PREFIX + "1", T0, 6, Map.of());
        event(Events.record(io.tidemark.messages.pb.MetaLogProto.EventKind.VERSION_CREATED, "v", "logs/k",
                "/buckets/v/logs/k" + S3Layout.VERSIONS_SUFFIX, null, v1, T0));
        event(Events.record(io.tidemark.messages.pb.MetaLogProto.EventKind.OBJECT_DELETED, "v", "logs/k",
                "/buckets/v/logs", bare, null, T0.plusSeconds(1)));
        advanceTo(T0.plusSeconds(11));
        assertThat(tasks.readValuesToList()).singleElement().satisfies(t -> {
            assertThat(t.kind()).isEqualTo("EXPIRATION_DAYS");
            assertThat(t.details().expectedIdentity()).isEqualTo(ObjectTask.ExpectedIdentity.of(EntryIdentity.of(v1)));
        });
    }

    /**
     * Issue 35 item 4: a null delete marker (.versions/v_null) can never be removed by a request (the gateway looks
     * for version "null" at the bare path only): no timer is armed for it, current or noncurrent, and it is counted.
     */
    @Test
    void shouldArmNoTimerForANullDeleteMarker() {
        lifecycle("v", NONCURRENT_1_DAY.replace("</NoncurrentVersionExpiration>",
                "</NoncurrentVersionExpiration><Expiration><ExpiredObjectDeleteMarker>true</ExpiredObjectDeleteMarker>"
                        + "</Expiration>"), "Suspended");
        Entry nullMarker = marker("null", T0);
        event(versionEvent(io.tidemark.messages.pb.MetaLogProto.EventKind.DELETE_MARKER_CREATED, "k", null, nullMarker,
                T0));
        event(versionEvent(io.tidemark.messages.pb.MetaLogProto.EventKind.OTHER, "k", nullMarker,
                demoted(nullMarker, T0.plusSeconds(1)), T0.plusSeconds(1)));
        advanceTo(T0.plusSeconds(30));
        assertThat(tasks.isEmpty()).isTrue();
        assertThat(metrics.pendingByKind().values().stream().mapToLong(Long::longValue).sum()).isZero();
        assertThat(metrics.total("tidemark.replay.records.skipped", "null-delete-marker")).isEqualTo(2);
    }

    /** NoncurrentDays removes noncurrent delete markers too (a marker demoted by a later write is stamped). */
    @Test
    void shouldDeleteANoncurrentDeleteMarkerOneDayAfterItWasDemoted() {
        lifecycle("v", NONCURRENT_1_DAY, "Enabled");
        Entry m = marker("7", T0);
        event(versionEvent(io.tidemark.messages.pb.MetaLogProto.EventKind.OTHER, "k", m, demoted(m, T0.plusSeconds(1)),
                T0.plusSeconds(1)));
        advanceTo(T0.plusSeconds(12));
        assertThat(tasks.readValuesToList()).singleElement().satisfies(t -> {
            assertThat(t.kind()).isEqualTo("NONCURRENT_DAYS");
            assertThat(t.target()).isEqualTo(new ObjectTask.Target("v", "k", "7"));
        });
    }

    /**
     * Issue 27 item 6: a re-arm record is stamped by the bucket processor's clock, a timer by the filer's event time:
     * the two are not compared. What decides is the entries themselves: a listing of an older entry never replaces a
     * newer one, whatever the processor's clock says, and a listing of a newer one always does.
     */
    @Test
    void shouldJudgeAReArmByTheEntriesNotByTheBucketProcessorsClock() {
        lifecycle("b", EXPIRE_1_DAY);
        Entry first = Events.object("logs/a", T0, 1, Map.of());
        Entry second = Events.object("logs/a", T0.plusSeconds(3), 2, Map.of());
        event(Events.written("b", first, T0));
        event(Events.overwritten("b", first, second, T0.plusSeconds(3)));
        // A processor clock far ahead: its listing of the first write still must not take the timer back.
        rearm.pipeInput("b/logs/a", Events.rearm("b", first, T0.plusSeconds(600)));
        advanceTo(T0.plusSeconds(14));
        assertThat(tasks.readValuesToList()).singleElement().satisfies(t -> assertThat(
                t.details().expectedIdentity()).isEqualTo(ObjectTask.ExpectedIdentity.of(EntryIdentity.of(second))));

        // A processor clock far behind: its listing of an entry newer than the timer's (changed behind the
        // meta-log's back) still takes the timer over.
        Entry third = Events.object("logs/b", T0.plusSeconds(20), 1, Map.of());
        Entry fourth = Events.object("logs/b", T0.plusSeconds(22), 3, Map.of());
        event(Events.written("b", third, T0.plusSeconds(20)));
        rearm.pipeInput("b/logs/b", Events.rearm("b", fourth, T0.minusSeconds(600)));
        advanceTo(T0.plusSeconds(33));
        assertThat(tasks.readValuesToList()).singleElement().satisfies(t -> assertThat(
                t.details().expectedIdentity()).isEqualTo(ObjectTask.ExpectedIdentity.of(EntryIdentity.of(fourth))));
    }

    /**
     * Every delete in a lifecycle bucket asks to cancel its object's timer, most often when there is none (it fired,
     * or no rule matched): that must cost a lookup, not a tombstone in the changelogs.
     */
    @Test
    void shouldWriteNothingToTheChangelogsWhenCancellingATimerThatIsNotThere() {
        lifecycle("b", EXPIRE_1_DAY);
        event(Events.deleted("b", Events.object("logs/never-armed", T0, 1, Map.of()), T0));
        event(Events.deleted("b", Events.object("other/no-rule", T0, 1, Map.of()), T0));

        assertThat(driver.producedTopicNames()).noneMatch(topic -> topic.endsWith("-changelog")
                && (topic.contains(TimerStore.INDEX) || topic.contains(TimerStore.TIMERS + "-")));
    }

    /**
     * All the tasks of a stream thread fire in one exactly-once transaction, which Kafka aborts past its timeout:
     * a tick stops firing when its time is up (here each clock reading is 60 ms on, against 200 ms a tick), at
     * least one timer fires, and the rest follow on the next ticks.
     */
    @Test
    void shouldStopFiringWhenTheTicksTimeIsUpAndGoOnAtTheNextTick() {
        TidemarkConfig roomy = new TidemarkConfig(Map.of("shard.bits", "0", "lifecycle.day.seconds", "10",
                "lifecycle.test.mode", "true",
                "lifecycle.due.policy", "exact", "replay-streams.punctuate.interval.ms", "1000",
                "replay-streams.max.fired.per.tick", "100", "replay-streams.max.fire.time.per.tick.ms", "200"));
        // Each clock reading moves 8 ms; a burst's first slice is 25 ms.
        java.util.concurrent.atomic.AtomicLong clock = new java.util.concurrent.atomic.AtomicLong();
        ReplayStreamsMetrics own = new ReplayStreamsMetrics(new SimpleMeterRegistry());
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "replay-budget-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, "target/tmp/topology-test-" + System.nanoTime());
        TopicRegistry single = TopicRegistry.from(roomy);
        try (TopologyTestDriver budgeted = new TopologyTestDriver(ReplayTopology.build(ReplayTopology.Params
                .from(roomy, own).withNanoTime(() -> clock.getAndAdd(8_000_000L))), props, T0)) {
            budgeted.createInputTopic(single.bucketConfigs().name(), Serdes.String().serializer(),
                    single.bucketConfigs().valueSerde().serializer()).pipeInput("b", new BucketConfig("b", "Off",
                    false, EXPIRE_1_DAY, "h", null, null));
            TestInputTopic<String, MetaLogRecord> input = budgeted.createInputTopic(single.metaLog().name(),
                    Serdes.String().serializer(), single.metaLog().valueSerde().serializer());
            for (int i = 0; i < 10; i++) {
                Entry entry = Events.object("logs/o" + i, T0, 1, Map.of());
                input.pipeInput("b/logs/o" + i, Events.written("b", entry, T0));
            }
            TestOutputTopic<String, ObjectTask> out = budgeted.createOutputTopic(single.objectTasks().name(),
                    Serdes.String().deserializer(), single.objectTasks().valueSerde().deserializer());

            budgeted.advanceWallClockTime(Duration.ofSeconds(10));
            assertThat(out.readValuesToList()).as("a burst's first slice, 25 ms: three timers").hasSize(3);
            assertThat(own.total("tidemark.replay.ticks.cut", "time")).isEqualTo(1);
            for (int tick = 0; tick < 4; tick++) {
                budgeted.advanceWallClockTime(Duration.ofSeconds(1));
            }
            assertThat(own.total("tidemark.replay.timers.fired", "expiration_days")).isEqualTo(10);
        }
    }

    private TestOutputTopic<String, io.tidemark.messages.BucketTask> bucketTasks() {
        return driver.createOutputTopic(topics.bucketTasks().name(), Serdes.String().deserializer(),
                topics.bucketTasks().valueSerde().deserializer());
    }

    private TestOutputTopic<String, byte[]> deadTimers() {
        return driver.createOutputTopic(topics.replayStreamsDlq().name(), Serdes.String().deserializer(),
                Serdes.ByteArray().deserializer());
    }

    /** A timer whose bytes cannot be decoded, stored as a corrupted changelog record would leave it. */
    private void undecodableTimer(Instant due, String timerId) {
        org.apache.kafka.streams.state.KeyValueStore<org.apache.kafka.common.utils.Bytes, byte[]> timers =
                driver.getKeyValueStore(TimerStore.TIMERS);
        timers.put(TimerStore.key(due, timerId), new byte[] {1, (byte) 0xFF});
    }

    /**
     * Issue 43 item 6 (invariant 6, a skip is never a loss): a timer that cannot be decoded is moved aside to
     * replay-streams.dlq so the rest of its task fires, and its object's expiration must not go with it. Its id names
     * its bucket and key (a key may hold '#' and '/'), so a recovery walk of that key is asked for: the walk's listing
     * re-arms the timer, or acts at once if it is due.
     */
    @Test
    void shouldAskForAWalkOfTheKeyOfATimerMovedAsideBecauseItCannotBeDecoded() {
        lifecycle("b", EXPIRE_1_DAY);
        var bucketTasks = bucketTasks();
        var dead = deadTimers();
        undecodableTimer(T0, "b/logs/a#1/x.log#EXPIRATION_DAYS");

        advanceTo(T0.plusSeconds(2));

        assertThat(dead.readKeyValuesToList()).extracting(kv -> kv.key).containsExactly("b/logs/a#1/x.log#EXPIRATION_DAYS");
        assertThat(bucketTasks.readKeyValuesToList()).as("a recovery walk of the timer's key").singleElement()
                .satisfies(walk -> {
                    assertThat(walk.key).isEqualTo("b");
                    assertThat(walk.value.action()).isEqualTo(io.tidemark.messages.BucketTask.PROCESS_BUCKET);
                    assertThat(walk.value.target().bucket()).isEqualTo("b");
                    assertThat(walk.value.details().mode()).isEqualTo(io.tidemark.messages.BucketTask.Mode.recovery);
                    assertThat(walk.value.details().prefix()).isEqualTo("logs/a#1/x.log");
                    assertThat(walk.value.details().marker()).isNull();
                    assertThat(walk.value.details().scanId()).startsWith("moved-aside-b-");
                });
        assertThat(metrics.total("tidemark.replay.timers.moved.aside", "unreadable-or-failed")).isEqualTo(1);
        assertThat(metrics.total("tidemark.replay.walks.requested", "moved-aside")).isEqualTo(1);

        advanceTo(T0.plusSeconds(5));
        assertThat(bucketTasks.isEmpty()).as("asked for once: the timer left the store").isTrue();
    }

    /**
     * Issue 43 item 6: an upload's timer id names the upload's directory, not its key, and a walk of a prefix never
     * lists {@code .uploads}: a walk of the whole bucket finds it again (once per tick, however many uploads). An id
     * whose kind cannot be read falls back to the same; one that names no bucket, or a bucket with no lifecycle
     * configuration now, gets only the dead letter, the metric and the log line.
     */
    @Test
    void shouldAskForAWalkOfTheWholeBucketForAnUploadOrACorruptIdAndNoneWithoutABucket() {
        TidemarkConfig roomy = new TidemarkConfig(Map.of("shard.bits", "0", "lifecycle.day.seconds", "10",
                "lifecycle.test.mode", "true",
                "lifecycle.due.policy", "exact", "replay-streams.punctuate.interval.ms", "1000"));
        ReplayStreamsMetrics own = new ReplayStreamsMetrics(new SimpleMeterRegistry());
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "replay-moved-aside-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, "target/tmp/topology-test-" + System.nanoTime());
        TopicRegistry single = TopicRegistry.from(roomy);
        // A clock that stands still: the tick is never cut, so every timer below is met in one tick.
        try (TopologyTestDriver own0 = new TopologyTestDriver(ReplayTopology.build(ReplayTopology.Params
                .from(roomy, own).withNanoTime(() -> 0L)), props, T0)) {
            var configsIn = own0.createInputTopic(single.bucketConfigs().name(), Serdes.String().serializer(),
                    single.bucketConfigs().valueSerde().serializer());
            for (String bucket : List.of("b", "c")) {
                configsIn.pipeInput(bucket, new BucketConfig(bucket, "Off", false, ABORT_1_DAY, "h", null, null));
            }
            var walks = own0.createOutputTopic(single.bucketTasks().name(), Serdes.String().deserializer(),
                    single.bucketTasks().valueSerde().deserializer());
            var dead = own0.createOutputTopic(single.replayStreamsDlq().name(), Serdes.String().deserializer(),
                    Serdes.ByteArray().deserializer());
            org.apache.kafka.streams.state.KeyValueStore<org.apache.kafka.common.utils.Bytes, byte[]> timers =
                    own0.getKeyValueStore(TimerStore.TIMERS);
            List<String> ids = List.of(TimerPlanner.uploadTimerId("b", ".uploads/u1"),
                    TimerPlanner.uploadTimerId("b", ".uploads/u2"), "c/garbage", "gone/logs/a#EXPIRATION_DAYS",
                    "no bucket here");
            for (String id : ids) {
                timers.put(TimerStore.key(T0, id), new byte[] {1, (byte) 0xFF});
            }

            own0.advanceWallClockTime(Duration.ofSeconds(1));

            assertThat(dead.readKeyValuesToList()).extracting(kv -> kv.key).containsExactlyInAnyOrderElementsOf(ids);
            assertThat(walks.readKeyValuesToList()).allSatisfy(walk -> {
                assertThat(walk.value.details().mode()).isEqualTo(io.tidemark.messages.BucketTask.Mode.recovery);
                assertThat(walk.value.details().prefix()).as("the whole bucket").isEmpty();
                assertThat(walk.value.details().scanId()).startsWith("moved-aside-" + walk.key + "-");
            }).extracting(walk -> walk.key).as("one walk of b for both uploads, one of c; none of gone, which has no "
                    + "lifecycle configuration, nor for the id without a bucket").containsExactlyInAnyOrder("b", "c");
            assertThat(own.total("tidemark.replay.timers.moved.aside", "unreadable-or-failed")).isEqualTo(5);
            assertThat(own.total("tidemark.replay.walks.requested", "moved-aside")).isEqualTo(2);
        }
    }

    @Test
    void shouldSkipAPoisonRecordAndGoOn() {
        lifecycle("b", EXPIRE_1_DAY);
        rawMetaLog.pipeInput("b/logs/x", "not protobuf at all".getBytes(StandardCharsets.UTF_8));
        event(Events.written("b", Events.object("logs/a", T0, 1, Map.of()), T0));
        advanceTo(T0.plusSeconds(11));
        assertThat(tasks.readValuesToList()).hasSize(1);
    }

    /**
     * Issue 29 (invariant 7): timers fell due by the replay host's clock, so a host ahead of the filer fired them
     * early (the object processor then dropped them as not due: lost expirations). They fall due by the filer's clock.
     */
    @Test
    void shouldFireTimersByTheFilersClockWhenThisHostRunsAhead() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "replay-skew-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, "target/tmp/topology-test-" + System.nanoTime());
        // This host's clock is 5 s (half a lifecycle day) ahead of the filer's.
        try (TopologyTestDriver ahead = new TopologyTestDriver(ReplayTopology.build(ReplayTopology.Params
                .from(config, metrics).withFilerOffset(() -> -5_000L)), props, T0.plusSeconds(5))) {
            ahead.createInputTopic(topics.bucketConfigs().name(), Serdes.String().serializer(),
                    topics.bucketConfigs().valueSerde().serializer()).pipeInput("b", new BucketConfig("b", "Off",
                    false, EXPIRE_1_DAY, "h", null, null));
            ahead.createInputTopic(topics.metaLog().name(), Serdes.String().serializer(),
                    topics.metaLog().valueSerde().serializer()).pipeInput("b/logs/a",
                    Events.written("b", Events.object("logs/a", T0, 1, Map.of()), T0));
            TestOutputTopic<String, ObjectTask> out = ahead.createOutputTopic(topics.objectTasks().name(),
                    Serdes.String().deserializer(), topics.objectTasks().valueSerde().deserializer());

            for (int second = 0; second < 9; second++) {
                ahead.advanceWallClockTime(Duration.ofSeconds(1));
            }
            assertThat(out.isEmpty()).as("due at T0 + 10 s on the filer's clock: not at T0 + 9 s on it (T0 + 14 s "
                    + "on this host's)").isTrue();
            ahead.advanceWallClockTime(Duration.ofSeconds(2));
            assertThat(out.readValuesToList()).singleElement()
                    .satisfies(task -> assertThat(task.details().dueAt()).isEqualTo(T0.plusSeconds(10)));
        }
    }
}
