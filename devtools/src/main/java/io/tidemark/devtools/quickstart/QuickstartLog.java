package io.tidemark.devtools.quickstart;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.filter.ThresholdFilter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.FileAppender;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the quickstart's log goes: all of it to a file, and to the console only errors, one line each with the file's
 * path, so that what a newcomer reads there is what Tidemark says to a person. Libraries warn about plenty a person
 * need not act on (an embedded broker answering before its internal topics exist, clients reconnecting); the file
 * keeps that for whoever looks. Closing puts the console back as it was.
 */
final class QuickstartLog implements AutoCloseable {

    private final ch.qos.logback.classic.Logger root;
    private final List<Appender<ILoggingEvent>> detached;
    private final List<Appender<ILoggingEvent>> added;
    private final Path file;

    private QuickstartLog(ch.qos.logback.classic.Logger root, List<Appender<ILoggingEvent>> detached,
                          List<Appender<ILoggingEvent>> added, Path file) {
        this.root = root;
        this.detached = detached;
        this.added = added;
        this.file = file;
    }

    /** Sends the log to {@code file} (appended to); {@code null} as the file when logging is not Logback's. */
    static QuickstartLog open(Path file) {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
            return new QuickstartLog(null, List.of(), List.of(), null);
        }
        ch.qos.logback.classic.Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        List<Appender<ILoggingEvent>> consoles = new ArrayList<>();
        for (Iterator<Appender<ILoggingEvent>> it = root.iteratorForAppenders(); it.hasNext(); ) {
            Appender<ILoggingEvent> appender = it.next();
            if (appender instanceof ConsoleAppender) {
                consoles.add(appender);
            }
        }

        FileAppender<ILoggingEvent> toFile = new FileAppender<>();
        toFile.setContext(context);
        toFile.setName("quickstart-file");
        toFile.setFile(file.toString());
        toFile.setAppend(true);
        toFile.setEncoder(encoder(context, "%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level [%thread] %logger{36} - %msg%n"));
        toFile.start();

        ConsoleAppender<ILoggingEvent> errors = new ConsoleAppender<>();
        errors.setContext(context);
        errors.setName("quickstart-console");
        errors.setTarget("System.err");
        // One line per error, its stack trace left to the file.
        errors.setEncoder(encoder(context, "%d{HH:mm:ss} ERROR %logger{0}: %msg (details in "
                + file.toString().replace("%", "\\%") + ")%n%nopex"));
        ThresholdFilter onlyErrors = new ThresholdFilter();
        onlyErrors.setLevel(Level.ERROR.toString());
        onlyErrors.start();
        errors.addFilter(onlyErrors);
        errors.start();

        consoles.forEach(root::detachAppender);
        root.addAppender(toFile);
        root.addAppender(errors);
        return new QuickstartLog(root, consoles, new ArrayList<>(List.of(toFile, errors)), file);
    }

    private static PatternLayoutEncoder encoder(LoggerContext context, String pattern) {
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(pattern);
        encoder.start();
        return encoder;
    }

    /** The file the whole log goes to, or {@code null} when logging is not Logback's. */
    Path file() {
        return file;
    }

    @Override
    public synchronized void close() {
        if (root == null || added.isEmpty() && detached.isEmpty()) {
            return;
        }
        detached.forEach(root::addAppender);
        for (Appender<ILoggingEvent> appender : added) {
            root.detachAppender(appender);
            appender.stop();
        }
        detached.clear();
        added.clear();
    }
}
