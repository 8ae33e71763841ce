package io.tidemark.zookeeper;

import io.tidemark.lifecycle.config.LifecycleConfigException;
import io.tidemark.lifecycle.engine.RuleReader;
import io.tidemark.lifecycle.engine.RuleSet;
import io.tidemark.messages.BucketConfig;
import java.util.Optional;

/**
 * The value of a bucket's node in the ZooKeeper registry: enough for the conductor to decide what to walk and for
 * operators to see at a glance which buckets are invalid.
 *
 * @param invalidCode S3's error code when the lifecycle XML is invalid, else {@code null}
 * @param walked      whether the bucket's rules need periodic walks (a kind no timer covers); {@code null} in nodes
 *                    written before the field existed, which are walked to be safe
 */
public record RegistryEntry(String ruleSetHash, String versioning, boolean objectLock, String invalidCode,
                            Boolean walked) {

    public RegistryEntry(String ruleSetHash, String versioning, boolean objectLock, String invalidCode) {
        this(ruleSetHash, versioning, objectLock, invalidCode, null);
    }

    /** The registry's view of a bucket's configuration, its rules read the way the services read them. */
    public static RegistryEntry of(BucketConfig config, RuleReader reader) {
        return new RegistryEntry(config.ruleSetHash(), config.versioning(), config.objectLock(), config.invalidCode(),
                config.invalidCode() == null && needsWalks(config, reader));
    }

    /**
     * The registry's view of a configuration whose rules are already compiled ({@code null}: the configuration is
     * invalid), so they are not read a second time.
     */
    public static RegistryEntry of(BucketConfig config, RuleSet rules) {
        return new RegistryEntry(config.ruleSetHash(), config.versioning(), config.objectLock(), config.invalidCode(),
                config.invalidCode() == null && rules != null && rules.needsWalks());
    }

    /** Whether the conductor should seed steady walks of this bucket. */
    public boolean walkable() {
        return invalidCode == null && (walked == null || walked);
    }

    /**
     * Whether the bucket of a registry node, as {@link LifecycleBuckets#readAll} gives it, is walked. A node that
     * cannot be read is, to be safe: the walker takes the rules from bucket-configs, not from the node, and the
     * populator's reconcile rewrites it.
     */
    public static boolean walked(Optional<RegistryEntry> node) {
        return node.map(RegistryEntry::walkable).orElse(true);
    }

    private static boolean needsWalks(BucketConfig config, RuleReader reader) {
        if (config.lifecycleXml() == null) {
            return false;
        }
        try {
            return reader.read(config.lifecycleXml()).needsWalks();
        } catch (LifecycleConfigException | RuntimeException e) {
            return false;
        }
    }
}
