package io.cassette.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cassette.coordinator.metadata.MetadataUnavailableException;
import java.net.BindException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** The "Cannot listen for ..." line names what failed, not a message-less root cause. */
class StartFailureReasonTest {

  @Test
  void aMetadataTimeoutIsNamedByItsWrapperNotByTheMessagelessRoot() {
    // The chain a ring node's Redis door threw at start under load ("... null" before).
    Throwable chain = new IllegalStateException("cannot open Redis tables",
        new MetadataUnavailableException("metadata service unavailable: no answer within 7000 ms",
            new TimeoutException()));
    assertEquals("metadata service unavailable: no answer within 7000 ms", CassetteNode.reason(chain));
  }

  @Test
  void aBusyPortIsNamedByTheBindException() {
    Throwable chain = new IllegalStateException("bind failed", new BindException("Address already in use"));
    assertEquals("Address already in use", CassetteNode.reason(chain));
  }

  @Test
  void withoutAnyMessageTheRootIsNamed() {
    assertEquals("java.util.concurrent.TimeoutException",
        CassetteNode.reason(new RuntimeException((String) null, new TimeoutException())));
  }
}
