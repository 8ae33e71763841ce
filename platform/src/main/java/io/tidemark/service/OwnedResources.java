package io.tidemark.service;

import java.util.ArrayDeque;
import java.util.Deque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a service or a connection holder acquired, closed in the reverse order it was acquired: what was opened
 * on top of something closes before it. A failure to close one resource is logged and the others still close.
 * Closing is idempotent, and a resource owned after closing is closed at once.
 */
public final class OwnedResources implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(OwnedResources.class);

    private final String owner;
    private final Deque<Named> resources = new ArrayDeque<>();
    private boolean closed;

    private record Named(String name, AutoCloseable resource) {
    }

    /** @param owner who owns the resources, for the log */
    public OwnedResources(String owner) {
        this.owner = owner;
    }

    /** Takes a resource to close later; returns it, so that acquiring and owning read as one step. */
    public <T extends AutoCloseable> T own(T resource) {
        return own(resource.getClass().getSimpleName(), resource);
    }

    /** As {@link #own(AutoCloseable)}, with a name for the log if closing it fails. */
    public <T extends AutoCloseable> T own(String name, T resource) {
        boolean closeNow;
        synchronized (this) {
            closeNow = closed;
            if (!closeNow) {
                resources.push(new Named(name, resource));
            }
        }
        if (closeNow) {
            closeQuietly(new Named(name, resource));
        }
        return resource;
    }

    @Override
    public void close() {
        while (true) {
            Named next;
            synchronized (this) {
                closed = true;
                next = resources.poll();
            }
            if (next == null) {
                return;
            }
            closeQuietly(next);
        }
    }

    private void closeQuietly(Named named) {
        try {
            named.resource().close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            log.warn("{}: interrupted while closing its {}", owner, named.name());
        } catch (Exception e) {
            log.warn("{}: closing its {} failed: {}", owner, named.name(), e.toString());
        }
    }
}
