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
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the registry's topics and checks existing ones. Idempotent: a topic that exists as specified is left
 * alone. One that exists with another partition count is an error — partitions decide which shard an object lives
 * in. Settings that only decide how long records are kept are brought to the spec when keeping more is the change
 * (a longer or unlimited {@code retention.ms}, {@code delete} to {@code compact}), with a warning, so an upgrade that
 * stops retention from dropping parked work takes effect on existing topics; the other way round (which could drop
 * records) is an error like a wrong partition count.
 */
public final class TopicAdmin {

    private static final Logger log = LoggerFactory.getLogger(TopicAdmin.class);
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
        List<String> created = new ArrayList<>();
        Set<String> existed = new java.util.HashSet<>();
        if (!missing.isEmpty()) {
            admin.createTopics(missing).values().forEach((name, future) -> {
                try {
                    future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                    created.add(name);
                } catch (ExecutionException e) {
                    // Another instance created it meanwhile, or it was not visible yet: the checks below decide
                    // whether it is right, as for any existing topic.
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new IllegalStateException("cannot create topic " + name + ": " + e.getCause().getMessage(),
                                e.getCause());
                    }
                    existed.add(name);
                } catch (InterruptedException | TimeoutException e) {
                    throw interrupted("creating topic " + name, e);
                }
            });
        }
        // A topic made a moment ago by someone else exists, but its settings cannot be read until the broker's
        // metadata shows it: wait for that, or it would be judged before it could be corrected.
        awaitDescribable(existed);
        Set<String> present = new java.util.HashSet<>(created);
        Set<String> altered = keepMore(specs, created, present);
        List<TopicStatus> after = new ArrayList<>();
        for (TopicStatus s : awaitVisible(specs, present, altered)) {
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
     * Raises retention and turns deletion into compaction on existing topics where the spec keeps more; adds the
     * topics found to {@code present}.
     */
    private Set<String> keepMore(Collection<TopicSpec<?, ?>> specs, List<String> created, Set<String> present) {
        List<TopicSpec<?, ?>> existing = specs.stream().filter(s -> !created.contains(s.name())).toList();
        if (existing.isEmpty()) {
            return Set.of();
        }
        // Each topic asked for by name: a topic created a moment ago (by another instance, or an operator) may not
        // be in the broker's topic list yet, and must not be passed over for that.
        Map<ConfigResource, Config> configs = new HashMap<>();
        List<ConfigResource> resources = existing.stream()
                .map(s -> new ConfigResource(ConfigResource.Type.TOPIC, s.name())).toList();
        admin.describeConfigs(resources).values().forEach((resource, future) -> {
            try {
                configs.put(resource, future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
                present.add(resource.name());
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw new IllegalStateException("cannot describe topic " + resource.name() + ": "
                            + e.getCause().getMessage(), e.getCause());
                }
            } catch (InterruptedException | TimeoutException e) {
                throw interrupted("describing topic " + resource.name(), e);
            }
        });
        Map<ConfigResource, Collection<AlterConfigOp>> changes = new HashMap<>();
        for (TopicSpec<?, ?> spec : existing) {
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, spec.name());
            Config config = configs.get(resource);
            if (config == null) {
                continue;
            }
            List<AlterConfigOp> ops = new ArrayList<>();
            String cleanup = config.get(TopicConfig.CLEANUP_POLICY_CONFIG).value();
            if (cleanup.equals(TopicConfig.CLEANUP_POLICY_DELETE)
                    && spec.cleanupPolicy().equals(TopicConfig.CLEANUP_POLICY_COMPACT)) {
                ops.add(new AlterConfigOp(new ConfigEntry(TopicConfig.CLEANUP_POLICY_CONFIG, spec.cleanupPolicy()),
                        AlterConfigOp.OpType.SET));
            }
            String wanted = spec.configs().get(TopicConfig.RETENTION_MS_CONFIG);
            ConfigEntry current = config.get(TopicConfig.RETENTION_MS_CONFIG);
            if (wanted != null && current != null && keepsLonger(Long.parseLong(wanted), Long.parseLong(current.value()))) {
                ops.add(new AlterConfigOp(new ConfigEntry(TopicConfig.RETENTION_MS_CONFIG, wanted),
                        AlterConfigOp.OpType.SET));
            }
            if (!ops.isEmpty()) {
                log.warn("topic {}: {} (was {} and retention.ms {}), so that records are kept as long as Tidemark "
                        + "needs them", spec.name(), ops.stream().map(o -> o.configEntry().name() + "="
                        + o.configEntry().value()).toList(), cleanup, current == null ? "?" : current.value());
                changes.put(resource, ops);
            }
        }
        if (changes.isEmpty()) {
            return Set.of();
        }
        try {
            admin.incrementalAlterConfigs(changes).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            return changes.keySet().stream().map(ConfigResource::name).collect(java.util.stream.Collectors.toSet());
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot change topic settings: " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException | TimeoutException e) {
            throw interrupted("changing topic settings", e);
        }
    }

    /** Whether retention {@code wanted} keeps records longer than {@code current}; -1 is for ever. */
    static boolean keepsLonger(long wanted, long current) {
        if (current < 0) {
            return false;
        }
        return wanted < 0 || wanted > current;
    }

    private void awaitDescribable(Set<String> names) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        while (!names.isEmpty()) {
            try {
                if (admin.listTopics().names().get(TIMEOUT_SECONDS, TimeUnit.SECONDS).containsAll(names)
                        || System.nanoTime() > deadline) {
                    return;
                }
                Thread.sleep(100);
            } catch (ExecutionException e) {
                throw new IllegalStateException("cannot list topics: " + e.getCause().getMessage(), e.getCause());
            } catch (InterruptedException | TimeoutException e) {
                throw interrupted("listing topics", e);
            }
        }
    }

    /**
     * A topic just created, or whose settings were just changed, may take a moment to show so in the cluster's
     * metadata; judging it before then would call a correct topic missing or wrong.
     */
    private List<TopicStatus> awaitVisible(Collection<TopicSpec<?, ?>> specs, Set<String> present,
                                           Set<String> altered) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        while (true) {
            List<TopicStatus> statuses = describe(specs);
            // Of an altered topic, only what was altered is waited for: a wrong partition count never comes right,
            // and waiting for it would only delay the error by the whole timeout.
            boolean pending = statuses.stream().anyMatch(s -> !s.exists() && present.contains(s.name())
                    || altered.contains(s.name()) && s.cleanupPolicy().equals(TopicConfig.CLEANUP_POLICY_DELETE)
                    && s.expectedCleanupPolicy().equals(TopicConfig.CLEANUP_POLICY_COMPACT));
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
