package io.cassette.storage;

/** A storage failure that a front door reports to its client (disk full, corrupt file...). */
public class StorageException extends RuntimeException {
  public StorageException(String message) {
    super(message);
  }

  public StorageException(String message, Throwable cause) {
    super(message, cause);
  }
}
