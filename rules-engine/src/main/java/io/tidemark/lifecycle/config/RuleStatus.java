package io.tidemark.lifecycle.config;

public enum RuleStatus {
    Enabled,
    Disabled
}
