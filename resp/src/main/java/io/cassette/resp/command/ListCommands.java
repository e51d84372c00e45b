package io.cassette.resp.command;

final class ListCommands {
  private ListCommands() {}

  static void register(CommandTable t) {
  }
}
