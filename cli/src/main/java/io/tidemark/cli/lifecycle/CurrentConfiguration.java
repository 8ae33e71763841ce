package io.tidemark.cli.lifecycle;

import io.tidemark.lifecycle.config.LifecycleConfigException;
import io.tidemark.lifecycle.engine.RuleReader;
import io.tidemark.lifecycle.engine.RuleSet;
import io.tidemark.messages.BucketEntryConfig;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import java.util.Optional;

/**
 * A bucket's lifecycle configuration as its filer entry holds it, read the way the pipeline reads it (the same
 * validation mode and calendar): a configuration that does not validate is ignored there, so it acts on nothing.
 *
 * @param rules {@code null} unless {@code state} is {@code valid}
 * @param error S3's error code and message for an invalid configuration, else {@code null}
 */
record CurrentConfiguration(String state, RuleSet rules, String error) {

    static final String VALID = "valid";
    static final String NONE = "none";

    static CurrentConfiguration of(Entry bucketEntry, RuleReader reader) {
        Optional<String> xml = BucketEntryConfig.lifecycleXml(bucketEntry);
        if (xml.isEmpty()) {
            return new CurrentConfiguration(NONE, null, null);
        }
        try {
            return new CurrentConfiguration(VALID, reader.read(xml.get()), null);
        } catch (LifecycleConfigException invalid) {
            return new CurrentConfiguration("invalid: " + invalid.code().name(), null, invalid.describe());
        }
    }

    Optional<RuleSet> valid() {
        return Optional.ofNullable(rules);
    }
}
