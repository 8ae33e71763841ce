package io.tidemark.testsupport;

import io.tidemark.localcluster.LocalCluster;
import java.util.Locale;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/** The JUnit side of {@link LocalClusterTest}. */
public final class LocalClusterExtension implements BeforeAllCallback, ParameterResolver {

    private static final ExtensionContext.Namespace STORE = ExtensionContext.Namespace.create(LocalClusterExtension.class);

    /** Closes the shared cluster when the test run ends. */
    private record SharedCluster(LocalCluster cluster) implements AutoCloseable {
        @Override
        public void close() {
            cluster.close();
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        LocalClusterTest.KafkaProvider provider = provider(context);
        String key = "cluster-" + provider;
        if (provider == LocalClusterTest.KafkaProvider.TESTCONTAINERS) {
            Assumptions.assumeTrue(DockerKafka.dockerAvailable(),
                    "Kafka from Testcontainers was asked for, but no Docker engine is available here");
        }
        context.getRoot().getStore(STORE).computeIfAbsent(key, k -> new SharedCluster(start(provider)),
                SharedCluster.class);
        context.getStore(STORE).put("namespace", ClusterNamespace.forClass(context.getRequiredTestClass()));
        context.getStore(STORE).put("key", key);
    }

    private static LocalCluster start(LocalClusterTest.KafkaProvider provider) {
        if (provider == LocalClusterTest.KafkaProvider.TESTCONTAINERS) {
            return LocalCluster.builder().externalKafka(DockerKafka.start()).start();
        }
        return LocalCluster.builder().start();
    }

    private static LocalClusterTest.KafkaProvider provider(ExtensionContext context) {
        LocalClusterTest annotation = context.getRequiredTestClass().getAnnotation(LocalClusterTest.class);
        if (annotation != null && annotation.kafka() != LocalClusterTest.KafkaProvider.DEFAULT) {
            return annotation.kafka();
        }
        String property = System.getProperty("tidemark.kafka", "embedded").toLowerCase(Locale.ROOT);
        return property.equals("testcontainers") ? LocalClusterTest.KafkaProvider.TESTCONTAINERS
                : LocalClusterTest.KafkaProvider.EMBEDDED;
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == LocalCluster.class || type == ClusterNamespace.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        if (parameter.getParameter().getType() == ClusterNamespace.class) {
            return context.getStore(STORE).get("namespace", ClusterNamespace.class);
        }
        String key = context.getStore(STORE).get("key", String.class);
        return context.getRoot().getStore(STORE).get(key, SharedCluster.class).cluster();
    }
}
