package io.tidemark.cli;

import picocli.CommandLine.IVersionProvider;

/** The version printed by {@code tidemark --version}, taken from the jar's manifest when there is one. */
public final class TidemarkVersion implements IVersionProvider {

    @Override
    public String[] getVersion() {
        String version = TidemarkVersion.class.getPackage().getImplementationVersion();
        return new String[] {"tidemark " + (version == null ? "development build" : version),
            "Java " + Runtime.version()};
    }
}
