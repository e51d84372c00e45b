package io.cassette.storage.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileTreeTest {
  @TempDir Path dir;

  @Test
  void deletesNestedFilesAndDirectories() throws Exception {
    Path root = dir.resolve("root");
    Files.createDirectories(root.resolve("a/b/c"));
    Files.writeString(root.resolve("top.db"), "x");
    Files.writeString(root.resolve("a/b/c/deep.db"), "y");
    Files.createDirectories(root.resolve("empty"));
    FileTree.delete(root);
    assertThat(root).doesNotExist();
    assertThat(dir).exists();
  }

  @Test
  void missingRootIsNotAnError() throws Exception {
    FileTree.delete(dir.resolve("never-created"));
    assertThat(dir).exists();
  }

  @Test
  void linksAreDeletedNotFollowed() throws Exception {
    Path outside = Files.createDirectories(dir.resolve("outside"));
    Files.writeString(outside.resolve("keep.db"), "keep");
    Path root = Files.createDirectories(dir.resolve("root"));
    Files.createSymbolicLink(root.resolve("link"), outside);
    FileTree.delete(root);
    assertThat(root).doesNotExist();
    assertThat(outside.resolve("keep.db")).hasContent("keep");
  }

  @Test
  void aSingleFileIsDeleted() throws Exception {
    Path file = Files.writeString(dir.resolve("one.db"), "z");
    FileTree.delete(file);
    assertThat(file).doesNotExist();
  }
}
