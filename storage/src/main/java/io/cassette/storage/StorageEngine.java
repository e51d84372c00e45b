package io.cassette.storage;

/** The engine's implementation; built in the storage-engine issue. */
final class StorageEngine {
  private StorageEngine() {}

  static Engine open(EngineOptions options) {
    throw new UnsupportedOperationException("storage engine not built yet");
  }
}
