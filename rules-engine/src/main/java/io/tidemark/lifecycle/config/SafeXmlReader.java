package io.tidemark.lifecycle.config;

import java.io.ByteArrayInputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Reads a lifecycle document into an element tree without trusting it: bodies over the size cap are refused
 * before parsing, DTDs and entity references are refused outright (no entity expansion, no external fetches),
 * nesting is capped, and only S3's namespace or none is accepted.
 */
final class SafeXmlReader {

    /** SeaweedFS stores lifecycle XML of up to 1 MiB in the bucket entry; a 1000-rule document is ~110 KiB. */
    static final int MAX_BYTES = 1 << 20;
    /** The lifecycle schema nests six deep (LifecycleConfiguration/Rule/Filter/And/Tag/Key). */
    static final int MAX_DEPTH = 8;
    static final String S3_NAMESPACE = "http://s3.amazonaws.com/doc/2006-03-01/";

    private static final XMLInputFactory FACTORY = hardenedFactory();

    private SafeXmlReader() {
    }

    private static XMLInputFactory hardenedFactory() {
        // The JDK's own implementation, so a StAX provider elsewhere on the classpath cannot change the rules.
        XMLInputFactory factory = XMLInputFactory.newDefaultFactory();
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        factory.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, true);
        factory.setProperty(XMLInputFactory.IS_COALESCING, true);
        factory.setProperty(XMLInputFactory.IS_REPLACING_ENTITY_REFERENCES, false);
        factory.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        return factory;
    }

    static XmlElement read(byte[] document) throws LifecycleConfigException {
        if (document.length > MAX_BYTES) {
            throw malformed("the document is " + document.length + " bytes, over the limit of " + MAX_BYTES);
        }
        XMLStreamReader reader = null;
        try {
            reader = FACTORY.createXMLStreamReader(new ByteArrayInputStream(document));
            return readTree(reader);
        } catch (XMLStreamException e) {
            throw malformed("the document is not well-formed XML: " + oneLine(e.getMessage()));
        } finally {
            if (reader != null) {
                try {
                    reader.close();
                } catch (XMLStreamException ignored) {
                    // Nothing is left to release for an in-memory stream.
                }
            }
        }
    }

    private static XmlElement readTree(XMLStreamReader reader) throws XMLStreamException, LifecycleConfigException {
        Deque<Builder> open = new ArrayDeque<>();
        XmlElement root = null;
        while (reader.hasNext()) {
            int event = reader.next();
            switch (event) {
                case XMLStreamConstants.DTD -> throw malformed("document type declarations are not allowed");
                case XMLStreamConstants.ENTITY_REFERENCE ->
                        throw malformed("entity references are not allowed (&" + reader.getLocalName() + ";)");
                case XMLStreamConstants.START_ELEMENT -> {
                    if (open.size() >= MAX_DEPTH) {
                        throw malformed("elements are nested deeper than " + MAX_DEPTH + " levels");
                    }
                    String ns = reader.getNamespaceURI();
                    if (ns != null && !ns.isEmpty() && !ns.equals(S3_NAMESPACE)) {
                        throw malformed("element <" + reader.getLocalName() + "> is in the foreign namespace " + ns);
                    }
                    open.push(new Builder(reader.getLocalName()));
                }
                case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA, XMLStreamConstants.SPACE -> {
                    if (!open.isEmpty()) {
                        open.peek().text.append(reader.getText());
                    }
                }
                case XMLStreamConstants.END_ELEMENT -> {
                    XmlElement done = open.pop().build();
                    if (open.isEmpty()) {
                        root = done;
                    } else {
                        open.peek().children.add(done);
                    }
                }
                default -> {
                    // Comments, processing instructions and the document boundaries carry no configuration.
                }
            }
        }
        if (root == null) {
            throw malformed("the document has no root element");
        }
        return root;
    }

    private static String oneLine(String message) {
        return message == null ? "parse error" : message.replaceAll("\\s*\\R\\s*", " ").strip();
    }

    static LifecycleConfigException malformed(String message) {
        return new LifecycleConfigException(S3ErrorCode.MalformedXML, message);
    }

    private static final class Builder {
        private final String name;
        private final StringBuilder text = new StringBuilder();
        private final List<XmlElement> children = new ArrayList<>();

        private Builder(String name) {
            this.name = name;
        }

        private XmlElement build() {
            return new XmlElement(name, text.toString(), children);
        }
    }
}
