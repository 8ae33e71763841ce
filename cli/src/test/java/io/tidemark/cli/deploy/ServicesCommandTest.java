package io.tidemark.cli.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The container image's command tree works without what its jar leaves out. */
class ServicesCommandTest {

    private static final List<String> SERVICES = List.of("populator", "replay-streams", "object-processor",
            "bucket-processor", "conductor", "topics", "status", "dlq", "config", "rules");

    /** Loads everything from the test class path except the packages the services jar does not carry. */
    private static final class WithoutEmbeddedParts extends URLClassLoader {

        private static final List<String> LEFT_OUT = List.of("io.tidemark.emulator.", "io.tidemark.localcluster.",
                "kafka.", "scala.", "org.apache.kafka.raft.", "org.apache.kafka.metadata.", "org.yaml.");

        WithoutEmbeddedParts(URL[] urls) {
            super(urls, ClassLoader.getPlatformClassLoader());
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (LEFT_OUT.stream().anyMatch(name::startsWith)) {
                throw new ClassNotFoundException(name + " is not in the services jar");
            }
            return super.loadClass(name, resolve);
        }
    }

    private static URL[] testClassPath() {
        String path = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        return Arrays.stream(path.split(File.pathSeparator)).map(p -> {
            try {
                return Path.of(p).toUri().toURL();
            } catch (java.net.MalformedURLException e) {
                throw new IllegalStateException(e);
            }
        }).toArray(URL[]::new);
    }

    @Test
    void shouldRunEveryServiceCommandWithoutTheBrokerTheEmulatorOrTheBenchmarks() throws Exception {
        try (URLClassLoader loader = new WithoutEmbeddedParts(testClassPath())) {
            Method run = Class.forName("io.tidemark.cli.ServicesMain", true, loader)
                    .getMethod("run", String[].class, PrintWriter.class, PrintWriter.class);
            for (String service : SERVICES) {
                StringWriter out = new StringWriter();
                StringWriter err = new StringWriter();
                int code = (int) run.invoke(null, new String[] {service, "--help"}, new PrintWriter(out),
                        new PrintWriter(err));
                assertThat(code).as(service + ": " + err).isZero();
                assertThat(out.toString()).as(service).contains("Usage: tidemark " + service);
            }
            // The embedded parts really are out of reach of this loader.
            assertThat(loadable(loader, "io.tidemark.emulator.MutableClock")).isFalse();
            assertThat(loadable(loader, "kafka.server.KafkaRaftServer")).isFalse();
        }
    }

    private static boolean loadable(ClassLoader loader, String name) {
        try {
            Class.forName(name, false, loader);
            return true;
        } catch (ClassNotFoundException | NoClassDefFoundError e) {
            return false;
        }
    }
}
