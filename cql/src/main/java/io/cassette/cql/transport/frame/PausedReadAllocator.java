package io.cassette.cql.transport.frame;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.RecvByteBufAllocator;
import java.util.function.BooleanSupplier;

/**
 * The channel's read-buffer allocator, except while reading is paused ({@code paused}): then a
 * read takes at most {@link #PAUSED_READ_BYTES} bytes, once. The decoder reads like that now and
 * then while it waits for admission, only to see a client's close (the selector reports a FIN
 * only to a channel that is reading), without buffering a body it has not admitted.
 */
final class PausedReadAllocator implements RecvByteBufAllocator {
  static final int PAUSED_READ_BYTES = 64;

  private final RecvByteBufAllocator delegate;
  private final BooleanSupplier paused;

  PausedReadAllocator(RecvByteBufAllocator delegate, BooleanSupplier paused) {
    this.delegate = delegate;
    this.paused = paused;
  }

  @Override
  public Handle newHandle() {
    return new DelegatingHandle(delegate.newHandle()) {
      @Override
      public ByteBuf allocate(ByteBufAllocator alloc) {
        return paused.getAsBoolean() ? alloc.heapBuffer(PAUSED_READ_BYTES, PAUSED_READ_BYTES) : super.allocate(alloc);
      }

      @Override
      public int guess() {
        return paused.getAsBoolean() ? PAUSED_READ_BYTES : super.guess();
      }

      @Override
      public boolean continueReading() {
        return !paused.getAsBoolean() && super.continueReading();
      }
    };
  }
}
