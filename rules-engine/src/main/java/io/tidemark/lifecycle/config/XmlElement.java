package io.tidemark.lifecycle.config;

import java.util.List;

/** A parsed XML element with its local name, its character data and its child elements, in order. */
record XmlElement(String name, String text, List<XmlElement> children) {

    XmlElement {
        children = List.copyOf(children);
    }
}
