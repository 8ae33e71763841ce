package io.tidemark.lifecycle.engine;

import io.tidemark.lifecycle.config.LifecycleConfigException;
import io.tidemark.lifecycle.config.LifecycleConfigs;
import io.tidemark.lifecycle.config.ValidationMode;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Turns a bucket's stored lifecycle XML into its compiled rules, the same way in every service: one validation
 * mode and one calendar, both from the configuration, so the populator, replay-streams and the walker never
 * disagree on whether a bucket's rules are valid.
 */
public record RuleReader(ValidationMode mode, LifecycleCalendar calendar) {

    public RuleReader {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(calendar, "calendar");
    }

    /** S3's validation with S3's day rounding: what tools and tests use unless told otherwise. */
    public static RuleReader aws() {
        return new RuleReader(ValidationMode.AWS, LifecycleCalendar.aws());
    }

    public RuleSet read(byte[] document) throws LifecycleConfigException {
        return RuleCompiler.compile(LifecycleConfigs.parseAndValidate(document, mode), calendar);
    }

    public RuleSet read(String document) throws LifecycleConfigException {
        return read(document.getBytes(StandardCharsets.UTF_8));
    }
}
