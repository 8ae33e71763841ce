package io.tidemark.testsupport;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Gives a test class a started local cluster: parameters of type {@link io.tidemark.localcluster.LocalCluster} and
 * {@link ClusterNamespace} are injected. One cluster serves every test class of the JVM; each class gets its own
 * namespace. Kafka comes from the embedded broker, or from a container when {@code -Dtidemark.kafka=testcontainers}
 * (or {@link #kafka()}) asks for it; without a Docker engine such tests are skipped, never failed.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(LocalClusterExtension.class)
public @interface LocalClusterTest {

    enum KafkaProvider { DEFAULT, EMBEDDED, TESTCONTAINERS }

    KafkaProvider kafka() default KafkaProvider.DEFAULT;
}
