package io.tidemark.lifecycle.config;

import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * S3's semantic checks on a configuration that has passed the schema, in the order S3 reports them: the
 * configuration-wide V1/V2 mix first, then each rule in document order, then the checks across rules
 * (duplicate IDs, overlapping V1 prefixes). The first failure wins and names the rule.
 */
public final class LifecycleValidator {

    public static final int MAX_ID_LENGTH = 255;
    public static final long MAX_OBJECT_SIZE = 1_099_511_627_776_000L;
    public static final int MAX_TAG_KEY_LENGTH = 128;
    public static final int MAX_TAG_VALUE_LENGTH = 256;
    /** S3 refuses transitions to the infrequent-access classes earlier than this many days. */
    public static final int MIN_INFREQUENT_ACCESS_DAYS = 30;

    private LifecycleValidator() {
    }

    public static void validate(LifecycleConfiguration config) throws LifecycleConfigException {
        validate(config, ValidationMode.AWS);
    }

    public static void validate(LifecycleConfiguration config, ValidationMode mode) throws LifecycleConfigException {
        List<LifecycleRule> rules = config.rules();
        checkSingleGeneration(rules);
        boolean legacy = rules.get(0).isLegacy();
        for (int i = 0; i < rules.size(); i++) {
            checkRule(rules.get(i), rules.get(i).label(i), legacy, mode);
        }
        checkUniqueIds(rules);
        if (legacy) {
            checkNoOverlappingLegacyPrefixes(rules);
        }
    }

    private static void checkSingleGeneration(List<LifecycleRule> rules) throws LifecycleConfigException {
        boolean firstLegacy = rules.get(0).isLegacy();
        for (int i = 1; i < rules.size(); i++) {
            if (rules.get(i).isLegacy() != firstLegacy) {
                String where = rules.get(i).label(i);
                throw firstLegacy
                        ? invalidRequest(where + ": <Filter> cannot be used in a configuration whose first rule uses a "
                                + "rule-level <Prefix> (Lifecycle V1); write every rule with <Filter>")
                        : invalidRequest(where + ": a rule-level <Prefix> cannot be used in a configuration of "
                                + "<Filter> rules (Lifecycle V2); put the prefix inside <Filter>");
            }
        }
    }

    private static void checkRule(LifecycleRule rule, String where, boolean legacy, ValidationMode mode)
            throws LifecycleConfigException {
        if (rule.hasId() && rule.id().length() > MAX_ID_LENGTH) {
            throw invalidArgument(where + ": the ID is " + rule.id().length() + " characters long, more than the "
                    + MAX_ID_LENGTH + " allowed");
        }
        RuleFilter filter = rule.effectiveFilter();
        checkFilter(filter, where);
        if (!rule.hasAction()) {
            throw invalidRequest(where + ": the rule has no action; give it at least one");
        }
        checkExpiration(rule.expiration(), filter, where);
        checkNoncurrentExpiration(rule.noncurrentVersionExpiration(), where, legacy, mode);
        checkAbort(rule.abortIncompleteMultipartUpload(), filter, where);
        for (Transition t : rule.transitions()) {
            checkTransition(t, where);
        }
        for (NoncurrentVersionTransition t : rule.noncurrentVersionTransitions()) {
            checkNoncurrentTransition(t, where, legacy);
        }
    }

    private static void checkFilter(RuleFilter filter, String where) throws LifecycleConfigException {
        Set<String> keys = new HashSet<>();
        for (FilterTag tag : filter.effectiveTags()) {
            if (tag.key().isEmpty() || tag.key().length() > MAX_TAG_KEY_LENGTH) {
                throw invalidRequest(where + ": tag key \"" + tag.key() + "\" must be 1 to " + MAX_TAG_KEY_LENGTH
                        + " characters");
            }
            if (tag.value().length() > MAX_TAG_VALUE_LENGTH) {
                throw invalidRequest(where + ": the value of tag \"" + tag.key() + "\" is longer than "
                        + MAX_TAG_VALUE_LENGTH + " characters");
            }
            if (!keys.add(tag.key())) {
                throw invalidRequest(where + ": tag key \"" + tag.key() + "\" appears twice; tag keys must be unique");
            }
        }
        Long greater = filter.effectiveSizeGreaterThan();
        Long less = filter.effectiveSizeLessThan();
        if (less != null && (less < 1 || less > MAX_OBJECT_SIZE)) {
            throw invalidRequest(where + ": ObjectSizeLessThan is " + less + ", it must be between 1 and "
                    + MAX_OBJECT_SIZE);
        }
        if (greater != null && (greater < 0 || greater > MAX_OBJECT_SIZE)) {
            throw invalidRequest(where + ": ObjectSizeGreaterThan is " + greater + ", it must be between 0 and "
                    + MAX_OBJECT_SIZE);
        }
        if (less != null && greater != null && less <= greater) {
            throw invalidRequest(where + ": ObjectSizeLessThan (" + less + ") must be greater than "
                    + "ObjectSizeGreaterThan (" + greater + ")");
        }
    }

    private static void checkExpiration(Expiration expiration, RuleFilter filter, String where)
            throws LifecycleConfigException {
        if (expiration == null) {
            return;
        }
        if (expiration.days() != null && expiration.days() < 1) {
            throw invalidArgument(where + ": Expiration Days is " + expiration.days() + ", it must be a positive integer");
        }
        if (expiration.date() != null) {
            checkMidnight(expiration.date(), "Expiration", where);
        }
        if (expiration.expiredObjectDeleteMarker() != null) {
            if (filter.usesTags()) {
                throw invalidRequest(where + ": ExpiredObjectDeleteMarker cannot be combined with a tag filter");
            }
            if (filter.usesObjectSize()) {
                throw invalidRequest(where + ": ExpiredObjectDeleteMarker cannot be combined with an object size filter");
            }
        }
    }

    private static void checkNoncurrentExpiration(NoncurrentVersionExpiration nve, String where, boolean legacy,
                                                  ValidationMode mode) throws LifecycleConfigException {
        if (nve == null) {
            return;
        }
        if (nve.noncurrentDays() == null) {
            if (mode != ValidationMode.SEAWEEDFS) {
                throw SafeXmlReader.malformed(where + ": <NoncurrentVersionExpiration> needs <NoncurrentDays> (a "
                        + "<NewerNoncurrentVersions> alone is accepted only in the seaweedfs validation mode)");
            }
        } else if (nve.noncurrentDays() < 1) {
            throw invalidArgument(where + ": NoncurrentVersionExpiration NoncurrentDays is " + nve.noncurrentDays()
                    + ", it must be a positive integer");
        }
        checkNewerNoncurrent(nve.newerNoncurrentVersions(), "NoncurrentVersionExpiration", where, legacy);
    }

    private static void checkNewerNoncurrent(Integer newer, String action, String where, boolean legacy)
            throws LifecycleConfigException {
        if (newer == null) {
            return;
        }
        if (legacy) {
            throw invalidRequest(where + ": NewerNoncurrentVersions needs a <Filter> configuration (Lifecycle V2)");
        }
        if (newer < 1) {
            throw invalidArgument(where + ": " + action + " NewerNoncurrentVersions is " + newer
                    + ", it must be a positive integer");
        }
    }

    private static void checkAbort(AbortIncompleteMultipartUpload abort, RuleFilter filter, String where)
            throws LifecycleConfigException {
        if (abort == null) {
            return;
        }
        if (abort.daysAfterInitiation() < 1) {
            throw invalidArgument(where + ": AbortIncompleteMultipartUpload DaysAfterInitiation is "
                    + abort.daysAfterInitiation() + ", it must be a positive integer");
        }
        if (filter.usesTags()) {
            throw invalidRequest(where + ": AbortIncompleteMultipartUpload cannot be combined with a tag filter");
        }
        if (filter.usesObjectSize()) {
            throw invalidRequest(where + ": AbortIncompleteMultipartUpload cannot be combined with an object size filter");
        }
    }

    private static void checkTransition(Transition t, String where) throws LifecycleConfigException {
        if (t.days() != null) {
            if (t.days() < 0) {
                throw invalidArgument(where + ": Transition Days is " + t.days() + ", it must not be negative");
            }
            if (t.storageClass().infrequentAccess() && t.days() < MIN_INFREQUENT_ACCESS_DAYS) {
                throw invalidArgument(where + ": Transition Days is " + t.days() + ", but a transition to "
                        + t.storageClass() + " needs at least " + MIN_INFREQUENT_ACCESS_DAYS + " days");
            }
        }
        if (t.date() != null) {
            checkMidnight(t.date(), "Transition", where);
        }
    }

    private static void checkNoncurrentTransition(NoncurrentVersionTransition t, String where, boolean legacy)
            throws LifecycleConfigException {
        if (t.noncurrentDays() < 0) {
            throw invalidArgument(where + ": NoncurrentVersionTransition NoncurrentDays is " + t.noncurrentDays()
                    + ", it must not be negative");
        }
        if (t.storageClass().infrequentAccess() && t.noncurrentDays() < MIN_INFREQUENT_ACCESS_DAYS) {
            throw invalidArgument(where + ": NoncurrentVersionTransition NoncurrentDays is " + t.noncurrentDays()
                    + ", but a transition to " + t.storageClass() + " needs at least " + MIN_INFREQUENT_ACCESS_DAYS
                    + " days");
        }
        checkNewerNoncurrent(t.newerNoncurrentVersions(), "NoncurrentVersionTransition", where, legacy);
    }

    private static void checkMidnight(Instant date, String action, String where) throws LifecycleConfigException {
        if (!date.atOffset(ZoneOffset.UTC).toLocalTime().equals(LocalTime.MIDNIGHT)) {
            throw invalidArgument(where + ": " + action + " Date " + date + " is not at midnight UTC");
        }
    }

    private static void checkUniqueIds(List<LifecycleRule> rules) throws LifecycleConfigException {
        Map<String, Integer> seen = new HashMap<>();
        for (int i = 0; i < rules.size(); i++) {
            LifecycleRule rule = rules.get(i);
            if (!rule.hasId()) {
                continue;
            }
            Integer first = seen.putIfAbsent(rule.id(), i);
            if (first != null) {
                throw invalidArgument(rule.label(i) + ": rule " + (first + 1) + " already has this ID; IDs must be unique");
            }
        }
    }

    /**
     * In a V1 configuration S3 refuses two rules whose prefixes overlap (one starts with the other) when they
     * have an action of the same type. After sorting, an overlap always shows between neighbours: anything
     * sorted between a prefix and a string it starts also starts with it.
     */
    private static void checkNoOverlappingLegacyPrefixes(List<LifecycleRule> rules) throws LifecycleConfigException {
        checkOverlap(rules, "Expiration", r -> r.expiration() != null);
        checkOverlap(rules, "Transition", r -> !r.transitions().isEmpty());
        checkOverlap(rules, "NoncurrentVersionExpiration", r -> r.noncurrentVersionExpiration() != null);
        checkOverlap(rules, "NoncurrentVersionTransition", r -> !r.noncurrentVersionTransitions().isEmpty());
        checkOverlap(rules, "AbortIncompleteMultipartUpload", r -> r.abortIncompleteMultipartUpload() != null);
    }

    private static void checkOverlap(List<LifecycleRule> rules, String actionType, Predicate<LifecycleRule> hasAction)
            throws LifecycleConfigException {
        List<Integer> withAction = new ArrayList<>();
        for (int i = 0; i < rules.size(); i++) {
            if (hasAction.test(rules.get(i))) {
                withAction.add(i);
            }
        }
        withAction.sort(Comparator.comparing((Integer i) -> rules.get(i).legacyPrefix()).thenComparing(i -> i));
        for (int n = 1; n < withAction.size(); n++) {
            int a = withAction.get(n - 1);
            int b = withAction.get(n);
            String pa = rules.get(a).legacyPrefix();
            String pb = rules.get(b).legacyPrefix();
            if (pb.startsWith(pa)) {
                int first = Math.min(a, b);
                int second = Math.max(a, b);
                throw invalidRequest(rules.get(second).label(second) + ": its prefix '" + rules.get(second).legacyPrefix()
                        + "' overlaps the prefix '" + rules.get(first).legacyPrefix() + "' of " + rules.get(first).label(first)
                        + " for the same action type " + actionType);
            }
        }
    }

    private static LifecycleConfigException invalidArgument(String message) {
        return new LifecycleConfigException(S3ErrorCode.InvalidArgument, message);
    }

    private static LifecycleConfigException invalidRequest(String message) {
        return new LifecycleConfigException(S3ErrorCode.InvalidRequest, message);
    }
}
