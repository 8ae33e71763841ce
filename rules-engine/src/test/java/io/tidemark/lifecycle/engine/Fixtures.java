package io.tidemark.lifecycle.engine;

import io.tidemark.lifecycle.config.LifecycleConfigException;
import io.tidemark.lifecycle.config.LifecycleConfigs;
import java.time.Instant;
import java.util.Map;

/** Rule sets and object versions for engine tests. */
final class Fixtures {

    private Fixtures() {
    }

    static Instant t(String iso) {
        return Instant.parse(iso);
    }

    static RuleSet rules(String... ruleXml) {
        return rules(LifecycleCalendar.aws(), ruleXml);
    }

    static RuleSet rules(LifecycleCalendar calendar, String... ruleXml) {
        try {
            return RuleCompiler.compile(LifecycleConfigs.parseAndValidate(
                    "<LifecycleConfiguration>" + String.join("", ruleXml) + "</LifecycleConfiguration>"), calendar);
        } catch (LifecycleConfigException e) {
            throw new AssertionError(e.describe(), e);
        }
    }

    /** A V2 rule with an ID, a filter body, and action elements. */
    static String rule(String id, String filter, String actions) {
        return "<Rule><ID>" + id + "</ID><Filter>" + filter + "</Filter><Status>Enabled</Status>" + actions + "</Rule>";
    }

    static String disabled(String id, String filter, String actions) {
        return rule(id, filter, actions).replace("<Status>Enabled</Status>", "<Status>Disabled</Status>");
    }

    static String expireDays(int days) {
        return "<Expiration><Days>" + days + "</Days></Expiration>";
    }

    static String expireDate(String date) {
        return "<Expiration><Date>" + date + "</Date></Expiration>";
    }

    static String expiredMarker() {
        return "<Expiration><ExpiredObjectDeleteMarker>true</ExpiredObjectDeleteMarker></Expiration>";
    }

    static String noncurrent(int days) {
        return "<NoncurrentVersionExpiration><NoncurrentDays>" + days + "</NoncurrentDays></NoncurrentVersionExpiration>";
    }

    static String noncurrent(int days, int keep) {
        return "<NoncurrentVersionExpiration><NoncurrentDays>" + days + "</NoncurrentDays><NewerNoncurrentVersions>"
                + keep + "</NewerNoncurrentVersions></NoncurrentVersionExpiration>";
    }

    static String abortAfter(int days) {
        return "<AbortIncompleteMultipartUpload><DaysAfterInitiation>" + days
                + "</DaysAfterInitiation></AbortIncompleteMultipartUpload>";
    }

    static String tag(String key, String value) {
        return "<Tag><Key>" + key + "</Key><Value>" + value + "</Value></Tag>";
    }

    static ObjectVersion current(String key, long size, Map<String, String> tags, String modTime) {
        return ObjectVersion.plain(key, size, tags, t(modTime));
    }

    static ObjectVersion current(String key, String modTime) {
        return current(key, 100, Map.of(), modTime);
    }

    static ObjectVersion noncurrentVersion(String key, String modTime, String successor, int rank) {
        return new ObjectVersion(key, 100, Map.of(), t(modTime), false, false, "v" + rank, t(successor), rank + 2, rank);
    }

    static ObjectVersion marker(String key, String modTime, int numVersions) {
        return new ObjectVersion(key, 0, Map.of(), t(modTime), true, true, "dm", null, numVersions, null);
    }
}
