package io.tidemark.localcluster;

import java.util.concurrent.atomic.AtomicBoolean;

/** A node running in this JVM: it cannot be killed harder than closed, and it closes once. */
abstract class InProcessNode implements Node {

    private final String address;
    private final AtomicBoolean closed = new AtomicBoolean();

    InProcessNode(String address) {
        this.address = address;
    }

    @Override
    public final String address() {
        return address;
    }

    @Override
    public final void kill() {
        close();
    }

    @Override
    public final void close() {
        if (closed.compareAndSet(false, true)) {
            stop();
        }
    }

    abstract void stop();
}
