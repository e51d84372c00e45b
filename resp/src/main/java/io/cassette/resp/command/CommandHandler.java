package io.cassette.resp.command;

/** Executes one command and writes its reply through {@code ctx.reply()}. */
@FunctionalInterface
public interface CommandHandler {
  void execute(CommandContext ctx);
}
