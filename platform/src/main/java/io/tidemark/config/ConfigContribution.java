package io.tidemark.config;

import org.apache.kafka.common.config.ConfigDef;

/**
 * The settings one module owns, added to the one configuration registry ({@link TidemarkConfig#definition()}). A
 * module contributes by being on the class path: its implementation is listed in
 * {@code META-INF/services/io.tidemark.config.ConfigContribution}. The registry stays one — one set of names, one
 * loader (file, environment, flags), one generated reference — while each key lives beside the code that reads it.
 */
public interface ConfigContribution {

    /** Defines this module's keys, each with its type, default, validator and documentation. */
    void define(ConfigDef definition);
}
