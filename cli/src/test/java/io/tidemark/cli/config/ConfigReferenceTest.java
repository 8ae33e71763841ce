package io.tidemark.cli.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.config.ConfigDocs;
import io.tidemark.config.TidemarkConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The one configuration registry, as the services jar sees it: every module's settings in it, and in the docs. */
class ConfigReferenceTest {

    @Test
    void shouldHoldEverySettingEveryServiceContributes() {
        assertThat(TidemarkConfig.definition().names()).contains("populator.batch.max.events",
                "replay-streams.punctuate.interval.ms", "object-processor.deletes.per.second", "conductor.schedule",
                "bucket-processor.page.size", "kafka.bootstrap.servers");
    }

    @Test
    void shouldKeepTheConfigurationReferenceInDocsUpToDate() throws Exception {
        Path docs = repositoryRoot().resolve("docs").resolve("configuration.md");
        String generated = ConfigDocs.markdown("Configuration reference", TidemarkConfig.definition());
        assertThat(Files.exists(docs) ? Files.readString(docs) : "")
                .as("docs/configuration.md is stale: regenerate it with ./tidemark config docs > docs/configuration.md")
                .isEqualTo(generated);
    }

    private static Path repositoryRoot() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.exists(p.resolve("mvnw"))) {
                return p;
            }
        }
        throw new IllegalStateException("cannot find the repository root");
    }
}
