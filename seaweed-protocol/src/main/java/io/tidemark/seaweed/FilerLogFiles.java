package io.tidemark.seaweed;

import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.seaweed.client.SeaweedCallException;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * Where a filer keeps its meta-log once it leaves memory, and how far back it still reaches: SeaweedFS flushes the
 * log about once a minute to {@code /topics/.system/log/<YYYY-MM-DD>/<HH-MM>.<filer id, 8 hex>} (upstream's
 * {@code filer_notify.go}, {@code logFlushFunc}), named by the UTC minute the flushed buffer starts in, and never
 * trims it by itself: operators do ({@code fs.log.purge}). The oldest file left is as far back as a subscription can
 * be served.
 */
public final class FilerLogFiles {

    /** The directory of the persisted meta-log (upstream's {@code SystemLogDir}). */
    public static final String DIRECTORY = "/topics/.system/log";

    private static final int PAGE = 1_000;

    private FilerLogFiles() {
    }

    /**
     * The start of the oldest meta-log file the filer still has: the first day directory holding a file named as
     * the filer names them, and its earliest minute. Empty when there is none (nothing flushed yet, or all purged):
     * then there is no evidence either way.
     *
     * @throws SeaweedCallException when the filer cannot be asked
     */
    public static Optional<Instant> oldest(FilerClient filer) {
        try {
            return oldestListed(filer);
        } catch (SeaweedCallException e) {
            // A day directory purged between the two listings, or no log directory at all.
            if (e.getCause() instanceof io.grpc.StatusRuntimeException cause && FilerClient.isNotFound(cause)) {
                return Optional.empty();
            }
            throw e;
        }
    }

    private static Optional<Instant> oldestListed(FilerClient filer) {
        for (Entry day : filer.listAll(DIRECTORY, "", PAGE)) {
            Optional<LocalDate> date = day(day.getName());
            if (!day.getIsDirectory() || date.isEmpty()) {
                continue;
            }
            Optional<Instant> first = Optional.empty();
            for (Entry file : filer.listAll(DIRECTORY + "/" + day.getName(), "", PAGE)) {
                Optional<Instant> start = start(date.get(), file.getName());
                if (!file.getIsDirectory() && start.isPresent()
                        && (first.isEmpty() || start.get().isBefore(first.get()))) {
                    first = start;
                }
            }
            if (first.isPresent()) {
                return first;
            }
        }
        return Optional.empty();
    }

    /** A day directory's date, if the name is one. */
    static Optional<LocalDate> day(String name) {
        try {
            return Optional.of(LocalDate.parse(name));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /** When a log file named {@code HH-MM.<filer id>} in the directory of {@code day} starts, if the name is one. */
    static Optional<Instant> start(LocalDate day, String name) {
        int dot = name.indexOf('.');
        String minute = dot < 0 ? name : name.substring(0, dot);
        if (minute.length() != 5 || minute.charAt(2) != '-') {
            return Optional.empty();
        }
        try {
            LocalTime time = LocalTime.of(Integer.parseInt(minute.substring(0, 2)), Integer.parseInt(minute.substring(3)));
            return Optional.of(day.atTime(time).toInstant(ZoneOffset.UTC));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /** A log file's place: its day directory and its name. */
    public record Name(String day, String file) {
    }

    /** The day directory and file name the filer gives the log file that starts in {@code minute}. */
    public static Name nameOf(Instant minute, int filerId) {
        var t = minute.atOffset(ZoneOffset.UTC);
        return new Name(String.format("%04d-%02d-%02d", t.getYear(), t.getMonthValue(), t.getDayOfMonth()),
                String.format("%02d-%02d.%08x", t.getHour(), t.getMinute(), filerId));
    }
}
