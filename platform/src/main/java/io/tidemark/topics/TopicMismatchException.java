package io.tidemark.topics;

import java.util.List;

/** Existing topics differ from the registry in ways that cannot be fixed safely by hand-waving; never accepted silently. */
public final class TopicMismatchException extends RuntimeException {

    private final List<TopicStatus> mismatched;

    public TopicMismatchException(List<TopicStatus> mismatched) {
        super("topics differ from what Tidemark needs: " + String.join("; ", mismatched.stream()
                .map(s -> s.name() + ": " + String.join(", ", s.problems())).toList()));
        this.mismatched = List.copyOf(mismatched);
    }

    public List<TopicStatus> mismatched() {
        return mismatched;
    }
}
