package io.tidemark.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tidemark.cli.ServicesCommand;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.emulator.s3.S3Gateway;
import io.tidemark.messages.LifecycleEvent;
import io.tidemark.topics.TopicReader;
import io.tidemark.topics.TopicRegistry;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;

/**
 * What an operator does before trusting new rules, every switch through the command line, run beside
 * {@link EndToEndTest}'s pipeline (the same service processes): a paused bucket loses nothing and deletes nothing
 * until it is resumed, a bucket in dry run only records what it would do until it is taken out, and a paused cluster
 * holds even a resumed bucket.
 */
final class OperatorControlsScenario {

    private static final List<String> KEYS = List.of("a", "b/c", "d e");
    private static final List<String> BUCKETS = List.of("ctl-held", "ctl-trial", "ctl-free");

    private final S3Gateway s3;
    private final List<String> settings;

    OperatorControlsScenario(S3Gateway s3, List<String> settings) {
        this.s3 = s3;
        this.settings = settings;
    }

    /** Pauses one bucket and puts another in dry run, then gives all three the same one-day rule and objects. */
    void prepare() throws InterruptedException {
        assertThat(cli("pause", "--bucket", "ctl-held", "--reason", "new rules")).contains("bucket ctl-held paused");
        assertThat(cli("bucket", "dry-run", "ctl-trial", "on")).contains("bucket ctl-trial is in dry run");
        for (String bucket : BUCKETS) {
            s3.createBucket(bucket, false);
            s3.putLifecycle(bucket, "<LifecycleConfiguration><Rule><ID>days</ID><Filter><Prefix></Prefix>"
                    + "</Filter><Status>Enabled</Status><Expiration><Days>1</Days></Expiration></Rule>"
                    + "</LifecycleConfiguration>");
        }
        Thread.sleep(500);
        for (String bucket : BUCKETS) {
            for (String key : KEYS) {
                s3.putObject(bucket, key, 10, Map.of(), Map.of());
            }
        }
    }

    /** Once the objects are long past due: what was held and recorded, then resumed and switched off. */
    void verify() throws InterruptedException {
        await().atMost(Duration.ofSeconds(60)).until(() -> gone("ctl-free"));
        await().atMost(Duration.ofSeconds(30)).until(() -> outcomes("ctl-trial", "DRY_RUN") >= KEYS.size()
                && outcomes("ctl-held", "PAUSED") >= KEYS.size());
        assertPresent("ctl-held");
        assertPresent("ctl-trial");
        assertThat(cli("status")).contains("controls: bucket ctl-held PAUSED", ": new rules",
                "controls: bucket ctl-trial DRY RUN", "controls: bucket ctl-held OWED A WALK",
                "controls: bucket ctl-trial OWED A WALK");

        // The cluster paused: resuming the bucket alone does not let its tasks go.
        assertThat(cli("pause")).contains("the cluster paused");
        assertThat(cli("resume", "--bucket", "ctl-held")).contains("bucket ctl-held resumed",
                "the whole cluster is still paused");
        Thread.sleep(2_000);
        assertPresent("ctl-held");
        assertThat(cli("status")).contains("the cluster is paused", "CLUSTER PAUSED");

        // Resumed: the walk the processors owe it carries out what came due while it was paused.
        assertThat(cli("resume")).contains("the cluster resumed");
        await().atMost(Duration.ofSeconds(60)).until(() -> gone("ctl-held"));
        // The audit record follows the gateway's answer: awaited, not read at once.
        await().atMost(Duration.ofSeconds(30)).until(() -> outcomes("ctl-held", "DONE") == KEYS.size());
        // Out of dry run: the same, for what was only recorded.
        assertPresent("ctl-trial");
        assertThat(cli("bucket", "dry-run", "ctl-trial", "off")).contains("is out of dry run",
                "the object processors now send the walk it is owed");
        await().atMost(Duration.ofSeconds(60)).until(() -> gone("ctl-trial"));
        await().atMost(Duration.ofSeconds(30)).until(() -> outcomes("ctl-trial", "DONE") == KEYS.size());
        assertThat(cli("status")).contains("controls: none");
    }

    private boolean gone(String bucket) {
        return KEYS.stream().noneMatch(k -> s3.latest(bucket, k).isPresent());
    }

    private void assertPresent(String bucket) {
        for (String key : KEYS) {
            assertThat(s3.latest(bucket, key)).as(bucket + "/" + key + " must still be there").isPresent();
        }
    }

    /** How many lifecycle-events records of the bucket have the outcome (any outcome when null). */
    private long outcomes(String bucket, String outcome) {
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i + 1 < settings.size(); i += 2) {
            String[] kv = settings.get(i + 1).split("=", 2);
            values.put(kv[0], kv[1]);
        }
        TidemarkConfig config = new TidemarkConfig(values);
        return TopicReader.committedValues(config.consumerProperties(), TopicRegistry.from(config).lifecycleEvents(),
                Duration.ofSeconds(30)).stream().filter(e -> e.bucket().equals(bucket))
                .map(LifecycleEvent::outcome).filter(o -> outcome == null || o.equals(outcome)).count();
    }

    private String cli(String... command) {
        List<String> args = new ArrayList<>(List.of(command));
        args.addAll(settings);
        StringWriter out = new StringWriter();
        new CommandLine(new ServicesCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(out))
                .execute(args.toArray(String[]::new));
        return out.toString();
    }
}
