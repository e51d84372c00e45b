/*
 * slowfsync: an LD_PRELOAD shim that makes fsync(2), fdatasync(2), syncfs(2) and
 * sync_file_range(2) take SLOWFSYNC_MS milliseconds longer, to imitate a slow SD card
 * ("slow card" scenario of bench/run).
 *
 * The delay applies only while the file named by SLOWFSYNC_SWITCH exists, so a server
 * can be started once with the shim loaded and the stall switched on and off later
 * (touch / rm the file). Without SLOWFSYNC_SWITCH the delay is always on.
 *
 *   SLOWFSYNC_MS      delay per call in milliseconds (default 500)
 *   SLOWFSYNC_SWITCH  path of the on/off file (optional)
 *   SLOWFSYNC_LOG     path of a file that gets one line per delayed call (optional)
 *
 * The delay is a sleep before the real call: the calling thread stalls as it would on a
 * slow card, but the kernel is not made to hold locks meanwhile, so a write(2) to the same
 * file from another thread is not blocked as it could be on real slow flash.
 *
 * The JVM reaches these calls through libc (FileChannel.force -> fsync/fdatasync), so the
 * shim works for Java servers too. Build: gcc -shared -fPIC -O2 -o slowfsync.so slowfsync.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_DELAY_MS 500L

/* Leaves errno as it found it: callers such as JNA (Cassandra's fsync) read errno after the
 * call even when it succeeds, so a stray ENOENT from access() would turn into an I/O error. */
static void stall(const char *what, int fd) {
  int saved = errno;
  const char *sw = getenv("SLOWFSYNC_SWITCH");
  if (sw != NULL && *sw != '\0' && access(sw, F_OK) != 0) {
    errno = saved;
    return;
  }
  const char *ms_text = getenv("SLOWFSYNC_MS");
  long ms = ms_text != NULL ? strtol(ms_text, NULL, 10) : DEFAULT_DELAY_MS;
  if (ms <= 0) {
    errno = saved;
    return;
  }
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
  }
  const char *log = getenv("SLOWFSYNC_LOG");
  if (log != NULL && *log != '\0') {
    /* One short append per call; O_APPEND keeps lines whole across threads. */
    int lfd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (lfd >= 0) {
      char line[96];
      struct timespec now;
      clock_gettime(CLOCK_REALTIME, &now);
      int n = snprintf(line, sizeof line, "%ld.%03ld %s fd=%d +%ldms\n", (long)now.tv_sec,
                       now.tv_nsec / 1000000L, what, fd, ms);
      if (n > 0) {
        ssize_t ignored = write(lfd, line, (size_t)n);
        (void)ignored;
      }
      close(lfd);
    }
  }
  errno = saved;
}

typedef int (*fd_call)(int);
typedef int (*range_call)(int, off64_t, off64_t, unsigned int);

/* The next definition in link order (libc's); looked up once, races are benign. */
static void *real(const char *name) { return dlsym(RTLD_NEXT, name); }

int fsync(int fd) {
  static fd_call next;
  if (next == NULL) next = (fd_call)real("fsync");
  stall("fsync", fd);
  return next(fd);
}

int fdatasync(int fd) {
  static fd_call next;
  if (next == NULL) next = (fd_call)real("fdatasync");
  stall("fdatasync", fd);
  return next(fd);
}

int syncfs(int fd) {
  static fd_call next;
  if (next == NULL) next = (fd_call)real("syncfs");
  stall("syncfs", fd);
  return next(fd);
}

int sync_file_range(int fd, off64_t offset, off64_t nbytes, unsigned int flags) {
  static range_call next;
  if (next == NULL) next = (range_call)real("sync_file_range");
  stall("sync_file_range", fd);
  return next(fd, offset, nbytes, flags);
}
