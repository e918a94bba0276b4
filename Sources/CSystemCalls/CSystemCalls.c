#if defined(__linux__)
#define _GNU_SOURCE
#endif

#include "CSystemCalls.h"

#include <errno.h>

#if defined(__linux__)
#include <fcntl.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_openat2
#define SYS_openat2 437
#endif

struct prefs_open_how {
  uint64_t flags;
  uint64_t mode;
  uint64_t resolve;
};

int prefs_openat2(int dirfd, const char *path, unsigned long long flags, unsigned long long mode,
                  unsigned long long resolve) {
  struct prefs_open_how how = {flags, mode, resolve};
  return (int)syscall(SYS_openat2, dirfd, path, &how, sizeof how);
}

int prefs_o_path(void) { return O_PATH; }

int prefs_renameat_noreplace(int fromdir, const char *from, int todir, const char *to) {
  return (int)syscall(SYS_renameat2, fromdir, from, todir, to, 1 /* RENAME_NOREPLACE */);
}

// The raw calls: glibc's wrappers of these broadcast the change to every thread (POSIX says
// credentials are the process's); the kernel keeps them per thread.
int prefs_thread_setresuid(unsigned int real, unsigned int effective, unsigned int saved) {
  return (int)syscall(SYS_setresuid, real, effective, saved);
}

int prefs_thread_setresgid(unsigned int real, unsigned int effective, unsigned int saved) {
  return (int)syscall(SYS_setresgid, real, effective, saved);
}

int prefs_thread_setgroups(unsigned long count, const unsigned int *groups) {
  return (int)syscall(SYS_setgroups, count, groups);
}

#else

int prefs_o_path(void) { return 0; }

int prefs_renameat_noreplace(int fromdir, const char *from, int todir, const char *to) {
  (void)fromdir, (void)from, (void)todir, (void)to;
  errno = ENOSYS;
  return -1;
}

int prefs_openat2(int dirfd, const char *path, unsigned long long flags, unsigned long long mode,
                  unsigned long long resolve) {
  (void)dirfd, (void)path, (void)flags, (void)mode, (void)resolve;
  errno = ENOSYS;
  return -1;
}

int prefs_thread_setresuid(unsigned int real, unsigned int effective, unsigned int saved) {
  (void)real, (void)effective, (void)saved;
  errno = ENOSYS;
  return -1;
}

int prefs_thread_setresgid(unsigned int real, unsigned int effective, unsigned int saved) {
  (void)real, (void)effective, (void)saved;
  errno = ENOSYS;
  return -1;
}

int prefs_thread_setgroups(unsigned long count, const unsigned int *groups) {
  (void)count, (void)groups;
  errno = ENOSYS;
  return -1;
}

#endif
