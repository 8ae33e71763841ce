package io.tidemark.cli.dlq;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.tidemark.cli.ConfigOptions;
import io.tidemark.messages.DeadLetter;
import io.tidemark.objectprocessor.DeadLetters;
import io.tidemark.objectprocessor.DeadLetters.Parked;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "list", mixinStandardHelpOptions = true,
        description = "Lists parked tasks in topic order: where each sits, its last outcome, the object, the attempts "
                + "and the reason; then how many are parked, by outcome.")
public final class DlqListCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

    @Spec
    private CommandSpec spec;

    @Mixin
    private ConfigOptions options;

    @Option(names = "--json", description = "One JSON object per parked task.")
    private boolean json;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "100",
            description = "Show at most N tasks (default ${DEFAULT-VALUE}); the totals count all.")
    private int limit;

    @Override
    public Integer call() throws Exception {
        List<Parked> parked = new DeadLetters(options.load()).read(Duration.ofSeconds(30));
        PrintWriter out = spec.commandLine().getOut();
        for (Parked p : parked.subList(0, Math.min(limit, parked.size()))) {
            out.println(json ? JSON.writeValueAsString(Map.of("partition", p.partition(), "offset", p.offset(),
                    "deadLetter", p.letter())) : line(p));
        }
        if (!json) {
            Map<String, Long> byOutcome = parked.stream().collect(Collectors.groupingBy(p -> p.letter().outcome(),
                    TreeMap::new, Collectors.counting()));
            out.println(parked.size() + " parked" + (byOutcome.isEmpty() ? "" : " (" + byOutcome.entrySet().stream()
                    .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(", ")) + ")"));
        }
        out.flush();
        return 0;
    }

    static String line(Parked p) {
        DeadLetter d = p.letter();
        String object = d.task() == null ? "(unreadable record)" : d.task().target().bucket() + "/"
                + d.task().target().objectPath() + (d.task().target().versionId() == null
                || d.task().target().versionId().isEmpty() ? "" : "?versionId=" + d.task().target().versionId());
        String kind = d.task() == null ? "-" : d.task().kind();
        return String.format(Locale.ROOT, "%d@%d\t%s\t%s\t%s\tattempts=%d\tlast=%s\t%s", p.partition(), p.offset(),
                d.outcome(), kind, object, d.attempts(), d.lastFailure(), d.reason());
    }
}
