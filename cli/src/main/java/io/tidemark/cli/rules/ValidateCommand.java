package io.tidemark.cli.rules;

import io.tidemark.cli.ExitCodes;
import io.tidemark.lifecycle.config.LifecycleConfigException;
import io.tidemark.lifecycle.config.LifecycleConfigs;
import io.tidemark.lifecycle.config.ValidationMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "validate",
        mixinStandardHelpOptions = true,
        description = {"Checks a PutBucketLifecycleConfiguration body the way S3 does (or SeaweedFS, with "
                + "--validation-mode seaweedfs).",
            "Prints OK, or <ErrorCode>: <message> with S3's error code, and exits 0 or 1."})
public final class ValidateCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Parameters(paramLabel = "FILE.xml", description = "The lifecycle configuration to check.")
    private Path file;

    @Option(names = "--validation-mode", paramLabel = "aws|seaweedfs", defaultValue = "aws",
            description = "aws: as S3 checks it (default); seaweedfs: also what SeaweedFS's gateway accepts "
                    + "(NewerNoncurrentVersions without NoncurrentDays).")
    private String validationMode;

    @Override
    public Integer call() {
        ValidationMode mode;
        try {
            mode = ValidationMode.parse(validationMode);
        } catch (IllegalArgumentException e) {
            spec.commandLine().getErr().println("error: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        byte[] document;
        try {
            document = Files.readAllBytes(file);
        } catch (IOException e) {
            spec.commandLine().getErr().println("error: cannot read " + file + ": " + e);
            return ExitCodes.FAILURE;
        }
        try {
            LifecycleConfigs.parseAndValidate(document, mode);
            spec.commandLine().getOut().println("OK");
            return ExitCodes.OK;
        } catch (LifecycleConfigException e) {
            spec.commandLine().getOut().println(e.describe());
            return ExitCodes.FAILURE;
        }
    }
}
