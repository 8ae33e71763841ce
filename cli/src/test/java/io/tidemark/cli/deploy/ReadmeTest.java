package io.tidemark.cli.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README as a newcomer reads it: short, its two commands the ones CI and the quickstart really run, every file it
 * or a docs page points to there, and a licence to read.
 */
class ReadmeTest {

    private static final Pattern LINK = Pattern.compile("\\]\\(([^)#\\s]+)(#[^)\\s]*)?\\)");
    private static final Pattern HEADING = Pattern.compile("(?m)^#{1,4} (.+)$");

    private final String readme = DeployFiles.read("README.md");

    @Test
    void shouldNameTheTestCommandCiRuns() {
        String ci = DeployFiles.read(".ci/run");
        assertThat(readme).contains("./mvnw -B -ntp verify");
        assertThat(ci).containsPattern("(?m)^\\./mvnw -B -ntp verify$");
        assertThat(readme).contains("./tidemark quickstart");
    }

    /** About a thousand words read in five minutes; build internals and the command tour live in docs. */
    @Test
    void shouldBeShortEnoughToReadInFiveMinutes() {
        int words = readme.split("\\s+").length;
        assertThat(words).as("words in README.md").isLessThan(1_200);
        assertThat(readme).doesNotContain("maven.config").doesNotContain("TieredStopAtLevel");
    }

    @Test
    void shouldLeadToProductionWithRequirementsDeployAndLicense() {
        assertThat(HEADING.matcher(readme).results().map(m -> m.group(1).trim()).toList())
                .contains("Requirements", "Try it", "Test", "Deploy", "Operate", "License");
        assertThat(readme).contains("SeaweedFS").contains("4.24").contains("s3_lifecycle");
        assertThat(DeployFiles.root().resolve("LICENSE")).exists();
        assertThat(DeployFiles.read("LICENSE")).contains("Apache License").contains("Version 2.0");
    }

    /** A file the README tells the reader to read from must be one something writes. */
    @Test
    void shouldNotPointAtAFileNothingCreates() {
        assertThat(readme).doesNotContain("quickstart.out");
    }

    @Test
    void shouldLinkOnlyToFilesThatExist() throws IOException {
        Path root = DeployFiles.root();
        List<Path> pages = new ArrayList<>();
        pages.add(root.resolve("README.md"));
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).forEach(pages::add);
        }
        List<String> broken = new ArrayList<>();
        for (Path page : pages) {
            Matcher m = LINK.matcher(Files.readString(page));
            while (m.find()) {
                String target = m.group(1);
                if (target.contains("://") || target.startsWith("mailto:")) {
                    continue;
                }
                if (!Files.exists(page.getParent().resolve(target).normalize())) {
                    broken.add(root.relativize(page) + " -> " + target);
                }
            }
        }
        assertThat(broken).as("links to missing files").isEmpty();
    }
}
