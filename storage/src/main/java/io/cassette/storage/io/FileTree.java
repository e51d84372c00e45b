package io.cassette.storage.io;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The one recursive delete of Cassette (storage dropping a table, snapshots cleared on the
 * admin port, embedded nodes' temporary directories, benchmarks). Lives in storage's io
 * package because every module that deletes trees depends on storage.
 */
public final class FileTree {
  private FileTree() {}

  /**
   * Deletes {@code root} and everything under it, children before their directory. Symbolic
   * links are deleted, never followed. A missing root, or a file that disappears while the
   * tree is walked (another thread deleting too), is not an error.
   *
   * @throws IOException the first file or directory that could not be deleted; the walk stops
   *     there, so part of the tree may remain
   */
  public static void delete(Path root) throws IOException {
    if (!Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    Files.walkFileTree(root, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        Files.deleteIfExists(file);
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
        if (e instanceof NoSuchFileException) {
          return FileVisitResult.CONTINUE;
        }
        throw e;
      }

      @Override
      public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
        if (e != null && !(e instanceof NoSuchFileException)) {
          throw e;
        }
        Files.deleteIfExists(dir);
        return FileVisitResult.CONTINUE;
      }
    });
  }
}
