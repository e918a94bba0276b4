// The second attacker of Scripts/symlink-race.sh: an unprivileged user who owns a large
// preferences file and, as fast as it can, for as long as it runs, cuts it to one page and
// writes its bytes back in place (what a writer that rewrites in place does, and what a user
// does to make a privileged reader that maps the file fault on a page that is gone).
//   cut FILE
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: cut FILE\n");
    return 64;
  }
  if (getuid() == 0 || geteuid() == 0) {
    fprintf(stderr, "cut: run me as an unprivileged user\n");
    return 64;
  }
  int fd = open(argv[1], O_RDWR);
  struct stat info;
  if (fd < 0 || fstat(fd, &info) != 0) {
    perror("cut: open");
    return 1;
  }
  size_t size = (size_t)info.st_size;
  char *bytes = malloc(size);
  if (bytes == NULL || pread(fd, bytes, size, 0) != (ssize_t)size) {
    perror("cut: read");
    return 1;
  }
  // Whole for a moment between cuts (0 to 2 ms), so that rounds see the file whole, cut, and
  // cut in the middle of a read.
  for (unsigned n = 1;; n = n * 1103515245u + 12345u) {
    if (ftruncate(fd, 4096) != 0 || pwrite(fd, bytes, size, 0) != (ssize_t)size) {
      perror("cut: rewrite");
      return 1;
    }
    struct timespec pause = {0, (long)(n >> 8) % 2000000};
    nanosleep(&pause, NULL);
  }
}
