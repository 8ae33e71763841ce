package io.tidemark.devtools.emulator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tidemark.cli.ExitCodes;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Sends one operation to a running emulator's admin API. Arguments are {@code name=value} pairs; a dotted name
 * such as {@code tags.env=prod} builds a nested object. Prints the JSON answer; exits 1 when the emulator
 * refused the operation.
 */
abstract class AdminCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Spec
    CommandSpec spec;

    @Option(names = "--admin", paramLabel = "HOST:PORT",
            defaultValue = "${env:TIDEMARK_EMULATOR_ADMIN_ADDRESS:-127.0.0.1:8333}",
            description = "The emulator's admin address (default ${DEFAULT-VALUE}, or TIDEMARK_EMULATOR_ADMIN_ADDRESS).")
    String admin;

    @Parameters(index = "0", paramLabel = "OPERATION", description = "The operation, e.g. put-object.")
    String operation;

    @Parameters(index = "1..*", paramLabel = "NAME=VALUE", description = "The operation's arguments.")
    List<String> arguments = List.of();

    abstract String area();

    @Override
    public Integer call() throws IOException, InterruptedException {
        ObjectNode body = JSON.createObjectNode();
        for (String argument : arguments) {
            int eq = argument.indexOf('=');
            if (eq <= 0) {
                spec.commandLine().getErr().println("error: arguments are NAME=VALUE, not \"" + argument + "\"");
                return ExitCodes.USAGE;
            }
            String name = argument.substring(0, eq);
            String value = argument.substring(eq + 1);
            int dot = name.indexOf('.');
            if (dot > 0) {
                ObjectNode nested = body.has(name.substring(0, dot)) ? (ObjectNode) body.get(name.substring(0, dot))
                        : body.putObject(name.substring(0, dot));
                nested.put(name.substring(dot + 1), value);
            } else {
                body.put(name, value);
            }
        }
        HttpResponse<String> response;
        try {
            response = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build().send(
                    HttpRequest.newBuilder(URI.create("http://" + admin + "/" + area() + "/" + operation))
                            .timeout(Duration.ofSeconds(30))
                            .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            spec.commandLine().getErr().println("error: cannot reach the emulator at " + admin + ": " + e);
            return ExitCodes.FAILURE;
        }
        spec.commandLine().getOut().println(response.body());
        return response.statusCode() == 200 ? ExitCodes.OK : ExitCodes.FAILURE;
    }

    @Command(name = "s3", mixinStandardHelpOptions = true,
            description = {"Drives the emulated S3 gateway of a running emulator.",
                "Operations: create-bucket delete-bucket put-versioning put-lifecycle delete-lifecycle put-object "
                    + "delete-object delete-version put-tagging put-legal-hold put-retention create-upload upload-part "
                    + "complete-upload abort-upload backdate backdate-upload drift list-versions.",
                "Example: tidemark emulator s3 put-object bucket=photos key=2026/a.jpg size=1024 tags.env=prod"})
    static final class S3 extends AdminCommand {
        @Override
        String area() {
            return "s3";
        }
    }

    @Command(name = "faults", mixinStandardHelpOptions = true,
            description = {"Turns the fault knobs of a running emulator.",
                "Operations: set (unavailableProbability=0.2 latencyMs=50), force-outcome (bucket= objectPath= "
                    + "outcome=RETRY_LATER|BLOCKED reason=), clear-outcome, clear, drop-subscriptions, fail-reads "
                    + "(bucket= objectPath= times=: LifecycleDelete answers NOOP NOT_FOUND, as upstream does when its read "
                    + "fails), meta-log-memory (events=: how many newest events the filer serves from memory), purge-log "
                    + "(before=2026-11-25T10:00:00Z: deletes the meta-log's files before that minute, as fs.log.purge "
                    + "does).",
                "With --filers N: stop-filer filer=i (its server goes away, the master stops listing it), start-filer "
                    + "filer=i (back on its port, log intact), add-filer (joins on a new port; answers its index and "
                    + "address), delay-filer filer=i ms=N (its events reach its peers' aggregated streams late), "
                    + "filer-clock-offset filer=i ms=N (moves the clock that stamps its events)."})
    static final class Faults extends AdminCommand {
        @Override
        String area() {
            return "faults";
        }
    }
}
