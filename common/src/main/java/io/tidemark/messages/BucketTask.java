package io.tidemark.messages;

/** A listing task for one bucket (Backbeat's shape), the value of {@code bucket-tasks}. */
public record BucketTask(String action, Target target, Details details) {

    public enum Mode { steady, recovery }

    public record Target(String bucket) {
    }

    /**
     * @param marker the name after which the next page starts, or {@code null} for the first page
     */
    public record Details(String scanId, Mode mode, String prefix, String marker) {
    }
}
