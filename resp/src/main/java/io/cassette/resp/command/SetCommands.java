package io.cassette.resp.command;

final class SetCommands {
  private SetCommands() {}

  static void register(CommandTable t) {
  }
}
