package io.cassette.resp.command;

final class SortedSetCommands {
  private SortedSetCommands() {}

  static void register(CommandTable t) {
  }
}
