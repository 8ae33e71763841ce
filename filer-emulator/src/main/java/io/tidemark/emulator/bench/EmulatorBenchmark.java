package io.tidemark.emulator.bench;

import com.google.protobuf.ByteString;
import io.tidemark.emulator.EmulatorSettings;
import io.tidemark.emulator.FilerEmulator;
import io.tidemark.emulator.s3.LifecycleDeleteHandler;
import io.tidemark.emulator.s3.S3Gateway;
import io.tidemark.seaweed.EntryIdentity;
import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.seaweed.client.GrpcTls;
import io.tidemark.seaweed.client.LifecycleDeleteClient;
import io.tidemark.seaweed.client.MetadataSubscription;
import io.tidemark.seaweed.client.SubscriptionOptions;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import io.tidemark.seaweed.pb.S3LifecycleProto;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteOutcome;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteRequest;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Raw baselines over loopback gRPC, for later stages to be measured against: how many entries per second one
 * client lists with ListEntries, and how many LifecycleDelete calls per second one client completes (each a
 * real delete with an identity check). Runs an in-memory emulator in this JVM.
 */
public final class EmulatorBenchmark {

    public record Options(int entries, int pageSize, int deletes, int rounds) {
    }

    public record Result(double listEntriesPerSecond, double subscribeEventsPerSecond, double deletesPerSecond) {
    }

    private EmulatorBenchmark() {
    }

    public static Result run(Options options, PrintWriter out) throws Exception {
        try (FilerEmulator emulator = new FilerEmulator(EmulatorSettings.ephemeral().withPorts(0, 0, -1),
                Clock.systemUTC()).start();
             FilerClient filer = FilerClient.connect(emulator.filerAddress(), GrpcTls.PLAINTEXT, Duration.ofSeconds(30));
             LifecycleDeleteClient lifecycle = LifecycleDeleteClient.connect(emulator.s3GrpcAddress(), GrpcTls.PLAINTEXT,
                     Duration.ofSeconds(30))) {
            S3Gateway s3 = emulator.s3();
            s3.createBucket("bench", false);
            for (int i = 0; i < options.entries(); i++) {
                s3.putObject("bench", String.format("list/o%08d", i), 1024, Map.of(), Map.of());
            }
            out.printf("filer emulator benchmark: %d entries listed in pages of %d, %d LifecycleDelete calls, %d rounds%n",
                    options.entries(), options.pageSize(), options.deletes(), options.rounds());
            double bestList = 0;
            for (int round = 1; round <= options.rounds(); round++) {
                long start = System.nanoTime();
                long listed = 0;
                for (Entry ignored : filer.listAll("/buckets/bench/list", "", options.pageSize())) {
                    listed++;
                }
                double rate = listed / seconds(start);
                bestList = Math.max(bestList, rate);
                out.printf("  round %d: ListEntries %,.0f entries/s (%d entries)%n", round, rate, listed);
                out.flush();
            }
            double bestSubscribe = 0;
            long events = emulator.store().eventCount();
            for (int round = 1; round <= options.rounds(); round++) {
                long start = System.nanoTime();
                long received = 0;
                try (MetadataSubscription subscription = filer.subscribe(SubscriptionOptions.from("bench-" + round,
                        "/buckets/", 0))) {
                    while (received < events - 1 && subscription.poll(Duration.ofSeconds(10)) != null) {
                        received++;
                    }
                }
                double rate = received / seconds(start);
                bestSubscribe = Math.max(bestSubscribe, rate);
                out.printf("  round %d: SubscribeMetadata %,.0f events/s (%d events)%n", round, rate, received);
                out.flush();
            }
            double bestDelete = 0;
            for (int round = 1; round <= options.rounds(); round++) {
                List<LifecycleDeleteRequest> requests = new ArrayList<>(options.deletes());
                for (int i = 0; i < options.deletes(); i++) {
                    String key = String.format("del%d/o%08d", round, i);
                    s3.putObject("bench", key, 1024, Map.of(), Map.of());
                    requests.add(request(key, LifecycleDeleteHandler.identity(s3.latest("bench", key).orElseThrow()
                            .entry())));
                }
                long start = System.nanoTime();
                for (LifecycleDeleteRequest request : requests) {
                    LifecycleDeleteOutcome outcome = lifecycle.delete(request).getOutcome();
                    if (outcome != LifecycleDeleteOutcome.DONE) {
                        throw new IllegalStateException("benchmark delete answered " + outcome);
                    }
                }
                double rate = requests.size() / seconds(start);
                bestDelete = Math.max(bestDelete, rate);
                out.printf("  round %d: LifecycleDelete %,.0f calls/s%n", round, rate);
                out.flush();
            }
            out.printf("best: ListEntries %,.0f entries/s; SubscribeMetadata %,.0f events/s; LifecycleDelete %,.0f calls/s%n",
                    bestList, bestSubscribe, bestDelete);
            out.flush();
            return new Result(bestList, bestSubscribe, bestDelete);
        }
    }

    private static LifecycleDeleteRequest request(String key, EntryIdentity identity) {
        return LifecycleDeleteRequest.newBuilder()
                .setBucket("bench").setObjectPath(key)
                .setActionKind(S3LifecycleProto.ActionKind.EXPIRATION_DAYS)
                .setRuleHash(ByteString.copyFrom(new byte[8]))
                .setExpectedIdentity(S3LifecycleProto.EntryIdentity.newBuilder().setMtimeNs(identity.mtimeNs())
                        .setSize(identity.size()).setHeadFid(identity.headFid())
                        .setExtendedHash(ByteString.copyFrom(identity.extendedHash())))
                .build();
    }

    private static double seconds(long startNanos) {
        return Math.max(1, System.nanoTime() - startNanos) / 1e9;
    }

}
