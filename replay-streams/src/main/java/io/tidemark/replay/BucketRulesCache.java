package io.tidemark.replay;

import io.tidemark.lifecycle.config.LifecycleConfigException;
import io.tidemark.lifecycle.engine.BucketVersioning;
import io.tidemark.lifecycle.engine.RuleReader;
import io.tidemark.messages.BucketConfig;
import io.tidemark.replay.TimerPlanner.BucketRules;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compiled rules per bucket, recompiled whenever the bucket's configuration is another instance than the one
 * compiled ({@link BucketConfigs} hands out the same instance until the bucket's record changes), so an edit is
 * seen at once; a bounded LRU, since a task sees the same few buckets again and again. A configuration the
 * populator marked invalid, or one that no longer parses, counts as none.
 */
final class BucketRulesCache {

    private static final Logger log = LoggerFactory.getLogger(BucketRulesCache.class);
    private static final int CAPACITY = 1_024;

    private final RuleReader reader;
    private record Compiled(BucketConfig source, Optional<BucketRules> rules) {
    }

    private final Map<String, Compiled> cache = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Compiled> eldest) {
            return size() > CAPACITY;
        }
    };

    BucketRulesCache(RuleReader reader) {
        this.reader = reader;
    }

    Optional<BucketRules> rules(BucketConfig config) {
        if (config == null || config.invalidCode() != null || config.lifecycleXml() == null) {
            return Optional.empty();
        }
        Compiled compiled = cache.get(config.bucket());
        if (compiled == null || compiled.source() != config) {
            compiled = new Compiled(config, compile(config));
            cache.put(config.bucket(), compiled);
        }
        return compiled.rules();
    }

    private Optional<BucketRules> compile(BucketConfig config) {
        try {
            return Optional.of(new BucketRules(reader.read(config.lifecycleXml()),
                    BucketVersioning.parse(config.versioning())));
        } catch (LifecycleConfigException | RuntimeException e) {
            log.warn("bucket {}: its lifecycle configuration does not compile here, treated as none: {}",
                    config.bucket(), e.getMessage());
            return Optional.empty();
        }
    }
}
