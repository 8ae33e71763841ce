package io.tidemark.zookeeper;

/**
 * Every ZooKeeper path Tidemark uses, relative to the configured chroot (a Curator namespace, {@code /tidemark}
 * by default).
 */
public final class ZooKeeperPaths {

    /** The registry of lifecycle-enabled buckets: one child per bucket, its value JSON with the rule-set hash. */
    public static final String BUCKETS = "/lifecycle/data/buckets";
    /** The populator instances' leader latch: only the leader tails the meta-log. */
    public static final String POPULATOR_LEADER = "/lifecycle/populator/leader";
    /** The conductor's lock, so overlapping cron runs never seed a walk twice. */
    public static final String CONDUCTOR_LOCK = "/lifecycle/conductor/lock";
    /** One ephemeral node per running replay-streams instance with its pending timers, for {@code tidemark status}. */
    public static final String REPLAY_INSTANCES = "/lifecycle/replay/instances";
    /** When each bucket was last walked, for walker freshness in {@code tidemark status}. */
    public static final String WALKS = "/lifecycle/data/walks";

    private ZooKeeperPaths() {
    }

    public static String bucket(String bucket) {
        if (bucket.isEmpty() || bucket.contains("/")) {
            throw new IllegalArgumentException("\"" + bucket + "\" is not a bucket name");
        }
        return BUCKETS + "/" + bucket;
    }

    public static String walk(String bucket) {
        return WALKS + "/" + bucket;
    }
}
