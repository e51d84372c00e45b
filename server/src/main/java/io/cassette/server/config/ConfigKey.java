package io.cassette.server.config;

import java.util.List;

/**
 * One configuration key: its name (Cassandra's where the meaning is the same), the type of
 * its value, its default as text ({@code null} when derived at start from the data directory
 * or the heap), the words an ENUM accepts, and the environment variable that sets it.
 */
record ConfigKey(String name, ValueType type, String defaultText, List<String> choices) {

  ConfigKey(String name, ValueType type, String defaultText) {
    this(name, type, defaultText, List.of());
  }

  /**
   * {@code CASSETTE_} and the key in upper case: {@code native_transport_port} →
   * {@code CASSETTE_NATIVE_TRANSPORT_PORT}; a section's "." is "__"
   * ({@code CASSETTE_CLIENT_ENCRYPTION_OPTIONS__ENABLED}).
   */
  String environmentVariable() {
    return "CASSETTE_" + name.toUpperCase(java.util.Locale.ROOT).replace(".", "__");
  }

  String allowed() {
    return type == ValueType.ENUM ? "one of " + String.join(", ", choices) : type.allowed;
  }
}
