package io.tidemark.messages;

import com.google.protobuf.ByteString;
import io.tidemark.lifecycle.config.LifecycleConfigException;
import io.tidemark.lifecycle.engine.RuleReader;
import io.tidemark.lifecycle.engine.RuleSet;
import io.tidemark.seaweed.S3Layout;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import java.util.HexFormat;
import java.util.Optional;

/** Reads a bucket's lifecycle-relevant configuration from its filer entry, as the S3 gateway stores it. */
public final class BucketEntryConfig {

    private BucketEntryConfig() {
    }

    /**
     * @return the configuration, or empty when the entry holds no lifecycle XML; invalid XML gives a configuration
     *         with S3's error code and no rule-set hash
     */
    public static Optional<BucketConfig> read(String bucket, Entry entry, RuleReader reader) {
        return compile(bucket, entry, reader).map(Compiled::config);
    }

    /**
     * The configuration with the rules it was read from, for callers that need both: compiling a rule set costs
     * far more than everything else done per bucket, so it is done once.
     */
    public static Optional<Compiled> compile(String bucket, Entry entry, RuleReader reader) {
        Optional<String> document = lifecycleXml(entry);
        if (document.isEmpty()) {
            return Optional.empty();
        }
        String xml = document.get();
        String versioning = versioning(entry);
        boolean locked = S3Layout.enabled(text(entry, S3Layout.OBJECT_LOCK_ENABLED));
        try {
            RuleSet rules = reader.read(xml);
            String hash = HexFormat.of().formatHex(rules.replayContentHash(bucket));
            return Optional.of(new Compiled(new BucketConfig(bucket, versioning, locked, xml, hash, null, null),
                    rules));
        } catch (LifecycleConfigException e) {
            return Optional.of(new Compiled(new BucketConfig(bucket, versioning, locked, xml, "", e.code().name(),
                    e.getMessage()), null));
        }
    }

    /**
     * A bucket's configuration and its compiled rules.
     *
     * @param rules {@code null} when the configuration is invalid
     */
    public record Compiled(BucketConfig config, RuleSet rules) {
    }

    /** The lifecycle XML exactly as the gateway stored it, if the bucket has one. */
    public static Optional<String> lifecycleXml(Entry entry) {
        return Optional.ofNullable(text(entry, S3Layout.LIFECYCLE_XML));
    }

    /** The bucket's versioning state as stored, {@code Off} when never set. */
    public static String versioning(Entry entry) {
        return Optional.ofNullable(text(entry, S3Layout.VERSIONING)).orElse("Off");
    }

    private static String text(Entry entry, String key) {
        ByteString value = entry.getExtendedMap().get(key);
        return value == null ? null : value.toStringUtf8();
    }
}
