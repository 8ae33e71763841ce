package io.tidemark.lifecycle.config;

import java.time.Instant;
import java.time.format.DateTimeFormatter;

/**
 * Writes a configuration in one canonical form: no namespace, no whitespace, rule children in a fixed order,
 * dates as ISO instants. Parsing the output gives back an equal {@link LifecycleConfiguration}, which is what
 * makes it usable as a stable representation of "the same rules".
 */
public final class LifecycleXmlWriter {

    private LifecycleXmlWriter() {
    }

    public static String write(LifecycleConfiguration config) {
        StringBuilder out = new StringBuilder(128 * config.rules().size() + 64);
        out.append("<LifecycleConfiguration>");
        for (LifecycleRule rule : config.rules()) {
            writeRule(out, rule);
        }
        return out.append("</LifecycleConfiguration>").toString();
    }

    private static void writeRule(StringBuilder out, LifecycleRule rule) {
        out.append("<Rule>");
        if (rule.id() != null) {
            leaf(out, "ID", rule.id());
        }
        if (rule.filter() != null) {
            writeFilter(out, rule.filter());
        } else {
            leaf(out, "Prefix", rule.legacyPrefix());
        }
        leaf(out, "Status", rule.status().name());
        Expiration e = rule.expiration();
        if (e != null) {
            out.append("<Expiration>");
            optionalLeaf(out, "Days", e.days());
            optionalDate(out, "Date", e.date());
            optionalLeaf(out, "ExpiredObjectDeleteMarker", e.expiredObjectDeleteMarker());
            out.append("</Expiration>");
        }
        for (Transition t : rule.transitions()) {
            out.append("<Transition>");
            optionalLeaf(out, "Days", t.days());
            optionalDate(out, "Date", t.date());
            leaf(out, "StorageClass", t.storageClass().name());
            out.append("</Transition>");
        }
        for (NoncurrentVersionTransition t : rule.noncurrentVersionTransitions()) {
            out.append("<NoncurrentVersionTransition>");
            leaf(out, "NoncurrentDays", String.valueOf(t.noncurrentDays()));
            leaf(out, "StorageClass", t.storageClass().name());
            optionalLeaf(out, "NewerNoncurrentVersions", t.newerNoncurrentVersions());
            out.append("</NoncurrentVersionTransition>");
        }
        NoncurrentVersionExpiration nve = rule.noncurrentVersionExpiration();
        if (nve != null) {
            out.append("<NoncurrentVersionExpiration>");
            optionalLeaf(out, "NoncurrentDays", nve.noncurrentDays());
            optionalLeaf(out, "NewerNoncurrentVersions", nve.newerNoncurrentVersions());
            out.append("</NoncurrentVersionExpiration>");
        }
        if (rule.abortIncompleteMultipartUpload() != null) {
            out.append("<AbortIncompleteMultipartUpload>");
            leaf(out, "DaysAfterInitiation", String.valueOf(rule.abortIncompleteMultipartUpload().daysAfterInitiation()));
            out.append("</AbortIncompleteMultipartUpload>");
        }
        out.append("</Rule>");
    }

    private static void writeFilter(StringBuilder out, RuleFilter filter) {
        out.append("<Filter>");
        if (filter.prefix() != null) {
            leaf(out, "Prefix", filter.prefix());
        }
        if (filter.tag() != null) {
            writeTag(out, filter.tag());
        }
        optionalLeaf(out, "ObjectSizeGreaterThan", filter.objectSizeGreaterThan());
        optionalLeaf(out, "ObjectSizeLessThan", filter.objectSizeLessThan());
        FilterAnd and = filter.and();
        if (and != null) {
            out.append("<And>");
            if (and.prefix() != null) {
                leaf(out, "Prefix", and.prefix());
            }
            for (FilterTag tag : and.tags()) {
                writeTag(out, tag);
            }
            optionalLeaf(out, "ObjectSizeGreaterThan", and.objectSizeGreaterThan());
            optionalLeaf(out, "ObjectSizeLessThan", and.objectSizeLessThan());
            out.append("</And>");
        }
        out.append("</Filter>");
    }

    private static void writeTag(StringBuilder out, FilterTag tag) {
        out.append("<Tag>");
        leaf(out, "Key", tag.key());
        leaf(out, "Value", tag.value());
        out.append("</Tag>");
    }

    private static void optionalLeaf(StringBuilder out, String name, Object value) {
        if (value != null) {
            leaf(out, name, value.toString());
        }
    }

    private static void optionalDate(StringBuilder out, String name, Instant value) {
        if (value != null) {
            leaf(out, name, DateTimeFormatter.ISO_INSTANT.format(value));
        }
    }

    private static void leaf(StringBuilder out, String name, String value) {
        out.append('<').append(name).append('>');
        escape(out, value);
        out.append("</").append(name).append('>');
    }

    private static void escape(StringBuilder out, String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                // A raw CR would be normalised to LF by any parser; the reference keeps it.
                case '\r' -> out.append("&#13;");
                default -> out.append(c);
            }
        }
    }
}
