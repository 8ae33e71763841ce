package io.tidemark.lifecycle.config;

import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Turns a PutBucketLifecycleConfiguration body into a {@link LifecycleConfiguration}, enforcing everything S3
 * treats as a schema violation ({@link S3ErrorCode#MalformedXML}): structure, cardinality, value types, the
 * one-predicate filter and the two-predicate {@code <And>}, exactly one choice inside {@code <Expiration>}.
 * Range and combination rules are the {@link LifecycleValidator}'s job, because S3 answers those with other
 * codes and only after the document has passed the schema.
 */
public final class LifecycleXmlParser {

    private static final Set<String> RULE_CHILDREN = Set.of("ID", "Status", "Filter", "Prefix", "Expiration",
            "Transition", "NoncurrentVersionTransition", "NoncurrentVersionExpiration", "AbortIncompleteMultipartUpload");
    private static final Set<String> PREDICATES = Set.of("Prefix", "Tag", "ObjectSizeGreaterThan", "ObjectSizeLessThan");
    private static final Set<String> FILTER_CHILDREN = Set.of("Prefix", "Tag", "ObjectSizeGreaterThan",
            "ObjectSizeLessThan", "And");

    private LifecycleXmlParser() {
    }

    public static LifecycleConfiguration parse(String document) throws LifecycleConfigException {
        return parse(document.getBytes(StandardCharsets.UTF_8));
    }

    public static LifecycleConfiguration parse(byte[] document) throws LifecycleConfigException {
        XmlElement root = SafeXmlReader.read(document);
        if (!root.name().equals("LifecycleConfiguration")) {
            throw SafeXmlReader.malformed("the root element must be <LifecycleConfiguration>, not <" + root.name() + ">");
        }
        List<XmlElement> ruleElements = ElementChildren.of(root, "configuration", Set.of("Rule")).all("Rule");
        if (ruleElements.isEmpty()) {
            throw SafeXmlReader.malformed("the configuration has no <Rule>; at least one is required");
        }
        if (ruleElements.size() > LifecycleConfiguration.MAX_RULES) {
            throw SafeXmlReader.malformed("the configuration has " + ruleElements.size() + " rules, more than the "
                    + LifecycleConfiguration.MAX_RULES + " allowed");
        }
        List<LifecycleRule> rules = new ArrayList<>(ruleElements.size());
        for (int i = 0; i < ruleElements.size(); i++) {
            rules.add(parseRule(ruleElements.get(i), i));
        }
        return new LifecycleConfiguration(rules);
    }

    private static LifecycleRule parseRule(XmlElement element, int index) throws LifecycleConfigException {
        String where = LifecycleRule.label(index, peekId(element));
        ElementChildren children = ElementChildren.of(element, where, RULE_CHILDREN);
        String id = children.text("ID");

        String statusText = children.text("Status");
        RuleStatus status;
        if ("Enabled".equals(statusText)) {
            status = RuleStatus.Enabled;
        } else if ("Disabled".equals(statusText)) {
            status = RuleStatus.Disabled;
        } else if (statusText == null) {
            throw SafeXmlReader.malformed(where + ": <Status> is required");
        } else {
            throw SafeXmlReader.malformed(where + ": <Status> must be exactly Enabled or Disabled, not \"" + statusText + "\"");
        }

        XmlElement filterElement = children.optional("Filter");
        String legacyPrefix = children.text("Prefix");
        if (filterElement == null && legacyPrefix == null) {
            throw SafeXmlReader.malformed(where + ": a rule needs either <Filter> or a rule-level <Prefix>");
        }
        if (filterElement != null && legacyPrefix != null) {
            throw SafeXmlReader.malformed(where + ": a rule may have <Filter> or a rule-level <Prefix>, not both");
        }
        RuleFilter filter = filterElement == null ? null : parseFilter(filterElement, where);

        XmlElement expiration = children.optional("Expiration");
        XmlElement nve = children.optional("NoncurrentVersionExpiration");
        XmlElement abort = children.optional("AbortIncompleteMultipartUpload");
        List<Transition> transitions = new ArrayList<>();
        for (XmlElement t : children.all("Transition")) {
            transitions.add(parseTransition(t, where));
        }
        List<NoncurrentVersionTransition> nvTransitions = new ArrayList<>();
        for (XmlElement t : children.all("NoncurrentVersionTransition")) {
            nvTransitions.add(parseNoncurrentTransition(t, where));
        }
        return new LifecycleRule(id, status, legacyPrefix, filter,
                expiration == null ? null : parseExpiration(expiration, where),
                transitions, nvTransitions,
                nve == null ? null : parseNoncurrentExpiration(nve, where),
                abort == null ? null : parseAbort(abort, where));
    }

    /** The rule's ID if it has a plain one, so that even errors found before reading it can name the rule. */
    private static String peekId(XmlElement rule) {
        for (XmlElement child : rule.children()) {
            if (child.name().equals("ID") && child.children().isEmpty()) {
                return child.text();
            }
        }
        return null;
    }

    private static RuleFilter parseFilter(XmlElement element, String where) throws LifecycleConfigException {
        ElementChildren children = ElementChildren.of(element, where, FILTER_CHILDREN);
        if (element.children().size() > 1) {
            throw SafeXmlReader.malformed(where + ": <Filter> may hold only one predicate; combine several with <And>");
        }
        XmlElement and = children.optional("And");
        XmlElement tag = children.optional("Tag");
        return new RuleFilter(children.text("Prefix"),
                tag == null ? null : parseTag(tag, where),
                size(children, "ObjectSizeGreaterThan", where),
                size(children, "ObjectSizeLessThan", where),
                and == null ? null : parseAnd(and, where));
    }

    private static FilterAnd parseAnd(XmlElement element, String where) throws LifecycleConfigException {
        ElementChildren children = ElementChildren.of(element, where, PREDICATES);
        List<FilterTag> tags = new ArrayList<>();
        for (XmlElement tag : children.all("Tag")) {
            tags.add(parseTag(tag, where));
        }
        FilterAnd and = new FilterAnd(children.text("Prefix"), tags,
                size(children, "ObjectSizeGreaterThan", where), size(children, "ObjectSizeLessThan", where));
        if (and.predicateCount() < 2) {
            throw SafeXmlReader.malformed(where + ": <And> must combine at least two predicates, it has "
                    + and.predicateCount());
        }
        return and;
    }

    private static FilterTag parseTag(XmlElement element, String where) throws LifecycleConfigException {
        ElementChildren children = ElementChildren.of(element, where, Set.of("Key", "Value"));
        String key = ElementChildren.leafText(children.required("Key"), where);
        String value = children.text("Value");
        return new FilterTag(key, value == null ? "" : value);
    }

    private static Expiration parseExpiration(XmlElement element, String where) throws LifecycleConfigException {
        ElementChildren children = ElementChildren.of(element, where,
                Set.of("Days", "Date", "ExpiredObjectDeleteMarker"));
        if (element.children().size() != 1) {
            throw SafeXmlReader.malformed(where + ": <Expiration> must hold exactly one of <Days>, <Date> and "
                    + "<ExpiredObjectDeleteMarker>, it holds " + element.children().size());
        }
        return new Expiration(integer(children, "Days", where), date(children, "Date", where),
                bool(children, "ExpiredObjectDeleteMarker", where));
    }

    private static NoncurrentVersionExpiration parseNoncurrentExpiration(XmlElement element, String where)
            throws LifecycleConfigException {
        ElementChildren children = ElementChildren.of(element, where,
                Set.of("NoncurrentDays", "NewerNoncurrentVersions"));
        Integer days = integer(children, "NoncurrentDays", where);
        Integer newer = integer(children, "NewerNoncurrentVersions", where);
        if (days == null && newer == null) {
            throw SafeXmlReader.malformed(where + ": <NoncurrentVersionExpiration> needs <NoncurrentDays> or "
                    + "<NewerNoncurrentVersions>");
        }
        // A keep count alone is S3's MalformedXML but SeaweedFS's rank-only rule: the validator decides.
        return new NoncurrentVersionExpiration(days, newer);
    }

    private static AbortIncompleteMultipartUpload parseAbort(XmlElement element, String where)
            throws LifecycleConfigException {
        ElementChildren children = ElementChildren.of(element, where, Set.of("DaysAfterInitiation"));
        Integer days = integer(children, "DaysAfterInitiation", where);
        if (days == null) {
            throw SafeXmlReader.malformed(where + ": <AbortIncompleteMultipartUpload> needs <DaysAfterInitiation>");
        }
        return new AbortIncompleteMultipartUpload(days);
    }

    private static Transition parseTransition(XmlElement element, String where) throws LifecycleConfigException {
        ElementChildren children = ElementChildren.of(element, where, Set.of("Days", "Date", "StorageClass"));
        Integer days = integer(children, "Days", where);
        Instant date = date(children, "Date", where);
        if ((days == null) == (date == null)) {
            throw SafeXmlReader.malformed(where + ": <Transition> must hold exactly one of <Days> and <Date>");
        }
        return new Transition(days, date, storageClass(children, "Transition", where));
    }

    private static NoncurrentVersionTransition parseNoncurrentTransition(XmlElement element, String where)
            throws LifecycleConfigException {
        ElementChildren children = ElementChildren.of(element, where,
                Set.of("NoncurrentDays", "StorageClass", "NewerNoncurrentVersions"));
        Integer days = integer(children, "NoncurrentDays", where);
        if (days == null) {
            throw SafeXmlReader.malformed(where + ": <NoncurrentVersionTransition> needs <NoncurrentDays>");
        }
        return new NoncurrentVersionTransition(days, storageClass(children, "NoncurrentVersionTransition", where),
                integer(children, "NewerNoncurrentVersions", where));
    }

    private static StorageClass storageClass(ElementChildren children, String parent, String where)
            throws LifecycleConfigException {
        String text = children.text("StorageClass");
        if (text == null) {
            throw SafeXmlReader.malformed(where + ": <" + parent + "> needs <StorageClass>");
        }
        try {
            return StorageClass.valueOf(text.strip());
        } catch (IllegalArgumentException e) {
            throw SafeXmlReader.malformed(where + ": \"" + text + "\" is not a storage class a transition can name");
        }
    }

    private static Integer integer(ElementChildren children, String name, String where) throws LifecycleConfigException {
        Long value = number(children, name, where);
        if (value == null) {
            return null;
        }
        if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
            throw SafeXmlReader.malformed(where + ": <" + name + "> " + value + " does not fit a 32-bit integer");
        }
        return value.intValue();
    }

    private static Long size(ElementChildren children, String name, String where) throws LifecycleConfigException {
        return number(children, name, where);
    }

    private static Long number(ElementChildren children, String name, String where) throws LifecycleConfigException {
        String text = children.text(name);
        if (text == null) {
            return null;
        }
        String trimmed = text.strip();
        if (!trimmed.matches("[+-]?[0-9]{1,19}")) {
            throw SafeXmlReader.malformed(where + ": <" + name + "> must be an integer, not \"" + text + "\"");
        }
        try {
            return Long.parseLong(trimmed.startsWith("+") ? trimmed.substring(1) : trimmed);
        } catch (NumberFormatException e) {
            throw SafeXmlReader.malformed(where + ": <" + name + "> " + trimmed + " is out of range");
        }
    }

    private static Boolean bool(ElementChildren children, String name, String where) throws LifecycleConfigException {
        String text = children.text(name);
        if (text == null) {
            return null;
        }
        return switch (text.strip()) {
            case "true", "1" -> true;
            case "false", "0" -> false;
            default -> throw SafeXmlReader.malformed(where + ": <" + name + "> must be true or false, not \"" + text + "\"");
        };
    }

    private static Instant date(ElementChildren children, String name, String where) throws LifecycleConfigException {
        String text = children.text(name);
        if (text == null) {
            return null;
        }
        String trimmed = text.strip();
        try {
            return OffsetDateTime.parse(trimmed, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
        } catch (DateTimeException withOffset) {
            try {
                // xsd:dateTime allows a time without a zone; S3 reads it as UTC.
                return LocalDateTime.parse(trimmed, DateTimeFormatter.ISO_LOCAL_DATE_TIME).toInstant(ZoneOffset.UTC);
            } catch (DateTimeException withoutOffset) {
                throw SafeXmlReader.malformed(where + ": <" + name + "> \"" + text + "\" is not an ISO-8601 date and time");
            }
        }
    }
}
