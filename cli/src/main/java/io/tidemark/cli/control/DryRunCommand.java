package io.tidemark.cli.control;

import io.tidemark.cli.ConfigOptions;
import io.tidemark.cli.ExitCodes;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.messages.BucketTask;
import io.tidemark.topics.KafkaClients;
import io.tidemark.topics.TopicRegistry;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "dry-run", mixinStandardHelpOptions = true,
        description = {"Puts a bucket in dry run, or takes it out. In dry run every stage runs as usual, but the object "
                + "processors record each action in lifecycle-events as DRY_RUN (read them with tidemark audit) "
                + "instead of calling the gateway.",
            "Taking a bucket out of dry run sends a walk of the whole bucket, which carries out what came due "
                + "meanwhile (the actions only recorded) and re-arms what is still to come: nothing is lost."})
public final class DryRunCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private ConfigOptions options;

    @Parameters(index = "0", paramLabel = "BUCKET", description = "The bucket.")
    private String bucket;

    @Parameters(index = "1", paramLabel = "on|off", description = "on: record only; off: act again.")
    private Switch state;

    @Option(names = "--reason", paramLabel = "TEXT", description = "Why, shown by tidemark status.")
    private String reason;

    enum Switch { on, off }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        TidemarkConfig config = options.load();
        try (ControlSession session = ControlSession.open(config)) {
            boolean on = state == Switch.on;
            boolean changed = session.controls().dryRun(bucket, on, ControlSession.flag(Clock.systemUTC(), reason));
            out.println("bucket " + bucket + (on ? (changed ? " is in dry run" : " was already in dry run")
                    : (changed ? " is out of dry run" : " was not in dry run")));
            if (on && !session.registered(bucket)) {
                out.println("note: " + bucket + " has no lifecycle rules registered (yet)");
            }
            if (!on) {
                // Whether or not this command changed it: a dry run switched off by hand still owes its walk.
                String scanId = sendWalk(config, bucket, Clock.systemUTC());
                out.println("walk " + scanId + " sent: what came due during the dry run is carried out now");
            }
            return ExitCodes.OK;
        } catch (IllegalStateException | IllegalArgumentException e) {
            spec.commandLine().getErr().println("bucket dry-run: " + e.getMessage());
            return ExitCodes.FAILURE;
        } finally {
            out.flush();
        }
    }

    /**
     * A recovery walk of the whole bucket: it sends a task for everything due now (the dry run consumed their timers)
     * and re-arms the timers of what is still to come.
     */
    static String sendWalk(TidemarkConfig config, String bucket, Clock clock) throws Exception {
        String scanId = "dry-run-off-" + bucket + "-" + clock.millis();
        BucketTask walk = new BucketTask(BucketTask.PROCESS_BUCKET, new BucketTask.Target(bucket),
                new BucketTask.Details(scanId, BucketTask.Mode.recovery, "", null));
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                KafkaClients.idempotentProducer(config.producerProperties()), new ByteArraySerializer(),
                new ByteArraySerializer())) {
            producer.send(TopicRegistry.from(config).bucketTasks().record(bucket, walk))
                    .get(60, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("out of dry run, but the walk was not sent (" + e
                    + "); run this command again: what came due during the dry run waits for that walk", e);
        }
        return scanId;
    }
}
