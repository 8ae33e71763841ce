package io.tidemark.emulator.filer;

import com.google.protobuf.InvalidProtocolBufferException;
import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The meta-log on disk: one record per event, {@code [length][crc32c][SubscribeMetadataResponse bytes]}. A write
 * that a kill interrupted leaves a short or corrupt last record; reading stops there and the file is cut back to
 * the last whole record. Each append reaches the operating system before the mutation is acknowledged, which is
 * what survives {@code kill -9}; {@code fsync} additionally survives a machine crash.
 */
final class MetaLogFile implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(MetaLogFile.class);
    private static final int HEADER = 8;

    private final FileChannel channel;
    private final boolean fsync;

    private MetaLogFile(FileChannel channel, boolean fsync) {
        this.channel = channel;
        this.fsync = fsync;
    }

    /** Opens the log, returning it with the events it already holds. */
    static Opened open(Path file, boolean fsync) {
        try {
            Files.createDirectories(file.getParent());
            FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            List<SubscribeMetadataResponse> events = new ArrayList<>();
            long good = readAll(channel, events);
            if (good < channel.size()) {
                log.warn("meta-log {}: cutting {} bytes of an interrupted write", file, channel.size() - good);
                channel.truncate(good);
            }
            channel.position(good);
            return new Opened(new MetaLogFile(channel, fsync), events);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open meta-log " + file, e);
        }
    }

    record Opened(MetaLogFile file, List<SubscribeMetadataResponse> events) {
    }

    private static long readAll(FileChannel channel, List<SubscribeMetadataResponse> into) throws IOException {
        long position = 0;
        long size = channel.size();
        ByteBuffer header = ByteBuffer.allocate(HEADER);
        while (position + HEADER <= size) {
            header.clear();
            channel.read(header, position);
            header.flip();
            int length = header.getInt();
            int crc = header.getInt();
            if (length < 0 || position + HEADER + length > size) {
                break;
            }
            ByteBuffer body = ByteBuffer.allocate(length);
            channel.read(body, position + HEADER);
            byte[] bytes = body.array();
            if (checksum(bytes) != crc) {
                break;
            }
            try {
                into.add(SubscribeMetadataResponse.parseFrom(bytes));
            } catch (InvalidProtocolBufferException e) {
                break;
            }
            position += HEADER + length;
        }
        return position;
    }

    void append(SubscribeMetadataResponse event) {
        byte[] bytes = event.toByteArray();
        ByteBuffer record = ByteBuffer.allocate(HEADER + bytes.length);
        record.putInt(bytes.length).putInt(checksum(bytes)).put(bytes).flip();
        try {
            while (record.hasRemaining()) {
                channel.write(record);
            }
            if (fsync) {
                channel.force(false);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to the meta-log", e);
        }
    }

    /** Replaces the whole file with {@code events} (after a purge). */
    void rewrite(List<SubscribeMetadataResponse> events) {
        try {
            channel.truncate(0);
            channel.position(0);
            for (SubscribeMetadataResponse event : events) {
                append(event);
            }
            channel.force(false);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot rewrite the meta-log", e);
        }
    }

    /** Keeps only the events stamped at or after {@code tsNs}, in their order (a purge). */
    void retainFrom(long tsNs) {
        try {
            List<SubscribeMetadataResponse> all = new ArrayList<>();
            readAll(channel, all);
            rewrite(all.stream().filter(e -> e.getTsNs() >= tsNs).toList());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the meta-log back", e);
        }
    }

    private static int checksum(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        return (int) crc.getValue();
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            log.warn("closing the meta-log: {}", e.toString());
        }
    }
}
