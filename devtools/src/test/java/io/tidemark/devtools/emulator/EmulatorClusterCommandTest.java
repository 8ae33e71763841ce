package io.tidemark.devtools.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.devtools.Main;
import io.tidemark.devtools.ToolRunner;
import io.tidemark.localcluster.ChildJvm;
import io.tidemark.seaweed.client.ClusterNode;
import io.tidemark.seaweed.client.GrpcTls;
import io.tidemark.seaweed.client.MasterClient;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Runs {@code tidemark emulator --filers 3} as its own process, as a user would (the command blocks until SIGTERM),
 * and turns the cluster's knobs from a second command line.
 */
class EmulatorClusterCommandTest {

    @Test
    void shouldRunThreeFilersAndAMasterAndStopOneFromTheCommandLine() throws Exception {
        Process process = new ProcessBuilder(ChildJvm.command(List.of("-Xmx256m"), Main.class, "emulator",
                "--filers", "3", "--filer-port", "0", "--s3-grpc-port", "0", "--admin-port", "0")).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8));
            String ready = out.readLine();
            while (ready != null && !ready.startsWith("READY ")) {
                ready = out.readLine();
            }
            assertThat(ready).isNotNull();
            Map<String, String> fields = fields(ready);
            List<String> filers = List.of(fields.get("filers").split(","));
            assertThat(filers).hasSize(3).doesNotHaveDuplicates().allMatch(a -> a.matches("127\\.0\\.0\\.1:\\d+"));
            assertThat(fields.get("filer")).isEqualTo(filers.get(0));
            assertThat(fields.get("master")).matches("127\\.0\\.0\\.1:\\d+");

            try (MasterClient master = MasterClient.connect(fields.get("master"), GrpcTls.PLAINTEXT,
                    Duration.ofSeconds(10))) {
                assertThat(grpcAddresses(master)).containsExactlyInAnyOrderElementsOf(filers);

                ToolRunner.Result stop = ToolRunner.run("emulator", "faults", "--admin", fields.get("admin"),
                        "stop-filer", "filer=2");
                assertThat(stop.exitCode()).as(stop.out()).isZero();
                assertThat(grpcAddresses(master)).containsExactlyInAnyOrder(filers.get(0), filers.get(1));

                assertThat(ToolRunner.run("emulator", "faults", "--admin", fields.get("admin"), "start-filer",
                        "filer=2").exitCode()).isZero();
                assertThat(grpcAddresses(master)).containsExactlyInAnyOrderElementsOf(filers);
            }
            process.destroy();
            assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            process.destroyForcibly();
        }
    }

    private static List<String> grpcAddresses(MasterClient master) {
        return master.listFilers().stream().map(ClusterNode::grpcAddress).map(Object::toString).toList();
    }

    private static Map<String, String> fields(String readyLine) {
        Map<String, String> fields = new HashMap<>();
        Arrays.stream(readyLine.substring("READY ".length()).split(" ")).forEach(pair -> fields.put(
                pair.substring(0, pair.indexOf('=')), pair.substring(pair.indexOf('=') + 1)));
        return fields;
    }
}
