package io.tidemark.lifecycle.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The children of one complex element, checked against the names its schema allows. Element order is free,
 * as it is in S3; an unknown element, a repeated singleton or stray text is a schema violation.
 */
final class ElementChildren {

    private final XmlElement parent;
    private final String where;

    private ElementChildren(XmlElement parent, String where) {
        this.parent = parent;
        this.where = where;
    }

    static ElementChildren of(XmlElement parent, String where, Set<String> allowed) throws LifecycleConfigException {
        if (!parent.text().isBlank()) {
            throw SafeXmlReader.malformed(where + ": <" + parent.name() + "> holds text where only elements belong");
        }
        for (XmlElement child : parent.children()) {
            if (!allowed.contains(child.name())) {
                throw SafeXmlReader.malformed(where + ": <" + child.name() + "> is not allowed in <" + parent.name() + ">");
            }
        }
        return new ElementChildren(parent, where);
    }

    List<XmlElement> all(String name) {
        List<XmlElement> found = new ArrayList<>();
        for (XmlElement child : parent.children()) {
            if (child.name().equals(name)) {
                found.add(child);
            }
        }
        return found;
    }

    /** The element, or {@code null} when absent. */
    XmlElement optional(String name) throws LifecycleConfigException {
        List<XmlElement> found = all(name);
        if (found.size() > 1) {
            throw SafeXmlReader.malformed(where + ": <" + name + "> appears " + found.size() + " times in <"
                    + parent.name() + ">, at most once is allowed");
        }
        return found.isEmpty() ? null : found.get(0);
    }

    XmlElement required(String name) throws LifecycleConfigException {
        XmlElement element = optional(name);
        if (element == null) {
            throw SafeXmlReader.malformed(where + ": <" + parent.name() + "> needs a <" + name + "> element");
        }
        return element;
    }

    /** The text of a simple-typed child, or {@code null} when absent. Simple types may not hold elements. */
    String text(String name) throws LifecycleConfigException {
        XmlElement element = optional(name);
        return element == null ? null : leafText(element, where);
    }

    static String leafText(XmlElement element, String where) throws LifecycleConfigException {
        if (!element.children().isEmpty()) {
            throw SafeXmlReader.malformed(where + ": <" + element.name() + "> must hold a value, not elements");
        }
        return element.text();
    }
}
