package io.tidemark.cli.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tidemark.emulator.EmulatorSettings;
import io.tidemark.emulator.FilerEmulator;
import io.tidemark.emulator.MutableClock;
import io.tidemark.emulator.s3.S3Gateway;
import io.tidemark.lifecycle.engine.BucketVersioning;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code tidemark lifecycle what-if} against an in-process emulator whose clock the test sets: objects are written at
 * chosen instants, and the report is read at {@link #T0} (mid-day, so no due time falls on a day's edge).
 */
class WhatIfCommandTest {

    private static final Instant T0 = Instant.parse("2026-03-10T12:00:00Z");
    private static final Duration DAY = Duration.ofDays(1);

    private static MutableClock clock;
    private static FilerEmulator emulator;
    private static S3Gateway s3;

    @TempDir
    Path dir;

    private record Run(int exitCode, String out, String err) {
        JsonNode json() {
            try {
                return new ObjectMapper().readTree(out);
            } catch (IOException e) {
                throw new AssertionError("not JSON: " + out + err, e);
            }
        }
    }

    @BeforeAll
    static void startEmulator() {
        clock = new MutableClock(T0);
        emulator = new FilerEmulator(EmulatorSettings.ephemeral(), clock).start();
        s3 = emulator.s3();
    }

    @AfterAll
    static void stopEmulator() {
        emulator.close();
    }

    @AfterEach
    void backToNow() {
        clock.set(T0);
    }

    private static Run whatIf(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        List<String> all = new ArrayList<>(List.of("what-if", "--set", "filer.address=" + emulator.filerAddress(),
                "--set", "lifecycle.due.policy=exact"));
        all.addAll(List.of(args));
        if (!all.contains("--entries-per-second")) {
            // Unpaced unless a test is about the pace: the tests stay fast.
            all.addAll(List.of("--entries-per-second", "0"));
        }
        int code = new CommandLine(new LifecycleCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
                .execute(all.toArray(String[]::new));
        return new Run(code, out.toString(), err.toString());
    }

    private static void putAt(Instant when, String bucket, String key, long size) {
        clock.set(when);
        s3.putObject(bucket, key, size, Map.of(), Map.of());
        clock.set(T0);
    }

    private static String rule(String id, String prefix, String action) {
        return "<Rule><ID>" + id + "</ID><Filter><Prefix>" + prefix + "</Prefix></Filter><Status>Enabled</Status>"
                + action + "</Rule>";
    }

    private static String config(String... rules) {
        return "<LifecycleConfiguration>" + String.join("", rules) + "</LifecycleConfiguration>";
    }

    private Path file(String xml) throws IOException {
        return Files.writeString(dir.resolve("rules-" + System.nanoTime() + ".xml"), xml);
    }

    private static List<String> keys(JsonNode samples) {
        List<String> keys = new ArrayList<>();
        samples.forEach(s -> keys.add(s.get("key").asText()));
        return keys;
    }

    @Test
    void shouldCountWhatTheBucketsCurrentRulesExpireNowAndOnEachDayOfTheHorizon() {
        s3.createBucket("days", false);
        s3.putLifecycle("days", config(rule("logs", "logs/", "<Expiration><Days>10</Days></Expiration>")));
        putAt(T0.minus(DAY.multipliedBy(11)), "days", "logs/old", 100);
        putAt(T0.minus(DAY.multipliedBy(8)).minusSeconds(3600), "days", "logs/soon", 200);
        putAt(T0, "days", "logs/late", 400);
        putAt(T0.minus(DAY.multipliedBy(100)), "days", "keep/x", 800);

        Run run = whatIf("--bucket", "days", "--days", "5", "--json");

        assertThat(run.exitCode()).as(run.err()).isZero();
        JsonNode logs = run.json().get("rules").get(0);
        assertThat(logs.get("id").asText()).isEqualTo("logs");
        assertThat(logs.at("/now/currentExpired/count").asLong()).isEqualTo(1);
        assertThat(logs.at("/now/currentExpired/bytes").asLong()).isEqualTo(100);
        // Due 1 day 23 hours after now: day 2. logs/late is due on day 10, past a 5-day horizon.
        assertThat(logs.get("days")).hasSize(5);
        assertThat(logs.at("/days/1/day").asInt()).isEqualTo(2);
        assertThat(logs.at("/days/1/actions/currentExpired/bytes").asLong()).isEqualTo(200);
        assertThat(logs.at("/days/0/actions/currentExpired/count").asLong()).isZero();
        assertThat(logs.at("/total/currentExpired/count").asLong()).isEqualTo(2);
        assertThat(Instant.parse(logs.get("earliestDue").asText())).isEqualTo(T0.minus(DAY));
        assertThat(keys(logs.get("samples"))).containsExactly("logs/old", "logs/soon");
        assertThat(run.json().at("/walk/entries").asLong()).isGreaterThanOrEqualTo(4);
        assertThat(run.json().has("change")).isFalse();

        Run longer = whatIf("--bucket", "days", "--days", "30", "--json");
        JsonNode day10 = longer.json().at("/rules/0/days/9");
        assertThat(day10.get("day").asInt()).isEqualTo(10);
        assertThat(day10.at("/actions/currentExpired/bytes").asLong()).isEqualTo(400);
        assertThat(Instant.parse(day10.get("until").asText())).isBetween(T0.plus(DAY.multipliedBy(10)).minusSeconds(5),
                T0.plus(DAY.multipliedBy(10)).plusSeconds(5));
    }

    @Test
    void shouldCountNoncurrentVersionsAndLoneDeleteMarkersInAVersionedBucket() {
        s3.createBucket("versions", false);
        s3.setVersioning("versions", BucketVersioning.ENABLED);
        s3.putLifecycle("versions", config(rule("tidy", "",
                "<Expiration><ExpiredObjectDeleteMarker>true</ExpiredObjectDeleteMarker></Expiration>"
                        + "<NoncurrentVersionExpiration><NoncurrentDays>3</NoncurrentDays></NoncurrentVersionExpiration>")));
        Instant fiveDaysAgo = T0.minus(DAY.multipliedBy(5));
        // a: the older version became noncurrent five days ago (due two days ago); the newer is current.
        putAt(fiveDaysAgo, "versions", "a", 100);
        putAt(fiveDaysAgo, "versions", "a", 300);
        // b: demoted yesterday, due on day 2.
        putAt(fiveDaysAgo, "versions", "b", 50);
        putAt(T0.minus(DAY), "versions", "b", 70);
        // m: a delete marker left alone once its only version is gone.
        clock.set(fiveDaysAgo);
        String version = s3.putObject("versions", "m", 10, Map.of(), Map.of());
        s3.deleteObject("versions", "m");
        s3.deleteVersion("versions", "m", version);
        clock.set(T0);

        Run run = whatIf("--bucket", "versions", "--json");

        assertThat(run.exitCode()).as(run.err()).isZero();
        JsonNode tidy = run.json().get("rules").get(0);
        assertThat(tidy.at("/now/noncurrentExpired/count").asLong()).isEqualTo(1);
        assertThat(tidy.at("/now/noncurrentExpired/bytes").asLong()).isEqualTo(100);
        assertThat(tidy.at("/now/deleteMarkersRemoved/count").asLong()).isEqualTo(1);
        assertThat(tidy.at("/now/currentExpired/count").asLong()).isZero();
        assertThat(tidy.at("/days/1/actions/noncurrentExpired/bytes").asLong()).isEqualTo(50);
        assertThat(tidy.at("/total/noncurrentExpired/count").asLong()).isEqualTo(2);
        assertThat(keys(tidy.get("samples"))).containsExactly("a", "b", "m");
        assertThat(tidy.at("/samples/0/versionId").asText()).isNotEmpty();
        assertThat(tidy.at("/samples/2/action").asText()).isEqualTo("delete_marker_cleanup");
    }

    @Test
    void shouldCountTheMultipartUploadsARuleAborts() {
        s3.createBucket("uploads", false);
        s3.putLifecycle("uploads", config(rule("abort", "",
                "<AbortIncompleteMultipartUpload><DaysAfterInitiation>2</DaysAfterInitiation>"
                        + "</AbortIncompleteMultipartUpload>")));
        clock.set(T0.minus(DAY.multipliedBy(3)));
        String forgotten = s3.createUpload("uploads", "big/forgotten");
        clock.set(T0.minus(Duration.ofHours(1)));
        s3.createUpload("uploads", "big/recent");
        s3.uploadPart("uploads", forgotten, 1, 5000);
        clock.set(T0);

        Run run = whatIf("--bucket", "uploads", "--json");

        JsonNode abort = run.json().get("rules").get(0);
        assertThat(abort.at("/now/uploadsAborted/count").asLong()).isEqualTo(1);
        assertThat(abort.at("/days/1/actions/uploadsAborted/count").asLong()).isEqualTo(1);
        assertThat(abort.at("/samples/0/uploadId").asText()).isEqualTo(forgotten);
        assertThat(abort.at("/samples/0/key").asText()).isEqualTo("big/forgotten");
    }

    @Test
    void shouldReportWhatANewRuleAddsOverTheCurrentOneAndWhatItRemoves() throws IOException {
        s3.createBucket("change", false);
        s3.putLifecycle("change", config(rule("logs", "logs/", "<Expiration><Days>10</Days></Expiration>")));
        putAt(T0.minus(DAY.multipliedBy(12)), "change", "logs/a", 100);
        putAt(T0.minus(DAY.multipliedBy(12)), "change", "logs/b", 100);
        putAt(T0, "change", "tmp/c", 5);
        Path tmpOnly = file(config(rule("tmp", "tmp/", "<Expiration><Days>1</Days></Expiration>"),
                rule("logs", "logs/b", "<Expiration><Days>10</Days></Expiration>")));

        Run run = whatIf("--bucket", "change", "--rules", tmpOnly.toString(), "--json", "--fail-if-change-adds");

        assertThat(run.exitCode()).isEqualTo(WhatIfCommand.CHANGE_ADDS);
        JsonNode change = run.json().get("change");
        assertThat(change.get("current").asText()).isEqualTo("valid");
        assertThat(change.at("/currentActsOn/count").asLong()).isEqualTo(2);
        assertThat(change.at("/givenActsOn/count").asLong()).isEqualTo(2);
        assertThat(change.at("/adds/entries/count").asLong()).isEqualTo(1);
        assertThat(keys(change.at("/adds/samples"))).containsExactly("tmp/c");
        assertThat(change.at("/removes/entries/bytes").asLong()).isEqualTo(100);
        assertThat(keys(change.at("/removes/samples"))).containsExactly("logs/a");
        assertThat(run.json().get("rulesSource").asText()).isEqualTo(tmpOnly.toString());
        assertThat(run.json().at("/rules/0/days/0/actions/currentExpired/count").asLong()).isEqualTo(1);

        Run human = whatIf("--bucket", "change", "--rules", tmpOnly.toString());
        assertThat(human.exitCode()).isZero();
        assertThat(human.out()).contains("change against the bucket's current configuration (valid)")
                .containsPattern("adds +1 entries \\(5 B\\); e\\.g\\. tmp/c")
                .containsPattern("removes +1 entries \\(100 B\\); e\\.g\\. logs/a");
    }

    /** SeaweedFS #6619's fear: a rule shortened by mistake acts on the same entries as before, only much sooner. */
    @Test
    void shouldFailTheChangeCheckWhenTheNewRulesDeleteTheSameEntriesSooner() throws IOException {
        s3.createBucket("shortened", false);
        s3.putLifecycle("shortened", config(rule("logs", "logs/", "<Expiration><Days>30</Days></Expiration>")));
        putAt(T0.minus(DAY.multipliedBy(2)), "shortened", "logs/young", 10);
        putAt(T0.minus(DAY.multipliedBy(29)), "shortened", "logs/old", 10);
        Path oneDay = file(config(rule("logs", "logs/", "<Expiration><Days>1</Days></Expiration>")));

        Run run = whatIf("--bucket", "shortened", "--rules", oneDay.toString(), "--days", "60", "--json",
                "--fail-if-change-adds");

        assertThat(run.exitCode()).isEqualTo(WhatIfCommand.CHANGE_ADDS);
        JsonNode change = run.json().get("change");
        assertThat(change.at("/adds/entries/count").asLong()).isZero();
        assertThat(change.at("/removes/entries/count").asLong()).isZero();
        assertThat(change.at("/sooner/entries/count").asLong()).isEqualTo(2);
        assertThat(keys(change.at("/sooner/samples"))).containsExactlyInAnyOrder("logs/young", "logs/old");
        assertThat(change.at("/later/entries/count").asLong()).isZero();

        Run lengthened = whatIf("--bucket", "shortened", "--rules", file(config(rule("logs", "logs/",
                "<Expiration><Days>40</Days></Expiration>"))).toString(), "--days", "60", "--json",
                "--fail-if-change-adds");
        assertThat(lengthened.exitCode()).as("acting later adds no risk").isZero();
        assertThat(lengthened.json().at("/change/later/entries/count").asLong()).isEqualTo(2);
    }

    @Test
    void shouldReportEntriesUnderObjectLockAsHeldNotDeleted() {
        s3.createBucket("locked", true);
        s3.setVersioning("locked", BucketVersioning.ENABLED);
        s3.putLifecycle("locked", config(rule("all", "", "<Expiration><Days>1</Days></Expiration>")));
        Instant old = T0.minus(DAY.multipliedBy(3));
        clock.set(old);
        String held = s3.putObject("locked", "held-by-hold", 10, Map.of(), Map.of());
        String retained = s3.putObject("locked", "held-by-retention", 20, Map.of(), Map.of());
        String lapsed = s3.putObject("locked", "retention-over", 40, Map.of(), Map.of());
        s3.putLegalHold("locked", "held-by-hold", held, true);
        s3.putRetention("locked", "held-by-retention", retained, "GOVERNANCE", T0.plus(DAY));
        s3.putRetention("locked", "retention-over", lapsed, "GOVERNANCE", T0.minus(DAY));
        clock.set(T0);

        Run run = whatIf("--bucket", "locked", "--json", "--fail-if-deletes");

        assertThat(run.exitCode()).isEqualTo(WhatIfCommand.DELETES_NOW);
        JsonNode all = run.json().get("rules").get(0);
        assertThat(all.at("/now/held/count").asLong()).isEqualTo(2);
        assertThat(all.at("/now/held/bytes").asLong()).isEqualTo(30);
        assertThat(all.at("/now/currentExpired/count").asLong()).isEqualTo(1);
        assertThat(all.at("/now/currentExpired/bytes").asLong()).isEqualTo(40);
        List<String> heldKeys = new ArrayList<>();
        all.get("samples").forEach(s -> {
            if (s.get("held").asBoolean()) {
                heldKeys.add(s.get("key").asText());
            }
        });
        assertThat(heldKeys).containsExactlyInAnyOrder("held-by-hold", "held-by-retention");

        s3.putRetention("locked", "retention-over", lapsed, "GOVERNANCE", T0.plus(DAY.multipliedBy(100)));
        assertThat(whatIf("--bucket", "locked", "--fail-if-deletes").exitCode())
                .as("everything due is held: nothing is removed now").isZero();
    }

    @Test
    void shouldExitWithS3sErrorCodeForBadXmlAndNamedCodeForAMissingBucket() throws IOException {
        s3.createBucket("bad", false);
        Path malformed = file(config("<Rule><ID>x</ID><Filter><Prefix></Prefix></Filter><Status>enabled</Status>"
                + "<Expiration><Days>1</Days></Expiration></Rule>"));

        Run bad = whatIf("--bucket", "bad", "--rules", malformed.toString(), "--json");
        assertThat(bad.exitCode()).isEqualTo(WhatIfCommand.INVALID_RULES);
        assertThat(bad.json().at("/error/code").asText()).isEqualTo("MalformedXML");
        assertThat(bad.json().at("/error/exitCode").asInt()).isEqualTo(3);

        Run badHuman = whatIf("--bucket", "bad", "--rules", malformed.toString());
        assertThat(badHuman.err()).startsWith("MalformedXML: ");

        s3.putLifecycleUnchecked("bad", config(rule("zero", "", "<Expiration><Days>0</Days></Expiration>")));
        Run storedInvalid = whatIf("--bucket", "bad");
        assertThat(storedInvalid.exitCode()).isEqualTo(WhatIfCommand.INVALID_RULES);
        assertThat(storedInvalid.err()).startsWith("InvalidArgument: ").contains("the pipeline ignores it");

        Run missing = whatIf("--bucket", "no-such-bucket", "--json");
        assertThat(missing.exitCode()).isEqualTo(WhatIfCommand.NO_SUCH_BUCKET);
        assertThat(missing.json().at("/error/code").asText()).isEqualTo("NoSuchBucket");
    }

    @Test
    void shouldSayNothingWouldBeDoneForABucketWithoutRules() {
        s3.createBucket("plain", false);
        putAt(T0, "plain", "x", 1);

        Run run = whatIf("--bucket", "plain");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("has no lifecycle configuration: nothing would be done");
    }

    @Test
    void shouldKeepTheJsonDocumentsFieldsInAStableOrder() {
        s3.createBucket("shape", false);
        s3.putLifecycle("shape", config(rule("r", "", "<Expiration><Days>1</Days></Expiration>")));
        putAt(T0.minus(DAY.multipliedBy(2)), "shape", "k", 1);

        JsonNode doc = whatIf("--bucket", "shape", "--days", "2", "--json").json();

        assertThat(fieldNames(doc)).containsExactly("bucket", "versioning", "rulesSource", "now", "daySeconds", "days",
                "horizonEnd", "rules", "walk");
        JsonNode rule = doc.get("rules").get(0);
        assertThat(fieldNames(rule)).containsExactly("index", "id", "enabled", "now", "days", "total", "earliestDue",
                "samples");
        assertThat(fieldNames(rule.get("now"))).containsExactly("currentExpired", "noncurrentExpired",
                "deleteMarkersRemoved", "uploadsAborted", "held");
        assertThat(fieldNames(rule.at("/now/held"))).containsExactly("count", "bytes");
        assertThat(fieldNames(rule.at("/days/0"))).containsExactly("day", "from", "until", "actions");
        assertThat(fieldNames(rule.at("/samples/0"))).containsExactly("key", "ruleId", "action", "dueAt", "held",
                "bytes");
        assertThat(fieldNames(doc.get("walk"))).containsExactly("entries", "listed", "listCalls", "lookupCalls",
                "layoutAnomalies", "nullDeleteMarkers", "seconds", "entriesPerSecond");
        assertThat(doc.get("daySeconds").asLong()).isEqualTo(86_400);
    }

    @Test
    void shouldPrintAProgressLineWithoutAnEtaWhenNoTotalIsKnown() {
        s3.createBucket("progress", false);
        s3.putLifecycle("progress", config(rule("r", "", "<Expiration><Days>1</Days></Expiration>")));
        for (int i = 0; i < 2_500; i++) {
            s3.putObject("progress", String.format("k%05d", i), 1, Map.of(), Map.of());
        }

        Run run = whatIf("--bucket", "progress", "--progress-seconds", "0");
        assertThat(run.err()).isEmpty();
        // At 800 entries/s the second page ends after 1.25 s, past the one-second interval; the last page prints nothing.
        Run paced = whatIf("--bucket", "progress", "--entries-per-second", "800", "--progress-seconds", "1");
        assertThat(paced.err()).contains("what-if progress: ").contains("entries/s").contains("no ETA");
        assertThat(paced.exitCode()).isZero();
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        Iterator<String> it = node.fieldNames();
        it.forEachRemaining(names::add);
        return names;
    }
}
