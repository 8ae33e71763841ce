package io.tidemark.devtools.quickstart;

import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The class-data archive later quickstarts map instead of loading their classes again (the {@code tidemark} launcher's
 * {@code devtools/target/tidemark-quickstart.jsa}). The JVM writes one only as it exits, for several seconds: a run
 * that recorded it itself would keep the user waiting that long after Ctrl-C. So when the launcher found none for this
 * jar, it names itself in {@value #RECORDER}, and once READY this run asks it to record one with a short quickstart of
 * its own, in the background, at a lower priority; the launcher ignores Ctrl-C while it does, so a Ctrl-C meant for
 * this run does not cut the recording short.
 */
final class ClassArchive {

    /** The launcher to ask, as a path; set only when there is no archive for this jar yet. */
    static final String RECORDER = "tidemark.quickstart.archive.recorder";
    static final String RECORD = "--record-quickstart-archive";

    private static final Logger log = LoggerFactory.getLogger(ClassArchive.class);

    private ClassArchive() {
    }

    /**
     * Starts {@code recorder --record-quickstart-archive} and returns at once; nothing when {@code recorder} is
     * {@code null} or blank.
     *
     * @return whether the recording was started
     */
    static boolean recordInBackground(String recorder) {
        if (recorder == null || recorder.isBlank()) {
            return false;
        }
        try {
            // The launcher writes what the recording says to a file of its own beside the archive.
            new ProcessBuilder(recorder, RECORD).redirectOutput(Redirect.DISCARD).redirectError(Redirect.DISCARD)
                    .start().getOutputStream().close();
            log.info("recording the quickstart's class-data archive in the background: {} {}", recorder, RECORD);
            return true;
        } catch (IOException e) {
            log.warn("cannot start {} {}: {}", recorder, RECORD, e.toString());
            return false;
        }
    }
}
