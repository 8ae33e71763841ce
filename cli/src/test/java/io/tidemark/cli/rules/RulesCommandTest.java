package io.tidemark.cli.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.cli.CliRunner;
import io.tidemark.cli.CliRunner.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RulesCommandTest {

    private static final String VALID = "<LifecycleConfiguration><Rule><ID>r1</ID><Filter/><Status>Enabled</Status>"
            + "<Expiration><Days>1</Days></Expiration></Rule></LifecycleConfiguration>";

    @TempDir
    Path dir;

    private Path write(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content);
    }

    @Test
    void shouldPrintOkAndExitZeroForAValidConfiguration() throws IOException {
        Result r = CliRunner.run("rules", "validate", write("ok.xml", VALID).toString());
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).isEqualTo("OK" + System.lineSeparator());
    }

    @Test
    void shouldPrintTheS3ErrorCodeAndExitOneForAnInvalidConfiguration() throws IOException {
        Result r = CliRunner.run("rules", "validate", write("bad.xml", VALID.replace("<Days>1", "<Days>0")).toString());
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.out()).isEqualTo("InvalidArgument: rule 1 (ID \"r1\"): Expiration Days is 0, it must be a positive "
                + "integer" + System.lineSeparator());
    }

    @Test
    void shouldAcceptAKeepCountWithoutDaysOnlyInTheSeaweedfsValidationMode() throws IOException {
        Path keepOnly = write("keep.xml", "<LifecycleConfiguration><Rule><ID>k</ID><Filter/><Status>Enabled</Status>"
                + "<NoncurrentVersionExpiration><NewerNoncurrentVersions>3</NewerNoncurrentVersions>"
                + "</NoncurrentVersionExpiration></Rule></LifecycleConfiguration>");
        Result aws = CliRunner.run("rules", "validate", keepOnly.toString());
        assertThat(aws.exitCode()).isEqualTo(1);
        assertThat(aws.out()).startsWith("MalformedXML: ");
        Result seaweedfs = CliRunner.run("rules", "validate", "--validation-mode", "seaweedfs", keepOnly.toString());
        assertThat(seaweedfs.exitCode()).isZero();
        assertThat(seaweedfs.out()).isEqualTo("OK" + System.lineSeparator());
        assertThat(CliRunner.run("rules", "validate", "--validation-mode", "minio", keepOnly.toString()).exitCode())
                .isEqualTo(2);
    }

    @Test
    void shouldExitOneWhenTheFileCannotBeRead() {
        Result r = CliRunner.run("rules", "validate", dir.resolve("missing.xml").toString());
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains("cannot read");
    }

    @Test
    void shouldExitTwoOnUsageErrors() {
        assertThat(CliRunner.run("rules", "validate").exitCode()).isEqualTo(2);
        assertThat(CliRunner.run("rules", "frobnicate").exitCode()).isEqualTo(2);
        assertThat(CliRunner.run("rules", "eval").exitCode()).isEqualTo(2);
        Result bare = CliRunner.run("rules");
        assertThat(bare.exitCode()).isEqualTo(2);
        assertThat(bare.err()).contains("validate").contains("eval");
        assertThat(CliRunner.run().exitCode()).isEqualTo(2);
        assertThat(CliRunner.run("--help").exitCode()).isZero();
    }

    @Test
    void shouldPrintOneResultPerVectorInOrderThenTheSummary() throws IOException {
        String vectors = String.join("\n",
                "{\"id\":\"v1\",\"kind\":\"validate\",\"config_xml\":\"" + escape(VALID) + "\","
                        + "\"expect\":{\"valid\":true,\"error_code\":null}}",
                "",
                "{\"id\":\"e1\",\"kind\":\"evaluate\",\"config_xml\":\"" + escape(VALID) + "\","
                        + "\"bucket_versioning\":\"Off\",\"object\":{\"key\":\"k\",\"size\":1,\"tags\":{},"
                        + "\"mod_time\":\"2024-01-01T10:00:00Z\",\"is_latest\":true,\"is_delete_marker\":false,"
                        + "\"version_id\":null,\"successor_mod_time\":null,\"num_versions\":1,\"noncurrent_index\":null},"
                        + "\"now\":\"2024-01-03T12:00:00Z\",\"expect\":{\"action\":\"none\",\"rule_id\":null}}",
                "{\"id\":\"m1\",\"kind\":\"evaluate\",\"config_xml\":\"" + escape(VALID) + "\","
                        + "\"bucket_versioning\":\"Off\",\"mpu\":{\"key\":\"k\",\"initiated\":\"2024-01-01T00:00:00Z\"},"
                        + "\"now\":\"2024-03-01T00:00:00Z\"}");
        Result r = CliRunner.run("rules", "eval", "--vectors", write("v.jsonl", vectors).toString());
        assertThat(r.out().split("\\R")).containsExactly(
                "{\"id\":\"v1\",\"valid\":true,\"error_code\":null}",
                "{\"id\":\"e1\",\"action\":\"delete\",\"rule_id\":\"r1\"}",
                "{\"id\":\"m1\",\"action\":\"none\",\"rule_id\":null}",
                "1 passed, 1 failed");
        assertThat(r.exitCode()).isEqualTo(1);
    }

    @Test
    void shouldReportUnreadableVectorsAndCarryOn() throws IOException {
        String vectors = String.join("\n",
                "{not json",
                "{\"id\":\"nokind\",\"config_xml\":\"x\"}",
                "{\"id\":\"badxml\",\"kind\":\"evaluate\",\"config_xml\":\"<x/>\",\"now\":\"2024-01-01T00:00:00Z\","
                        + "\"bucket_versioning\":\"Off\",\"object\":{\"key\":\"k\",\"mod_time\":\"2024-01-01T00:00:00Z\"}}",
                "{\"id\":\"badtime\",\"kind\":\"evaluate\",\"config_xml\":\"" + escape(VALID) + "\",\"now\":\"soon\","
                        + "\"bucket_versioning\":\"Off\",\"object\":{\"key\":\"k\",\"mod_time\":\"2024-01-01T00:00:00Z\"}}",
                "{\"id\":\"ok\",\"kind\":\"validate\",\"config_xml\":\"" + escape(VALID) + "\"}");
        Result r = CliRunner.run("rules", "eval", "--vectors", write("v.jsonl", vectors).toString());
        String[] lines = r.out().split("\\R");
        assertThat(lines).hasSize(6);
        assertThat(lines[0]).startsWith("{\"id\":null,\"error\":\"line 1: not valid JSON");
        assertThat(lines[1]).isEqualTo("{\"id\":\"nokind\",\"error\":\"line 2: kind must be a string\"}");
        assertThat(lines[2]).startsWith("{\"id\":\"badxml\",\"error\":\"line 3: config_xml is not a valid lifecycle "
                + "configuration: MalformedXML");
        assertThat(lines[3]).contains("\"id\":\"badtime\"").contains("now \\\"soon\\\" is not an ISO-8601 instant");
        assertThat(lines[4]).isEqualTo("{\"id\":\"ok\",\"valid\":true,\"error_code\":null}");
        assertThat(lines[5]).isEqualTo("0 passed, 4 failed");
        assertThat(r.exitCode()).isEqualTo(1);
    }

    @Test
    void shouldPrintNoSummaryAndExitZeroWhenNoVectorCarriesExpectations() throws IOException {
        String vectors = "{\"id\":\"ok\",\"kind\":\"validate\",\"config_xml\":\"" + escape(VALID) + "\"}";
        Result r = CliRunner.run("rules", "eval", "--vectors", write("v.jsonl", vectors).toString());
        assertThat(r.out().split("\\R")).containsExactly("{\"id\":\"ok\",\"valid\":true,\"error_code\":null}");
        assertThat(r.exitCode()).isZero();
    }

    @Test
    void shouldApplyTheExactDuePolicyWhenAsked() throws IOException {
        String vector = "{\"id\":\"early\",\"kind\":\"evaluate\",\"config_xml\":\"" + escape(VALID) + "\","
                + "\"bucket_versioning\":\"Off\",\"object\":{\"key\":\"k\",\"mod_time\":\"2024-01-01T10:00:00Z\"},"
                + "\"now\":\"2024-01-02T12:00:00Z\"}";
        Path file = write("v.jsonl", vector);
        assertThat(CliRunner.run("rules", "eval", "--vectors", file.toString()).out())
                .contains("\"action\":\"none\"");
        assertThat(CliRunner.run("rules", "eval", "--vectors", file.toString(), "--due-policy", "exact").out())
                .contains("\"action\":\"delete\"");
        assertThat(CliRunner.run("rules", "eval", "--vectors", file.toString(), "--due-policy", "soon").exitCode())
                .isEqualTo(2);
    }

    @Test
    void shouldCheckErrorCodesOnlyWhereS3WasObserved() throws IOException {
        String invalid = escape(VALID.replace("<Days>1", "<Days>0"));
        String vectors = String.join("\n",
                "{\"id\":\"observed\",\"kind\":\"validate\",\"config_xml\":\"" + invalid + "\",\"expect\":{\"valid\":false,"
                        + "\"error_code\":\"MalformedXML\",\"code_confidence\":\"aws-observed\"}}",
                "{\"id\":\"inferred\",\"kind\":\"validate\",\"config_xml\":\"" + invalid + "\",\"expect\":{\"valid\":false,"
                        + "\"error_code\":\"MalformedXML\",\"code_confidence\":\"inferred\"}}");
        Result r = CliRunner.run("rules", "eval", "--vectors", write("v.jsonl", vectors).toString());
        assertThat(r.out()).endsWith("1 passed, 1 failed" + System.lineSeparator());
    }

    @Test
    void shouldAcceptAnyListedCandidateWhenRuleIdIsNotStrict() throws IOException {
        String config = escape("<LifecycleConfiguration><Rule><ID>a</ID><Filter/><Status>Enabled</Status><Expiration>"
                + "<Days>1</Days></Expiration></Rule><Rule><ID>b</ID><Filter/><Status>Enabled</Status><Expiration>"
                + "<Days>1</Days></Expiration></Rule></LifecycleConfiguration>");
        String vector = "{\"id\":\"tie\",\"kind\":\"evaluate\",\"config_xml\":\"" + config + "\","
                + "\"bucket_versioning\":\"Off\",\"object\":{\"key\":\"k\",\"mod_time\":\"2024-01-01T10:00:00Z\"},"
                + "\"now\":\"2024-02-01T00:00:00Z\",\"expect\":{\"action\":\"delete\",\"rule_id\":\"b\","
                + "\"rule_id_strict\":false,\"rule_id_candidates\":[\"b\",\"a\"]}}";
        Result r = CliRunner.run("rules", "eval", "--vectors", write("v.jsonl", vector).toString());
        assertThat(r.out()).contains("\"rule_id\":\"a\"").endsWith("1 passed, 0 failed" + System.lineSeparator());
    }

    private static String escape(String xml) {
        return xml.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
