package io.tidemark.cli.rules;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;

/** Typed reads of vector fields that fail with a message naming the field. */
final class VectorFields {

    private final JsonNode node;
    private final String where;

    VectorFields(JsonNode node, String where) {
        if (node == null || !node.isObject()) {
            throw new VectorFormatException(where + " must be a JSON object");
        }
        this.node = node;
        this.where = where;
    }

    boolean has(String field) {
        return node.hasNonNull(field);
    }

    VectorFields object(String field) {
        return new VectorFields(node.get(field), where.equals("vector") ? field : where + "." + field);
    }

    String text(String field) {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual()) {
            throw new VectorFormatException(name(field) + " must be a string");
        }
        return value.asText();
    }

    String textOrNull(String field) {
        return has(field) ? text(field) : null;
    }

    long integer(String field, long fallback) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return fallback;
        }
        if (!value.canConvertToLong() || !value.isIntegralNumber()) {
            throw new VectorFormatException(name(field) + " must be an integer");
        }
        return value.asLong();
    }

    Integer integerOrNull(String field) {
        return has(field) ? Math.toIntExact(integer(field, 0)) : null;
    }

    boolean bool(String field, boolean fallback) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return fallback;
        }
        if (!value.isBoolean()) {
            throw new VectorFormatException(name(field) + " must be true or false");
        }
        return value.asBoolean();
    }

    Instant instant(String field) {
        String text = text(field);
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException e) {
            throw new VectorFormatException(name(field) + " \"" + text + "\" is not an ISO-8601 instant");
        }
    }

    Instant instantOrNull(String field) {
        return has(field) ? instant(field) : null;
    }

    Map<String, String> stringMap(String field) {
        JsonNode value = node.get(field);
        Map<String, String> map = new LinkedHashMap<>();
        if (value == null || value.isNull()) {
            return map;
        }
        if (!value.isObject()) {
            throw new VectorFormatException(name(field) + " must be an object of strings");
        }
        for (Map.Entry<String, JsonNode> e : value.properties()) {
            if (!e.getValue().isTextual()) {
                throw new VectorFormatException(name(field) + "." + e.getKey() + " must be a string");
            }
            map.put(e.getKey(), e.getValue().asText());
        }
        return map;
    }

    JsonNode raw(String field) {
        return node.get(field);
    }

    private String name(String field) {
        return where.equals("vector") ? field : where + "." + field;
    }
}
