package io.tidemark.lifecycle.config;

/** Small builders for lifecycle documents in tests. */
final class Docs {

    static final String NS = " xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"";

    private Docs() {
    }

    static String config(String... rules) {
        return "<LifecycleConfiguration>" + String.join("", rules) + "</LifecycleConfiguration>";
    }

    /** A V2 rule: an ID, a filter body, Status Enabled and the given action elements. */
    static String rule(String id, String filterBody, String actions) {
        return "<Rule><ID>" + id + "</ID><Filter>" + filterBody + "</Filter><Status>Enabled</Status>" + actions + "</Rule>";
    }

    /** A V1 rule with a rule-level prefix. */
    static String legacyRule(String id, String prefix, String actions) {
        return "<Rule><ID>" + id + "</ID><Prefix>" + prefix + "</Prefix><Status>Enabled</Status>" + actions + "</Rule>";
    }

    static String days(int days) {
        return "<Expiration><Days>" + days + "</Days></Expiration>";
    }
}
