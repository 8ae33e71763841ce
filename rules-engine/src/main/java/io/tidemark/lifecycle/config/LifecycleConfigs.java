package io.tidemark.lifecycle.config;

import java.nio.charset.StandardCharsets;

/** The one call most callers want: a body in, a configuration S3 would accept out, or S3's error. */
public final class LifecycleConfigs {

    private LifecycleConfigs() {
    }

    public static LifecycleConfiguration parseAndValidate(byte[] document) throws LifecycleConfigException {
        return parseAndValidate(document, ValidationMode.AWS);
    }

    public static LifecycleConfiguration parseAndValidate(String document) throws LifecycleConfigException {
        return parseAndValidate(document.getBytes(StandardCharsets.UTF_8));
    }

    /** As {@link #parseAndValidate(byte[])}, accepting what {@code mode} accepts. */
    public static LifecycleConfiguration parseAndValidate(byte[] document, ValidationMode mode)
            throws LifecycleConfigException {
        LifecycleConfiguration config = LifecycleXmlParser.parse(document);
        LifecycleValidator.validate(config, mode);
        return config;
    }

    public static LifecycleConfiguration parseAndValidate(String document, ValidationMode mode)
            throws LifecycleConfigException {
        return parseAndValidate(document.getBytes(StandardCharsets.UTF_8), mode);
    }
}
