package io.tidemark.devtools.campaign;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.cli.ServicesMain;
import io.tidemark.conductor.Conductor;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.emulator.FilerEmulator;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.localcluster.ServiceProcess;
import io.tidemark.topics.ConsumerGroups;
import io.tidemark.topics.GroupLag;
import io.tidemark.topics.TopicRegistry;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;

/**
 * A fault campaign: the whole pipeline with every service as its own process, Kafka and ZooKeeper as child processes,
 * rounds of objects falling due while one fault per round strikes — a service killed with SIGKILL, Kafka or ZooKeeper
 * killed and restarted, the filer answering UNAVAILABLE or slowly, an object's identity changed behind the pipeline's
 * back, a lifecycle rule edited. Every choice comes from one seed, printed first, so a run can be replayed.
 *
 * <p>Throughout, a watcher checks that nothing the rules keep is gone and nothing is gone before its time (wrongful
 * deletes). After the last round the faults heal, and every object that fell due must be gone within the deadline
 * (lost expirations), nothing parked in the dead-letter topic, nothing left unconsumed.
 */
final class Campaign {

    private static final List<String> SERVICES = List.of("populator", "replay-streams", "object-processor",
            "bucket-processor");

    record Options(long seed, int rounds, Duration roundLength, int daySeconds, Duration healDeadline) {
    }

    record Result(int fates, Set<String> wrongful, List<String> lost, long parked, long unconsumed,
                  List<String> faults) {

        boolean passed() {
            return wrongful.isEmpty() && lost.isEmpty() && parked == 0 && unconsumed == 0;
        }
    }

    private final Options options;
    private final PrintWriter out;
    private final Random random;
    private final Map<String, ServiceProcess> services = new LinkedHashMap<>();
    private final List<CampaignScenario.Fate> fates = new CopyOnWriteArrayList<>();
    private final Set<String> wrongful = java.util.Collections.synchronizedSet(new LinkedHashSet<>());
    private final List<String> faults = new ArrayList<>();
    private List<String> settings;

    Campaign(Options options, PrintWriter out) {
        this.options = options;
        this.out = out;
        this.random = new Random(options.seed());
    }

    Result run() throws Exception {
        say("campaign seed=%d rounds=%d round=%ds day=%ds (replay it with --seed %d)", options.seed(),
                options.rounds(), options.roundLength().toSeconds(), options.daySeconds(), options.seed());
        Path work = Files.createTempDirectory("tidemark-campaign");
        try (LocalCluster cluster = LocalCluster.builder().mode(LocalCluster.Mode.CHILD_PROCESSES)
                .dataDir(work.resolve("cluster")).start()) {
            FilerEmulator emulator = cluster.emulator();
            Map<String, String> settingsMap = settingsMap(cluster, work);
            settings = arguments(settingsMap);
            TidemarkConfig config = new TidemarkConfig(settingsMap);
            for (String service : SERVICES) {
                start(service);
            }
            CampaignScenario scenario = new CampaignScenario(emulator.s3(), Duration.ofSeconds(options.daySeconds()));
            scenario.setUp(Instant.now());
            ScheduledExecutorService background = Executors.newScheduledThreadPool(2);
            try (Conductor conductor = Conductor.open(config, Clock.systemUTC(), new SimpleMeterRegistry())) {
                background.scheduleWithFixedDelay(() -> watch(scenario), 500, 500, TimeUnit.MILLISECONDS);
                background.scheduleWithFixedDelay(() -> pass(conductor), 5, 10, TimeUnit.SECONDS);
                for (int round = 0; round < options.rounds(); round++) {
                    List<CampaignScenario.Fate> written = scenario.round(round, random);
                    fates.addAll(written);
                    strike(round, cluster, emulator, scenario, written);
                    Thread.sleep(options.roundLength().toMillis());
                }
                heal(cluster, emulator);
                List<String> lost = awaitDue(scenario);
                background.shutdownNow();
                watch(scenario);
                long parked;
                long unconsumed;
                try (Admin admin = Admin.create(config.adminProperties())) {
                    TopicRegistry topics = TopicRegistry.from(config);
                    GroupLag lag = new GroupLag(admin, config.consumerProperties());
                    parked = lag.records(topics.objectTasksDlq().name());
                    unconsumed = awaitConsumed(lag, config, topics);
                }
                return new Result(fates.size(), Set.copyOf(wrongful), lost, parked, unconsumed, faults);
            } finally {
                background.shutdownNow();
                services.values().forEach(ServiceProcess::close);
            }
        }
    }

    private void say(String format, Object... args) {
        out.printf(Locale.ROOT, format + "%n", args);
        out.flush();
    }

    private Map<String, String> settingsMap(LocalCluster cluster, Path work) {
        Map<String, String> s = new LinkedHashMap<>(cluster.settings());
        s.put("lifecycle.day.seconds", String.valueOf(options.daySeconds()));
        s.put("lifecycle.test.mode", "true");
        s.put("lifecycle.due.policy", "exact");
        s.put("management.host", "127.0.0.1");
        s.put("management.port", "0");
        s.put("replay-streams.state.dir", work.resolve("replay").toString());
        s.put("replay-streams.status.interval.ms", "2000");
        s.put("object-processor.retry-later.max.attempts", "50");
        s.put("conductor.walk.stale.ms", "60000");
        s.put("kafka.consumer.session.timeout.ms", "10000");
        s.put("kafka.streams.commit.interval.ms", "200");
        return s;
    }

    /** The settings as the {@code --set} flags each service process is started with. */
    private static List<String> arguments(Map<String, String> settings) {
        List<String> args = new ArrayList<>();
        settings.forEach((k, v) -> args.addAll(List.of("--set", k + "=" + v)));
        return args;
    }

    private void start(String service) throws Exception {
        List<String> args = new ArrayList<>(List.of(service));
        args.addAll(settings);
        ServiceProcess process = ServiceProcess.start(ServicesMain.class, "384m", Map.of(),
                args.toArray(String[]::new));
        services.put(service, process);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (!process.ready()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(service + " not ready within 180 s");
            }
            Thread.sleep(200);
        }
    }

    /** One fault, chosen by the seed. */
    private void strike(int round, LocalCluster cluster, FilerEmulator emulator, CampaignScenario scenario,
                        List<CampaignScenario.Fate> written)
            throws Exception {
        int kind = random.nextInt(7);
        String fault;
        switch (kind) {
            case 0 -> {
                String service = SERVICES.get(random.nextInt(SERVICES.size()));
                long down = random.nextInt(5_000);
                services.remove(service).close();
                Thread.sleep(down);
                start(service);
                fault = "kill -9 " + service + ", down " + down + " ms";
            }
            case 1 -> {
                long down = random.nextInt(5_000);
                cluster.restartKafka(true, Duration.ofMillis(down));
                fault = "kill -9 Kafka, down " + down + " ms";
            }
            case 2 -> {
                cluster.restartZooKeeper(true);
                fault = "kill -9 ZooKeeper, restarted";
            }
            case 3 -> {
                long length = 3_000 + random.nextInt(5_000);
                emulator.faults().setUnavailableProbability(0.3);
                Thread.sleep(length);
                emulator.faults().setUnavailableProbability(0);
                fault = "filer and gateway UNAVAILABLE 30 % for " + length + " ms";
            }
            case 4 -> {
                long length = 3_000 + random.nextInt(5_000);
                int latency = 100 + random.nextInt(300);
                emulator.faults().setLatency(Duration.ofMillis(latency));
                Thread.sleep(length);
                emulator.faults().setLatency(Duration.ZERO);
                fault = latency + " ms latency for " + length + " ms";
            }
            case 5 -> fault = scenario.editRules(fates);
            default -> {
                String key = CampaignScenario.driftCandidate(written, random);
                emulator.s3().drift(CampaignScenario.PLAIN, key, null);
                fault = "identity drift on " + key;
            }
        }
        faults.add("round " + round + ": " + fault);
        say("round %d: %d objects written; fault: %s", round, written.size(), fault);
    }

    private void heal(LocalCluster cluster, FilerEmulator emulator) throws Exception {
        emulator.faults().setUnavailableProbability(0);
        emulator.faults().setLatency(Duration.ZERO);
        for (String service : SERVICES) {
            ServiceProcess process = services.get(service);
            if (process == null || !process.alive()) {
                start(service);
            }
        }
        say("faults healed; waiting up to %d s for every due object", options.healDeadline().toSeconds());
    }

    /** Nothing kept is gone, nothing is gone before its time. */
    private void watch(CampaignScenario scenario) {
        Instant now = Instant.now();
        for (CampaignScenario.Fate fate : fates) {
            boolean mustBeThere = !fate.gone() || (fate.notBefore() != null && now.isBefore(fate.notBefore()));
            if (mustBeThere && !wrongful.contains(fate.name()) && !scenario.present(fate)) {
                wrongful.add(fate.name());
                say("WRONGFUL DELETE: %s", fate.name());
            }
        }
    }

    private void pass(Conductor conductor) {
        try {
            conductor.runPass();
        } catch (RuntimeException e) {
            // A pass during a Kafka or ZooKeeper restart may fail; the next one runs in ten seconds.
        }
    }

    private List<String> awaitDue(CampaignScenario scenario) throws InterruptedException {
        long deadline = System.nanoTime() + options.healDeadline().toNanos();
        List<String> left;
        do {
            left = fates.stream().filter(CampaignScenario.Fate::gone).filter(scenario::present)
                    .map(CampaignScenario.Fate::name).toList();
            if (left.isEmpty()) {
                return left;
            }
            Thread.sleep(1_000);
        } while (System.nanoTime() < deadline);
        return left;
    }

    /** The object processors' backlog once they had time to drain it: 0 means nothing is held. */
    private long awaitConsumed(GroupLag lag, TidemarkConfig config, TopicRegistry topics) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        long left;
        do {
            ConsumerGroups.Group deletes = ConsumerGroups.from(config).objectProcessor(topics);
            left = lag.backlog(deletes.id(), deletes.topics());
            if (left == 0) {
                return 0;
            }
            Thread.sleep(1_000);
        } while (System.nanoTime() < deadline);
        return left;
    }
}
