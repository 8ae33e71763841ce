package io.tidemark.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.messages.BucketTask;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Issue 43 item 6: the walk asked for in place of a timer moved aside is found from the timer's id alone (its value may
 * be unreadable). Keys may hold '#' and '/', and even a kind's name; bucket names hold no '/'.
 */
class MovedAsideWalkTest {

    /** Keys with what an id's parts are split on, in every place. */
    private static final List<String> AWKWARD_KEYS = List.of("plain", "a/b/c.txt", "a#b", "#lead", "trail#", "a##b",
            "x/y#z/w#", "dir/#/file", "k#EXPIRATION_DAYS", "k#v1#NONCURRENT_DAYS", "k#ABORT_MPU/more", "ключ#🙂/x",
            ".uploads/looks-like-an-upload", "/leading-slash", "a b#c d");

    private static BucketTask walk(String timerId) {
        Optional<TimerPlanner.Walk> walk = TimerPlanner.walkOfTimer(timerId, "0-1000-abc");
        assertThat(walk).as(timerId).isPresent();
        return walk.get().task();
    }

    private static String prefixOf(String timerId) {
        BucketTask task = walk(timerId);
        assertThat(task.target().bucket()).as(timerId).isEqualTo("bkt");
        return task.details().prefix();
    }

    @Test
    void shouldWalkTheKeyOfACurrentVersionOrMarkerTimerWhateverTheKeyHolds() {
        for (String key : AWKWARD_KEYS) {
            assertThat(prefixOf(TimerPlanner.currentTimerId("bkt", key))).as("expiration of " + key).isEqualTo(key);
            assertThat(prefixOf(TimerPlanner.markerTimerId("bkt", key))).as("marker of " + key).isEqualTo(key);
        }
    }

    @Test
    void shouldWalkTheKeyOfANoncurrentTimerWhateverTheKeyHolds() {
        for (String key : AWKWARD_KEYS) {
            for (String version : List.of("3f8a01c2d4e5b6a7", "null", "v-1.2_3")) {
                assertThat(prefixOf(TimerPlanner.noncurrentTimerId("bkt", key, version)))
                        .as("version " + version + " of " + key).isEqualTo(key);
            }
            assertThat(prefixOf(TimerPlanner.nullVersionTimerId("bkt", key))).isEqualTo(key);
        }
    }

    /**
     * An upload's id names its directory, not its destination key; a walk of a prefix never lists {@code .uploads}
     * (it lists only the names on the prefix's path, and matches uploads by their destination key), so only a walk of
     * the whole bucket finds the upload again.
     */
    @Test
    void shouldWalkTheWholeBucketForAnUpload() {
        assertThat(prefixOf(TimerPlanner.uploadTimerId("bkt", ".uploads/0f1e2d3c-upload"))).isEmpty();
        assertThat(prefixOf(TimerPlanner.uploadTimerId("bkt", ".uploads/odd#id"))).isEmpty();
    }

    @Test
    void shouldFallBackToAWalkOfTheWholeBucketWhenOnlyTheBucketCanBeRead() {
        for (String corrupt : List.of("bkt/garbage", "bkt/", "bkt/k#NOT_A_KIND", "bkt/k#NONCURRENT_DAYS",
                "bkt/k#expiration_days", "bkt/#EXPIRATION_DAYS", "bkt/k#EXPIRATION_DAYS ")) {
            assertThat(prefixOf(corrupt)).as(corrupt).isEmpty();
        }
    }

    @Test
    void shouldAskForNoWalkWhenTheIdNamesNoBucket() {
        for (String corrupt : List.of("", "no-slash-at-all", "/k#EXPIRATION_DAYS", "a#b/k#EXPIRATION_DAYS",
                "\uFFFD\uFFFD/k#EXPIRATION_DAYS", "b\u0000x/k#EXPIRATION_DAYS", "my bucket/k#EXPIRATION_DAYS")) {
            assertThat(TimerPlanner.walkOfTimer(corrupt, "0-1000-abc")).as(corrupt).isEmpty();
        }
    }

    @Test
    void shouldAskForARecoveryWalkFromItsStartWithAScanIdOfItsOwn() {
        BucketTask task = walk("my.bucket-1/a#b/c#EXPIRATION_DAYS");
        assertThat(task.action()).isEqualTo(BucketTask.PROCESS_BUCKET);
        assertThat(task.target().bucket()).isEqualTo("my.bucket-1");
        assertThat(task.details().mode()).isEqualTo(BucketTask.Mode.recovery);
        assertThat(task.details().prefix()).isEqualTo("a#b/c");
        assertThat(task.details().marker()).isNull();
        assertThat(task.details().versions()).isNull();
        assertThat(task.details().scanId()).isEqualTo("moved-aside-my.bucket-1-0-1000-abc");
    }
}
