package io.tidemark.topics;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Creates the registry's topics and checks existing ones. Idempotent: a topic that exists as specified is left
 * alone. One that exists with another partition count or cleanup policy is an error — partitions decide which
 * shard an object lives in and compaction decides whether configs survive, so neither can be silently wrong.
 */
public final class TopicAdmin {

    private static final long TIMEOUT_SECONDS = 30;

    private final Admin admin;
    private final Optional<Short> replicationFactor;

    /**
     * @param replicationFactor for new topics; -1 takes the broker's default
     */
    public TopicAdmin(Admin admin, short replicationFactor) {
        this.admin = admin;
        this.replicationFactor = replicationFactor < 0 ? Optional.empty() : Optional.of(replicationFactor);
    }

    /** Creates what is missing, then checks everything. */
    public List<TopicStatus> ensure(Collection<TopicSpec<?, ?>> specs) {
        List<TopicStatus> before = describe(specs);
        List<NewTopic> missing = new ArrayList<>();
        for (TopicSpec<?, ?> spec : specs) {
            if (before.stream().noneMatch(s -> s.name().equals(spec.name()) && s.exists())) {
                Map<String, String> configs = new HashMap<>(spec.configs());
                configs.put(TopicConfig.CLEANUP_POLICY_CONFIG, spec.cleanupPolicy());
                missing.add(new NewTopic(spec.name(), Optional.of(spec.partitions()), replicationFactor).configs(configs));
            }
        }
        if (!missing.isEmpty()) {
            admin.createTopics(missing).values().forEach((name, future) -> {
                try {
                    future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    // Another instance created it meanwhile: the check below decides whether it is right.
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new IllegalStateException("cannot create topic " + name + ": " + e.getCause().getMessage(),
                                e.getCause());
                    }
                } catch (InterruptedException | TimeoutException e) {
                    throw interrupted("creating topic " + name, e);
                }
            });
        }
        List<String> created = missing.stream().map(NewTopic::name).toList();
        List<TopicStatus> after = new ArrayList<>();
        for (TopicStatus s : awaitVisible(specs, created)) {
            after.add(new TopicStatus(s.name(), s.exists(), created.contains(s.name()), s.partitions(),
                    s.expectedPartitions(), s.cleanupPolicy(), s.expectedCleanupPolicy(), s.replicationFactor(),
                    s.problems()));
        }
        List<TopicStatus> wrong = after.stream().filter(s -> !s.ok()).toList();
        if (!wrong.isEmpty()) {
            throw new TopicMismatchException(wrong);
        }
        return after;
    }

    /**
     * A topic just created may take a moment to show in the cluster's metadata; judging it before then would call
     * a correct topic missing.
     */
    private List<TopicStatus> awaitVisible(Collection<TopicSpec<?, ?>> specs, List<String> created) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        while (true) {
            List<TopicStatus> statuses = describe(specs);
            boolean pending = statuses.stream().anyMatch(s -> !s.exists() && created.contains(s.name()));
            if (!pending || System.nanoTime() > deadline) {
                return statuses;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                throw interrupted("waiting for new topics", e);
            }
        }
    }

    /** How each topic on the cluster compares with its spec; changes nothing. */
    public List<TopicStatus> describe(Collection<TopicSpec<?, ?>> specs) {
        try {
            Set<String> existing = admin.listTopics().names().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            List<String> present = specs.stream().map(TopicSpec::name).filter(existing::contains).toList();
            Map<String, TopicDescription> descriptions = present.isEmpty() ? Map.of()
                    : admin.describeTopics(present).allTopicNames().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            Map<ConfigResource, Config> configs = present.isEmpty() ? Map.of()
                    : admin.describeConfigs(present.stream().map(n -> new ConfigResource(ConfigResource.Type.TOPIC, n))
                            .toList()).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            List<TopicStatus> statuses = new ArrayList<>();
            for (TopicSpec<?, ?> spec : specs) {
                TopicDescription d = descriptions.get(spec.name());
                if (d == null) {
                    statuses.add(new TopicStatus(spec.name(), false, false, 0, spec.partitions(), "", spec.cleanupPolicy(),
                            0, List.of("does not exist")));
                    continue;
                }
                String cleanup = configs.get(new ConfigResource(ConfigResource.Type.TOPIC, spec.name()))
                        .get(TopicConfig.CLEANUP_POLICY_CONFIG).value();
                List<String> problems = new ArrayList<>();
                if (d.partitions().size() != spec.partitions()) {
                    problems.add("has " + d.partitions().size() + " partitions, needs " + spec.partitions());
                }
                if (!cleanup.equals(spec.cleanupPolicy())) {
                    problems.add("cleanup.policy is " + cleanup + ", needs " + spec.cleanupPolicy());
                }
                statuses.add(new TopicStatus(spec.name(), true, false, d.partitions().size(), spec.partitions(), cleanup,
                        spec.cleanupPolicy(), d.partitions().get(0).replicas().size(), problems));
            }
            return statuses;
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot describe topics: " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException | TimeoutException e) {
            throw interrupted("describing topics", e);
        }
    }

    private static IllegalStateException interrupted(String what, Exception e) {
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
        return new IllegalStateException("gave up " + what + ": " + e, e);
    }
}
