package io.tidemark.cli.platform;

import io.tidemark.cli.CommandGroup;
import io.tidemark.cli.ConfigOptions;
import io.tidemark.cli.ExitCodes;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.topics.TopicAdmin;
import io.tidemark.topics.TopicMismatchException;
import io.tidemark.topics.TopicRegistry;
import io.tidemark.topics.TopicStatus;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.BiFunction;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(name = "topics", mixinStandardHelpOptions = true,
        description = "Creates and checks Tidemark's Kafka topics.",
        subcommands = {TopicsCommand.Create.class, TopicsCommand.Describe.class})
public final class TopicsCommand extends CommandGroup {

    static void print(PrintWriter out, List<TopicStatus> statuses) {
        out.printf("%-40s %-11s %-8s %-12s %s%n", "TOPIC", "PARTITIONS", "REPLICAS", "CLEANUP", "STATUS");
        for (TopicStatus s : statuses) {
            String state = !s.exists() ? "missing" : s.ok() ? (s.created() ? "created" : "ok")
                    : String.join("; ", s.problems());
            out.printf("%-40s %-11s %-8s %-12s %s%n", s.name(), s.exists() ? s.partitions() + "/" + s.expectedPartitions()
                    : "-/" + s.expectedPartitions(), s.exists() ? s.replicationFactor() : "-",
                    s.exists() ? s.cleanupPolicy() : s.expectedCleanupPolicy(), state);
        }
    }

    /** Runs one action with an admin client and the registry, both built from the settings. */
    static <T> T withTopics(ConfigOptions options, BiFunction<TopicAdmin, TopicRegistry, T> action) {
        TidemarkConfig config = options.load();
        try (Admin admin = Admin.create(config.adminProperties())) {
            return action.apply(new TopicAdmin(admin, config.getShort(TidemarkConfig.TOPIC_REPLICATION_FACTOR)),
                    TopicRegistry.from(config));
        }
    }

    @Command(name = "create", mixinStandardHelpOptions = true,
            description = {"Creates every missing topic with its partition count and cleanup policy. Idempotent.",
                "Exits 1 when an existing topic has another partition count or cleanup policy."})
    static final class Create implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Mixin
        ConfigOptions options;

        @Override
        public Integer call() {
            try {
                print(spec.commandLine().getOut(), withTopics(options, (admin, registry) -> admin.ensure(registry.all())));
                return ExitCodes.OK;
            } catch (TopicMismatchException e) {
                print(spec.commandLine().getOut(), e.mismatched());
                spec.commandLine().getErr().println("error: " + e.getMessage());
                return ExitCodes.FAILURE;
            }
        }
    }

    @Command(name = "describe", mixinStandardHelpOptions = true,
            description = "Shows each topic next to what Tidemark needs; exits 1 when one is missing or differs.")
    static final class Describe implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Mixin
        ConfigOptions options;

        @Override
        public Integer call() {
            List<TopicStatus> statuses = withTopics(options, (admin, registry) -> admin.describe(registry.all()));
            print(spec.commandLine().getOut(), statuses);
            return statuses.stream().allMatch(TopicStatus::ok) ? ExitCodes.OK : ExitCodes.FAILURE;
        }
    }
}
