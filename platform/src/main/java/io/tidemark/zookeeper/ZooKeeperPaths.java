package io.tidemark.zookeeper;

/**
 * Every ZooKeeper path Tidemark uses, relative to the configured chroot (a Curator namespace, {@code /tidemark}
 * by default).
 */
public final class ZooKeeperPaths {

    /** The registry of lifecycle-enabled buckets: one child per bucket, its value JSON with the rule-set hash. */
    public static final String BUCKETS = "/lifecycle/data/buckets";
    /**
     * The {@code lifecycle.*} settings every service must share, as the first service to start recorded them
     * ({@link LifecycleSettings}); removed by {@code tidemark lifecycle settings --reset}.
     */
    public static final String LIFECYCLE_SETTINGS = "/lifecycle/settings";
    /** The populator instances' leader latch: only the leader tails the meta-log. */
    public static final String POPULATOR_LEADER = "/lifecycle/populator/leader";
    /** The conductor's lock, so overlapping cron runs never seed a walk twice. */
    public static final String CONDUCTOR_LOCK = "/lifecycle/conductor/lock";
    /** The conductor's last pass, whatever its outcome ({@link ConductorPassRecord}). */
    public static final String CONDUCTOR_LAST_PASS = "/lifecycle/conductor/last-pass";
    /** One ephemeral node per running replay-streams instance with its pending timers, for {@code tidemark status}. */
    public static final String REPLAY_INSTANCES = "/lifecycle/replay/instances";
    /** When each bucket was last walked, for walker freshness in {@code tidemark status}. */
    public static final String WALKS = "/lifecycle/data/walks";
    /** What operators set: the cluster pause, and per bucket a pause or a dry run ({@link LifecycleControls}). */
    public static final String CONTROL = "/lifecycle/control";
    /** Present while the whole cluster is paused. */
    public static final String CLUSTER_PAUSE = CONTROL + "/cluster-paused";
    /** One child per paused bucket. */
    public static final String PAUSED_BUCKETS = CONTROL + "/paused";
    /** One child per bucket in dry run. */
    public static final String DRY_RUN_BUCKETS = CONTROL + "/dry-run";
    /** One child per bucket whose tasks were only recorded (paused, dry run) and which is owed a recovery walk. */
    public static final String OWED_WALKS = CONTROL + "/owed-walks";

    private ZooKeeperPaths() {
    }

    public static String bucket(String bucket) {
        if (bucket.isEmpty() || bucket.contains("/")) {
            throw new IllegalArgumentException("\"" + bucket + "\" is not a bucket name");
        }
        return BUCKETS + "/" + bucket;
    }

    public static String pausedBucket(String bucket) {
        return PAUSED_BUCKETS + "/" + bucket(bucket).substring(BUCKETS.length() + 1);
    }

    public static String dryRunBucket(String bucket) {
        return DRY_RUN_BUCKETS + "/" + bucket(bucket).substring(BUCKETS.length() + 1);
    }

    public static String owedWalk(String bucket) {
        return OWED_WALKS + "/" + bucket(bucket).substring(BUCKETS.length() + 1);
    }

    public static String walk(String bucket) {
        return WALKS + "/" + bucket;
    }
}
