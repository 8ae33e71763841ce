package io.tidemark.cli.deploy;

import static io.tidemark.cli.deploy.DeployFiles.at;
import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.seaweed.client.SeaweedCheck;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.utils.AppInfoParser;
import org.junit.jupiter.api.Test;

/**
 * Issue 44: the compose file ran {@code chrislusf/seaweedfs:latest} (any release, one without LifecycleDelete among
 * them) and a Kafka broker older than the clients. Every image of SeaweedFS, Kafka and ZooKeeper is pinned, in
 * docker-compose.yml and in the kind overlay alike, to what the versions table of docs/deploy.md says, and that table
 * to what the build holds: the first SeaweedFS release the object processor accepts, the Kafka and ZooKeeper clients'
 * own versions.
 */
class VersionPinsTest {

    private static final Pattern DEFAULTED = Pattern.compile("\\$\\{[A-Z_]+:-([^}]*)}");

    /** One row of the versions table: its component, image, what Tidemark needs and what is pinned. */
    private record Row(String component, String image, String needs, String pinned) {
    }

    /** The rows of the table under "## Versions" in docs/deploy.md, by component. */
    private static Map<String, Row> table() {
        String deploy = DeployFiles.read("docs/deploy.md");
        int start = deploy.indexOf("\n## Versions\n");
        assertThat(start).as("docs/deploy.md has a Versions section").isNotNegative();
        String section = deploy.substring(start + 1);
        int next = section.indexOf("\n## ", 1);
        section = next < 0 ? section : section.substring(0, next);
        Map<String, Row> rows = new LinkedHashMap<>();
        for (String line : section.split("\n")) {
            if (!line.startsWith("| ") || line.startsWith("| component") || line.startsWith("|---")) {
                continue;
            }
            String[] cells = line.split("\\|");
            rows.put(cells[1].trim(), new Row(cells[1].trim(), cells[2].trim().replace("`", ""), cells[3].trim(),
                    cells[4].trim()));
        }
        return rows;
    }

    /** An image reference as compose resolves it with its variable unset. */
    private static String resolved(Object image) {
        Matcher m = DEFAULTED.matcher(String.valueOf(image));
        return m.matches() ? m.group(1) : String.valueOf(image);
    }

    private static String repository(String image) {
        return image.substring(0, image.lastIndexOf(':'));
    }

    private static String tag(String image) {
        return image.substring(image.lastIndexOf(':') + 1);
    }

    /** The images of SeaweedFS, Kafka and ZooKeeper docker-compose.yml runs, by service. */
    private static Map<String, String> composeImages() {
        Map<String, Map<String, Object>> services = at(DeployFiles.yamlMap(DeployFiles.read("docker-compose.yml")),
                "services");
        Map<String, String> images = new LinkedHashMap<>();
        services.forEach((name, service) -> {
            String image = resolved(service.get("image"));
            if (image.contains("seaweedfs") || image.contains("kafka") || image.contains("zookeeper")) {
                images.put(name, image);
            }
        });
        return images;
    }

    /** The images of the kind overlay's dependencies, by container. */
    private static Map<String, String> overlayImages() {
        Map<String, String> images = new LinkedHashMap<>();
        for (Map<String, Object> document : DeployFiles.yamlDocuments(DeployFiles.read(
                "deploy/k8s-overlays/local/dependencies.yaml"))) {
            List<Map<String, Object>> containers = at(document, "spec", "template", "spec", "containers");
            if (containers != null) {
                containers.forEach(c -> images.put(String.valueOf(c.get("name")), String.valueOf(c.get("image"))));
            }
        }
        return images;
    }

    /** The pinned image of a component as the table names it: its image and its pinned version. */
    private static String pinnedImage(String component) {
        Row row = table().get(component);
        assertThat(row).as("docs/deploy.md's versions table has a row for " + component).isNotNull();
        return row.image() + ":" + row.pinned();
    }

    private static int[] release(String version) {
        String[] parts = version.split("\\.");
        return new int[] {Integer.parseInt(parts[0]), Integer.parseInt(parts[1])};
    }

    @Test
    void shouldPinSeaweedFsToTheFirstReleaseWhoseGatewayServesLifecycleDelete() {
        Row seaweed = table().get("SeaweedFS");
        assertThat(seaweed).isNotNull();
        assertThat(seaweed.needs()).as("what the object processor checks for at start")
                .startsWith(SeaweedCheck.LIFECYCLE_DELETE_RELEASE + " or newer");
        assertThat(seaweed.pinned()).isEqualTo(SeaweedCheck.LIFECYCLE_DELETE_RELEASE);
        int[] pinned = release(seaweed.pinned());
        int[] needed = release(SeaweedCheck.LIFECYCLE_DELETE_RELEASE);
        assertThat(pinned[0] * 1000 + pinned[1]).isGreaterThanOrEqualTo(needed[0] * 1000 + needed[1]);

        Map<String, String> compose = composeImages();
        List<String> seaweedServices = compose.keySet().stream().filter(s -> s.startsWith("seaweedfs")).toList();
        assertThat(seaweedServices).containsExactlyInAnyOrder("seaweedfs-master", "seaweedfs-volume",
                "seaweedfs-filer", "seaweedfs-filer-2", "seaweedfs-s3");
        seaweedServices.forEach(s -> assertThat(compose.get(s)).as(s).isEqualTo(pinnedImage("SeaweedFS")));
        assertThat(overlayImages().get("seaweedfs")).isEqualTo(pinnedImage("SeaweedFS"));
    }

    @Test
    void shouldRunTheKafkaBrokerOfTheClientsVersion() {
        String clients = AppInfoParser.getVersion();
        assertThat(table().get("Kafka broker").pinned()).as("the Kafka clients in the build are " + clients)
                .isEqualTo(clients);
        assertThat(table().get("Kafka broker").needs()).startsWith(clients);
        assertThat(composeImages().get("kafka")).isEqualTo(pinnedImage("Kafka broker"))
                .isEqualTo("apache/kafka:" + clients);
        assertThat(overlayImages().get("kafka")).isEqualTo(pinnedImage("Kafka broker"));
        // The broker a test takes from Testcontainers (-Dtidemark.kafka=testcontainers) too.
        Matcher docker = Pattern.compile("\"apache/kafka-native:([^\"]+)\"").matcher(DeployFiles.read(
                "test-support/src/main/java/io/tidemark/testsupport/DockerKafka.java"));
        assertThat(docker.find()).isTrue();
        assertThat(docker.group(1)).isEqualTo(clients);
    }

    @Test
    void shouldRunTheZooKeeperOfTheClientsVersion() {
        String client = org.apache.zookeeper.Version.getFullVersion().split("[- ,]")[0];
        assertThat(table().get("ZooKeeper").pinned()).as("the ZooKeeper client in the build is " + client)
                .isEqualTo(client);
        assertThat(table().get("ZooKeeper").needs()).startsWith(client);
        assertThat(composeImages().get("zookeeper")).isEqualTo(pinnedImage("ZooKeeper"))
                .isEqualTo("zookeeper:" + client);
        assertThat(overlayImages().get("zookeeper")).isEqualTo(pinnedImage("ZooKeeper"));
    }

    @Test
    void shouldNameEveryImageOfTheClusterByAFixedTag() {
        Map<String, String> all = new LinkedHashMap<>(composeImages());
        overlayImages().forEach((name, image) -> all.put("kind overlay " + name, image));
        all.forEach((name, image) -> {
            assertThat(image).as(name).contains(":");
            assertThat(tag(image)).as(name + ": " + image).isNotEqualTo("latest").matches("\\d+(\\.\\d+)+");
            assertThat(table().values().stream().map(Row::image)).as(name).contains(repository(image));
        });
    }
}
