package io.tidemark.populator;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.emulator.filer.FilerStore;
import io.tidemark.emulator.s3.S3Gateway;
import io.tidemark.lifecycle.config.ValidationMode;
import io.tidemark.lifecycle.engine.BucketVersioning;
import io.tidemark.lifecycle.engine.LifecycleCalendar;
import io.tidemark.lifecycle.engine.RuleReader;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import io.tidemark.zookeeper.RegistryEntry;
import java.time.Clock;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class BucketConfigTrackerTest {

    private static final String THIRTY_DAYS = "<LifecycleConfiguration><Rule><ID>logs</ID><Filter><Prefix>logs/</Prefix>"
            + "</Filter><Status>Enabled</Status><Expiration><Days>30</Days></Expiration></Rule></LifecycleConfiguration>";

    private final FilerStore store = FilerStore.inMemory(Clock.systemUTC(), 1);
    private final S3Gateway s3 = new S3Gateway(store, "/buckets");
    private final BucketConfigTracker tracker = new BucketConfigTracker(RuleReader.aws());

    @BeforeEach
    void bucket() {
        s3.createBucket("b", false);
    }

    private Optional<BucketConfigChange> observe() {
        Entry entry = store.lookup("/buckets", "b").orElse(null);
        return tracker.apply("b", entry);
    }

    @Test
    void shouldIgnoreABucketWithoutLifecycleConfiguration() {
        assertThat(observe()).isEmpty();
        assertThat(tracker.size()).isZero();
    }

    @Test
    void shouldRegisterANewConfigurationAndAskForARecoveryWalk() {
        s3.putLifecycle("b", THIRTY_DAYS);
        BucketConfigChange change = observe().orElseThrow();
        assertThat(change.recovery()).isTrue();
        assertThat(change.config().ruleSetHash()).hasSize(64).isNotEqualTo("0".repeat(64));
        assertThat(change.config().versioning()).isEqualTo("Off");
        assertThat(observe()).as("the same entry again changes nothing").isEmpty();
    }

    @Test
    void shouldKeepTheRulesOfABucketWithAKeepCountWithoutDaysOnlyInTheSeaweedfsMode() {
        String keepOnly = "<LifecycleConfiguration><Rule><ID>k</ID><Filter/><Status>Enabled</Status>"
                + "<NoncurrentVersionExpiration><NewerNoncurrentVersions>3</NewerNoncurrentVersions>"
                + "</NoncurrentVersionExpiration></Rule></LifecycleConfiguration>";
        s3.putLifecycle("b", keepOnly);
        Entry entry = store.lookup("/buckets", "b").orElseThrow();

        var aws = tracker.apply("b", entry).orElseThrow().config();
        assertThat(aws.invalidCode()).isEqualTo("MalformedXML");
        assertThat(RegistryEntry.of(aws, RuleReader.aws()).walkable()).isFalse();

        RuleReader seaweedfs = new RuleReader(ValidationMode.SEAWEEDFS, LifecycleCalendar.aws());
        var accepted = new BucketConfigTracker(seaweedfs).apply("b", entry).orElseThrow().config();
        assertThat(accepted.invalidCode()).isNull();
        assertThat(RegistryEntry.of(accepted, seaweedfs).walkable()).as("a rank rule needs walks").isTrue();
    }

    @Test
    void shouldCarryTheRegistryNodeReadFromTheSameRulesAsTheConfiguration() {
        String walked = "<LifecycleConfiguration><Rule><ID>d</ID><Filter/><Status>Enabled</Status><Expiration>"
                + "<Date>2030-01-01T00:00:00Z</Date></Expiration></Rule></LifecycleConfiguration>";
        s3.putLifecycle("b", walked);
        BucketConfigChange change = observe().orElseThrow();
        assertThat(change.entry()).as("the node as the reader derives it").isEqualTo(RegistryEntry.of(change.config(),
                RuleReader.aws())).extracting(RegistryEntry::walkable).isEqualTo(true);
        assertThat(tracker.entry("b")).contains(change.entry());

        s3.putLifecycle("b", "<LifecycleConfiguration><Rule><ID>u</ID><Filter/><Status>Enabled</Status>"
                + "<AbortIncompleteMultipartUpload><DaysAfterInitiation>3</DaysAfterInitiation>"
                + "</AbortIncompleteMultipartUpload></Rule></LifecycleConfiguration>");
        BucketConfigChange timed = observe().orElseThrow();
        assertThat(timed.entry().walkable()).as("timers cover uploads: no steady walks").isFalse();

        BucketConfigTracker restarted = new BucketConfigTracker(RuleReader.aws());
        restarted.remember(timed.config());
        assertThat(restarted.entry("b")).as("a remembered configuration gets its node when asked").contains(timed.entry());
        assertThat(restarted.entry("missing")).isEmpty();
        s3.putLifecycle("b", walked);
        assertThat(restarted.apply("b", store.lookup("/buckets", "b").orElseThrow())).isPresent();
        assertThat(restarted.entry("b").orElseThrow().walkable()).as("replaced with the new rules' node").isTrue();
    }

    @Test
    void shouldWalkAgainWhenTheRulesChangeButNotWhenARuleIsOnlyRenamed() {
        s3.putLifecycle("b", THIRTY_DAYS);
        observe();
        s3.putLifecycle("b", THIRTY_DAYS.replace("<ID>logs</ID>", "<ID>renamed</ID>"));
        BucketConfigChange renamed = observe().orElseThrow();
        assertThat(renamed.recovery()).isFalse();
        s3.putLifecycle("b", THIRTY_DAYS.replace("<Days>30</Days>", "<Days>7</Days>"));
        assertThat(observe().orElseThrow().recovery()).isTrue();
        s3.setVersioning("b", BucketVersioning.ENABLED);
        BucketConfigChange versioning = observe().orElseThrow();
        assertThat(versioning.recovery()).isFalse();
        assertThat(versioning.config().versioning()).isEqualTo("Enabled");
    }

    /**
     * While a bucket's versioning is Suspended, the gateway's LifecycleDelete cannot expire a current version kept in
     * .versions (it reads the bare null version): such a task is parked. Versioning Enabled again makes it expirable,
     * and no timer is left to do it: the bucket is walked again.
     */
    @Test
    void shouldWalkAgainWhenVersioningIsEnabledAfterBeingSuspended() {
        s3.putLifecycle("b", THIRTY_DAYS);
        observe();
        s3.setVersioning("b", BucketVersioning.ENABLED);
        assertThat(observe().orElseThrow().recovery()).as("never versioned, then Enabled").isFalse();
        s3.setVersioning("b", BucketVersioning.SUSPENDED);
        assertThat(observe().orElseThrow().recovery()).as("Suspended").isFalse();
        s3.setVersioning("b", BucketVersioning.ENABLED);
        BucketConfigChange resumed = observe().orElseThrow();
        assertThat(resumed.recovery()).as("Enabled again").isTrue();
        assertThat(resumed.config().versioning()).isEqualTo("Enabled");
    }

    @Test
    void shouldMarkInvalidXmlWithTheS3ErrorCodeAndWalkOnceItIsFixed() {
        s3.putLifecycleUnchecked("b", "<LifecycleConfiguration><Rule><ID>x</ID></Rule></LifecycleConfiguration>");
        BucketConfigChange invalid = observe().orElseThrow();
        assertThat(invalid.recovery()).isFalse();
        assertThat(invalid.config().invalidCode()).isEqualTo("MalformedXML");
        assertThat(invalid.config().invalidMessage()).contains("rule 1");
        s3.putLifecycle("b", THIRTY_DAYS);
        assertThat(observe().orElseThrow().recovery()).isTrue();
    }

    @Test
    void shouldRemoveTheBucketWhenItsConfigurationOrTheBucketGoes() {
        s3.putLifecycle("b", THIRTY_DAYS);
        observe();
        s3.deleteLifecycle("b");
        assertThat(observe().orElseThrow().removed()).isTrue();
        s3.putLifecycle("b", THIRTY_DAYS);
        observe();
        s3.deleteBucket("b");
        assertThat(observe().orElseThrow().removed()).isTrue();
        assertThat(tracker.size()).isZero();
    }

    @Test
    void shouldNotWalkAgainAfterARestartThatRemembersTheSameRules() {
        s3.putLifecycle("b", THIRTY_DAYS);
        var config = observe().orElseThrow().config();
        BucketConfigTracker restarted = new BucketConfigTracker(RuleReader.aws());
        restarted.remember(config);
        assertThat(restarted.apply("b", store.lookup("/buckets", "b").orElseThrow())).isEmpty();
    }

    @Test
    void shouldCountInvalidConfigurationsAsTheyComeAndGo() {
        s3.putLifecycleUnchecked("b", "not xml");
        observe();
        assertThat(tracker.invalidCount()).isEqualTo(1);
        s3.putLifecycleUnchecked("b", "<still/>not xml");
        observe();
        assertThat(tracker.invalidCount()).as("invalid replaced by invalid").isEqualTo(1);
        s3.putLifecycle("b", THIRTY_DAYS);
        observe();
        assertThat(tracker.invalidCount()).isZero();
        s3.putLifecycleUnchecked("b", "not xml");
        observe();
        s3.deleteBucket("b");
        observe();
        assertThat(tracker.invalidCount()).isZero();
        assertThat(tracker.size()).isZero();
    }
}
