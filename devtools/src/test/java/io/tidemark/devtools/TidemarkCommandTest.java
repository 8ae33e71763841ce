package io.tidemark.devtools;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.cli.ServicesCommand;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The full command is the services' command plus the development tools, under the same names. */
class TidemarkCommandTest {

    @Test
    void shouldOfferEveryServiceCommandOfTheImageUnderTheSameNameAndClass() {
        Map<String, CommandLine> image = new CommandLine(new ServicesCommand()).getSubcommands();
        Map<String, CommandLine> full = TidemarkCommand.commandLine().getSubcommands();
        assertThat(full.keySet()).containsAll(image.keySet());
        image.forEach((name, command) -> assertThat(full.get(name).getCommand().getClass()).as(name)
                .isEqualTo(command.getCommand().getClass()));
    }

    @Test
    void shouldAddTheToolsAndTheBenchmarksThatTheImageLeavesOut() {
        Map<String, CommandLine> image = new CommandLine(new ServicesCommand()).getSubcommands();
        Map<String, CommandLine> full = TidemarkCommand.commandLine().getSubcommands();
        assertThat(full.keySet()).contains("quickstart", "emulator", "local-cluster", "campaign", "pipeline-bench");
        assertThat(image.keySet()).doesNotContain("quickstart", "emulator", "local-cluster", "campaign",
                "pipeline-bench");
        for (String service : new String[] {"populator", "replay-streams", "object-processor", "bucket-processor"}) {
            assertThat(full.get(service).getSubcommands()).as(service).containsKey("bench");
            assertThat(image.get(service).getSubcommands()).as(service).doesNotContainKey("bench");
        }
    }
}
