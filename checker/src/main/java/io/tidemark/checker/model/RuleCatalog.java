package io.tidemark.checker.model;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The lifecycle configurations a history draws from: every rule kind the pipeline acts on (multipart uploads included),
 * with prefix, tag, size and And filters, in valid combinations. Days are lifecycle days (seconds in a checker run),
 * kept short so that rules fall due, and are edited, many times in one history.
 */
public final class RuleCatalog {

    /** The kinds of rule a configuration can hold, for coverage. */
    public enum RuleKind {
        EXPIRE_PREFIX, EXPIRE_TAG, EXPIRE_AND_SIZE, NONCURRENT, NONCURRENT_NEWER, EXPIRED_MARKER, ABORT_UPLOADS,
        DISABLED
    }

    private static final Pattern KIND = Pattern.compile("<ID>([A-Z_]+)-\\d+</ID>");
    /** A rule's kind and its days, if it has any. */
    private static final Pattern SUMMARY = Pattern.compile(
            "<ID>([A-Z_]+)-\\d+</ID>.*?(?:<(?:Noncurrent)?Days(?:AfterInitiation)?>(\\d+)</|</Rule>)");

    private RuleCatalog() {
    }

    /** One to three rules of different kinds, with days from 1 to {@code maxDays}. */
    public static String randomConfiguration(Random random, int maxDays) {
        List<RuleKind> kinds = new ArrayList<>(List.of(RuleKind.values()));
        int count = 1 + random.nextInt(3);
        StringBuilder xml = new StringBuilder("<LifecycleConfiguration>");
        for (int i = 0; i < count; i++) {
            RuleKind kind = kinds.remove(random.nextInt(kinds.size()));
            xml.append(rule(kind, i, 1 + random.nextInt(maxDays)));
        }
        return xml.append("</LifecycleConfiguration>").toString();
    }

    /** A configuration of one rule of {@code kind}, numbered {@code n}, over {@code days}. */
    static String configuration(RuleKind kind, int n, int days) {
        return "<LifecycleConfiguration>" + rule(kind, n, days) + "</LifecycleConfiguration>";
    }

    static String rule(RuleKind kind, int n, int days) {
        String id = "<ID>" + kind + "-" + n + "</ID>";
        return switch (kind) {
            case EXPIRE_PREFIX -> "<Rule>" + id + "<Filter><Prefix>a/</Prefix></Filter><Status>Enabled</Status>"
                    + "<Expiration><Days>" + days + "</Days></Expiration></Rule>";
            case EXPIRE_TAG -> "<Rule>" + id + "<Filter><Tag><Key>class</Key><Value>tmp</Value></Tag></Filter>"
                    + "<Status>Enabled</Status><Expiration><Days>" + days + "</Days></Expiration></Rule>";
            case EXPIRE_AND_SIZE -> "<Rule>" + id + "<Filter><And><Prefix>b/</Prefix><Tag><Key>class</Key>"
                    + "<Value>tmp</Value></Tag><ObjectSizeGreaterThan>100</ObjectSizeGreaterThan></And></Filter>"
                    + "<Status>Enabled</Status><Expiration><Days>" + days + "</Days></Expiration></Rule>";
            case NONCURRENT -> "<Rule>" + id + "<Filter><Prefix></Prefix></Filter><Status>Enabled</Status>"
                    + "<NoncurrentVersionExpiration><NoncurrentDays>" + days + "</NoncurrentDays>"
                    + "</NoncurrentVersionExpiration></Rule>";
            case NONCURRENT_NEWER -> "<Rule>" + id + "<Filter><Prefix>a/</Prefix></Filter><Status>Enabled</Status>"
                    + "<NoncurrentVersionExpiration><NoncurrentDays>" + days + "</NoncurrentDays>"
                    + "<NewerNoncurrentVersions>1</NewerNoncurrentVersions></NoncurrentVersionExpiration></Rule>";
            case EXPIRED_MARKER -> "<Rule>" + id + "<Filter><Prefix></Prefix></Filter><Status>Enabled</Status>"
                    + "<Expiration><ExpiredObjectDeleteMarker>true</ExpiredObjectDeleteMarker></Expiration></Rule>";
            case ABORT_UPLOADS -> "<Rule>" + id + "<Filter><Prefix>a/</Prefix></Filter><Status>Enabled</Status>"
                    + "<AbortIncompleteMultipartUpload><DaysAfterInitiation>" + days + "</DaysAfterInitiation>"
                    + "</AbortIncompleteMultipartUpload></Rule>";
            case DISABLED -> "<Rule>" + id + "<Filter><Prefix></Prefix></Filter><Status>Disabled</Status>"
                    + "<Expiration><Days>1</Days></Expiration></Rule>";
        };
    }

    private static final Pattern RULE = Pattern.compile("<Rule>.*?</Rule>");
    private static final Pattern RULE_ID = Pattern.compile("<ID>([A-Z_]+)-\\d+</ID>");

    /**
     * The same rules under new IDs, in another order, as a tool that generates rule IDs re-PUTs a configuration: in
     * S3 nothing changes, since a rule is known by its content (DESIGN.md, invariant 8).
     *
     * @param salt what makes the new IDs and order (1 to 99 999); the IDs stay unique within the configuration
     */
    public static String renamed(String xml, long salt) {
        List<String> rules = new ArrayList<>();
        Matcher m = RULE.matcher(xml);
        while (m.find()) {
            rules.add(m.group());
        }
        java.util.Collections.shuffle(rules, new Random(salt));
        StringBuilder out = new StringBuilder("<LifecycleConfiguration>");
        for (int i = 0; i < rules.size(); i++) {
            int n = i;
            out.append(RULE_ID.matcher(rules.get(i)).replaceFirst(id -> "<ID>" + id.group(1) + "-" + salt + n
                    + "</ID>"));
        }
        return out.append("</LifecycleConfiguration>").toString();
    }

    /** The kinds of rule in a configuration made here. */
    public static Set<RuleKind> kinds(String xml) {
        Set<RuleKind> kinds = new LinkedHashSet<>();
        Matcher m = KIND.matcher(xml);
        while (m.find()) {
            kinds.add(RuleKind.valueOf(m.group(1)));
        }
        return kinds;
    }

    /** A configuration in a few words: its rules' kinds and days. */
    public static String summary(String xml) {
        List<String> parts = new ArrayList<>();
        Matcher m = SUMMARY.matcher(xml);
        while (m.find()) {
            parts.add(m.group(1) + (m.group(2) == null ? "" : " " + m.group(2) + "d"));
        }
        return String.join(", ", parts);
    }
}
