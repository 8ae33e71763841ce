package io.tidemark.cli.rules;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tidemark.lifecycle.config.LifecycleConfigException;
import io.tidemark.lifecycle.config.LifecycleConfigs;
import io.tidemark.lifecycle.engine.BucketVersioning;
import io.tidemark.lifecycle.engine.Evaluation;
import io.tidemark.lifecycle.engine.MultipartUpload;
import io.tidemark.lifecycle.engine.ObjectVersion;
import io.tidemark.lifecycle.engine.RuleReader;
import io.tidemark.lifecycle.engine.RuleSet;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.Optional;

/**
 * Runs lifecycle vectors: one JSON object per line, either {@code "kind":"validate"} (a configuration to
 * accept or reject) or {@code "kind":"evaluate"} (a configuration, a bucket versioning state, an instant and
 * one object version or multipart upload). A line that cannot be run yields an error result and counts as
 * failed; the run goes on with the next line.
 */
public final class VectorRunner {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final RuleReader reader;

    public VectorRunner(RuleReader reader) {
        this.reader = reader;
    }

    /** The outcome of one vector. {@code passed} is {@code null} when the vector carries no expectation. */
    public record Outcome(ObjectNode result, Boolean passed) {

        public String resultLine() {
            return result.toString();
        }
    }

    public record Summary(int passed, int failed, boolean anyExpectation) {
    }

    public Summary run(BufferedReader in, PrintWriter out) throws IOException {
        int passed = 0;
        int failed = 0;
        boolean anyExpectation = false;
        int lineNumber = 0;
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            lineNumber++;
            if (line.isBlank()) {
                continue;
            }
            Outcome outcome = runOne(line, lineNumber);
            out.println(outcome.resultLine());
            if (outcome.passed() != null) {
                anyExpectation = true;
            }
            if (Boolean.TRUE.equals(outcome.passed())) {
                passed++;
            } else if (Boolean.FALSE.equals(outcome.passed())) {
                failed++;
            }
        }
        return new Summary(passed, failed, anyExpectation);
    }

    public Outcome runOne(String line, int lineNumber) {
        JsonNode vector;
        try {
            vector = JSON.readTree(line);
        } catch (JsonProcessingException e) {
            return error(null, "line " + lineNumber + ": not valid JSON: " + e.getOriginalMessage());
        }
        JsonNode idNode = vector == null ? null : vector.get("id");
        String id = idNode != null && idNode.isTextual() ? idNode.asText() : null;
        try {
            VectorFields fields = new VectorFields(vector, "vector");
            String kind = fields.text("kind");
            return switch (kind) {
                case "validate" -> validate(id, fields);
                case "evaluate" -> evaluate(id, fields);
                default -> throw new VectorFormatException("kind must be validate or evaluate, not \"" + kind + "\"");
            };
        } catch (VectorFormatException | IllegalArgumentException | ArithmeticException e) {
            return error(id, "line " + lineNumber + ": " + e.getMessage());
        }
    }

    private Outcome validate(String id, VectorFields vector) {
        String errorCode = errorCode(vector.text("config_xml"));
        ObjectNode result = JSON.createObjectNode();
        result.put("id", id);
        result.put("valid", errorCode == null);
        result.put("error_code", errorCode);
        return new Outcome(result, expectation(vector).map(e -> e.matchesValidation(errorCode)).orElse(null));
    }

    private Outcome evaluate(String id, VectorFields vector) {
        RuleSet rules;
        try {
            rules = reader.read(vector.text("config_xml"));
        } catch (LifecycleConfigException e) {
            throw new VectorFormatException("config_xml is not a valid lifecycle configuration: " + e.describe());
        }
        Instant now = vector.instant("now");
        Evaluation evaluation;
        if (vector.has("mpu")) {
            VectorFields mpu = vector.object("mpu");
            evaluation = rules.evaluate(new MultipartUpload(mpu.text("key"), mpu.instant("initiated")), now);
        } else {
            BucketVersioning versioning = BucketVersioning.parse(vector.text("bucket_versioning"));
            evaluation = rules.evaluate(objectVersion(vector.object("object")), versioning, now);
        }
        ObjectNode result = JSON.createObjectNode();
        result.put("id", id);
        String action = evaluation.action().wireName();
        String ruleId = evaluation.ruleId().orElse(null);
        result.put("action", action);
        result.put("rule_id", ruleId);
        return new Outcome(result, expectation(vector).map(e -> e.matchesEvaluation(action, ruleId)).orElse(null));
    }

    private String errorCode(String document) {
        try {
            LifecycleConfigs.parseAndValidate(document, reader.mode());
            return null;
        } catch (LifecycleConfigException e) {
            return e.code().name();
        }
    }

    private static ObjectVersion objectVersion(VectorFields o) {
        return new ObjectVersion(
                o.text("key"),
                o.integer("size", 0),
                o.stringMap("tags"),
                o.instant("mod_time"),
                o.bool("is_latest", true),
                o.bool("is_delete_marker", false),
                o.textOrNull("version_id"),
                o.instantOrNull("successor_mod_time"),
                Math.toIntExact(o.integer("num_versions", 1)),
                o.integerOrNull("noncurrent_index"));
    }

    private static Optional<VectorExpectation> expectation(VectorFields vector) {
        return vector.has("expect")
                ? Optional.of(VectorExpectation.from(vector.object("expect")))
                : Optional.empty();
    }

    private static Outcome error(String id, String message) {
        ObjectNode result = JSON.createObjectNode();
        result.put("id", id);
        result.put("error", message);
        return new Outcome(result, false);
    }
}
