package io.cassette.lab.fault;

/**
 * One fault as it happened ({@code node} 0: it concerned groups of nodes, named in the note), in
 * milliseconds since the run began: injected at {@code start}, lifted at {@code lifted} (a killed
 * node: when its restart began), and over at {@code end} (a killed node: when it printed its
 * ready line again; any other fault: when it was lifted).
 */
public record FaultWindow(FaultKind kind, int node, long start, long lifted, long end, String note) {
  /** A fault that is over as soon as it is lifted. */
  public FaultWindow(FaultKind kind, int node, long start, long end, String note) {
    this(kind, node, start, end, end, note);
  }

  public String describe() {
    return kind.label() + (node > 0 ? " n" + node : "") + " " + start + "-" + end + " ms"
        + (lifted < end ? " (restart began at " + lifted + " ms)" : "") + (note.isEmpty() ? "" : " (" + note + ")");
  }
}
