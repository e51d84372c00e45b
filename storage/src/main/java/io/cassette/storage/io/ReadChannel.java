package io.cassette.storage.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A read-only file channel shared by many threads that survives their interrupts. NIO closes
 * a channel for everyone when a thread blocked in it is interrupted; one interrupted
 * request would then break every read of the file. Here a read that finds the channel
 * closed by someone else's interrupt reopens it and retries, with the caller's interrupt
 * status set aside for the retry and restored after. Thread-safe.
 */
public final class ReadChannel implements AutoCloseable {
  private final Path path;
  private volatile FileChannel channel;
  private volatile boolean closed;

  public ReadChannel(Path path) throws IOException {
    this.path = path;
    this.channel = FileChannel.open(path, StandardOpenOption.READ);
  }

  /** Positional read, as {@link FileChannel#read(ByteBuffer, long)}. */
  public int read(ByteBuffer dst, long position) throws IOException {
    FileChannel ch = channel;
    try {
      return ch.read(dst, position);
    } catch (ClosedChannelException e) {
      if (closed) {
        throw e;
      }
      FileChannel fresh = reopen(ch);
      boolean interrupted = Thread.interrupted();
      try {
        return fresh.read(dst, position);
      } finally {
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  private synchronized FileChannel reopen(FileChannel broken) throws IOException {
    if (channel == broken && !closed) {
      channel = FileChannel.open(path, StandardOpenOption.READ);
    }
    return channel;
  }

  public long size() throws IOException {
    return channel.size();
  }

  /** The current channel (for mapping); it may be replaced after an interrupt. */
  public FileChannel channel() {
    return channel;
  }

  public Path path() {
    return path;
  }

  @Override
  public void close() {
    closed = true;
    try {
      channel.close();
    } catch (IOException e) {
      // nothing left to do with it
    }
  }
}
