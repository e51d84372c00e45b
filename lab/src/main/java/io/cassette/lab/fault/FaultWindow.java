package io.cassette.lab.fault;

/**
 * One fault as it happened ({@code node} 0: it concerned groups of nodes, named in the note): from {@code start} until it was healed at {@code end} (a killed
 * node: until it printed its ready line again), in milliseconds since the run began.
 */
public record FaultWindow(FaultKind kind, int node, long start, long end, String note) {
  public String describe() {
    return kind.label() + (node > 0 ? " n" + node : "") + " " + start + "-" + end + " ms" + (note.isEmpty() ? "" : " (" + note + ")");
  }
}
