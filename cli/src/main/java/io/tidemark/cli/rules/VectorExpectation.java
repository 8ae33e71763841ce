package io.tidemark.cli.rules;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a vector expects. Following the vector format's own convention, a validation always checks the
 * verdict but checks the error code only when S3 was observed answering it (confidence {@code aws-observed}
 * or {@code aws-observed-secondary}, or none given). An evaluation with {@code rule_id_strict: false} accepts
 * any of the listed candidate rules.
 */
record VectorExpectation(VectorFields fields) {

    static VectorExpectation from(VectorFields fields) {
        return new VectorExpectation(fields);
    }

    boolean matchesValidation(String errorCode) {
        boolean valid = fields.bool("valid", true);
        if (valid != (errorCode == null)) {
            return false;
        }
        String expectedCode = fields.textOrNull("error_code");
        String confidence = fields.textOrNull("code_confidence");
        boolean codeIsObserved = confidence == null || confidence.startsWith("aws-observed");
        return valid || expectedCode == null || !codeIsObserved || expectedCode.equals(errorCode);
    }

    boolean matchesEvaluation(String action, String ruleId) {
        if (!fields.text("action").equals(action)) {
            return false;
        }
        String expectedRule = fields.textOrNull("rule_id");
        if (fields.bool("rule_id_strict", true)) {
            return Objects.equals(expectedRule, ruleId);
        }
        return candidates(expectedRule).contains(ruleId);
    }

    private List<String> candidates(String expectedRule) {
        List<String> candidates = new ArrayList<>();
        if (expectedRule != null) {
            candidates.add(expectedRule);
        }
        JsonNode list = fields.raw("rule_id_candidates");
        if (list != null && list.isArray()) {
            list.forEach(c -> candidates.add(c.asText()));
        }
        return candidates;
    }
}
