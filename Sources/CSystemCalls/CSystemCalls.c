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

int prefs_is_main_thread(void) { return syscall(SYS_gettid) == getpid(); }

#else

int prefs_is_main_thread(void) { return 0; }

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

// Whether this thread works as another user now (set by Credentials around its work).
static _Thread_local int prefs_switched;
int prefs_thread_switched(void) { return prefs_switched; }
void prefs_thread_set_switched(int switched) { prefs_switched = switched; }

// The guarded mapping (POSIX: Linux and Darwin alike).

#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <sys/mman.h>

// The live mapping's range (start 0: none), its page size and its contained faults: read by
// the handler, which may run on any thread, so atomics.
static atomic_int guard_busy;
static _Atomic(uintptr_t) guard_start;
static _Atomic(uintptr_t) guard_end;
static _Atomic(uintptr_t) guard_page;
static atomic_long guard_faults;
static struct sigaction guard_previous;

static void guard_on_sigbus(int signal, siginfo_t *info, void *context) {
  uintptr_t start = atomic_load(&guard_start);
  uintptr_t end = atomic_load(&guard_end);
  uintptr_t address = (uintptr_t)info->si_addr;
  // A fault of the kernel's (si_code > 0, not a signal another process sent) in the mapping:
  // the page becomes a page of zeros, and the faulting load runs again and reads them.
  if (info->si_code > 0 && start != 0 && address >= start && address < end) {
    uintptr_t page = address & ~(atomic_load(&guard_page) - 1);
    void *zeros = mmap((void *)page, (size_t)atomic_load(&guard_page), PROT_READ,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    if (zeros != MAP_FAILED) {
      atomic_fetch_add(&guard_faults, 1);
      return;
    }
  }
  // Anyone else's: the action that was there before.
  if (guard_previous.sa_flags & SA_SIGINFO) {
    guard_previous.sa_sigaction(signal, info, context);
    return;
  }
  if (guard_previous.sa_handler != SIG_DFL && guard_previous.sa_handler != SIG_IGN) {
    guard_previous.sa_handler(signal);
    return;
  }
  // The default (an ignored SIGBUS of a fault ends the process too): end it as it would have
  // ended. A fault runs its load again on return and is delivered with the default action; a
  // signal sent by a process is sent again.
  struct sigaction fallback;
  fallback.sa_handler = SIG_DFL;
  fallback.sa_flags = 0;
  sigemptyset(&fallback.sa_mask);
  sigaction(SIGBUS, &fallback, NULL);
  if (info->si_code <= 0) raise(SIGBUS);
}

int prefs_guarded_map(int fd, unsigned long size, const void **address) {
  if (size == 0) {
    errno = EINVAL;
    return -1;
  }
  if (atomic_exchange(&guard_busy, 1)) {
    errno = EBUSY;
    return -1;
  }
  long page = sysconf(_SC_PAGESIZE);
  void *mapped = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (mapped == MAP_FAILED) {
    int code = errno;
    atomic_store(&guard_busy, 0);
    errno = code;
    return -1;
  }
  atomic_store(&guard_faults, 0);
  atomic_store(&guard_page, (uintptr_t)(page > 0 ? page : 4096));
  uintptr_t rounded = ((uintptr_t)size + atomic_load(&guard_page) - 1) & ~(atomic_load(&guard_page) - 1);
  atomic_store(&guard_end, (uintptr_t)mapped + rounded);
  atomic_store(&guard_start, (uintptr_t)mapped);
  struct sigaction action;
  action.sa_sigaction = guard_on_sigbus;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  if (sigaction(SIGBUS, &action, &guard_previous) != 0) {
    int code = errno;
    atomic_store(&guard_start, 0);
    munmap(mapped, (size_t)size);
    atomic_store(&guard_busy, 0);
    errno = code;
    return -1;
  }
  *address = mapped;
  return 0;
}

long prefs_guarded_faults(void) { return atomic_load(&guard_faults); }

long prefs_guarded_unmap(void) {
  uintptr_t start = atomic_load(&guard_start);
  if (start == 0) return -1;
  uintptr_t end = atomic_load(&guard_end);
  // The action back first: a fault after it would be a use after the unmap, which no handler
  // should hide.
  sigaction(SIGBUS, &guard_previous, NULL);
  atomic_store(&guard_start, 0);
  munmap((void *)start, (size_t)(end - start));
  long faults = atomic_load(&guard_faults);
  atomic_store(&guard_busy, 0);
  return faults;
}

// ---- The name service, out of reach of the static build (issue 50) -------------------------
//
// (In this file's unit, not one of its own: valgrind 3.19, Debian 12's, cannot read the debug
// information of a static binary with two C units in DWARF 5, and Scripts/make-order-file.sh
// traces the release build with it. The wraps are in NameServiceWraps.h, which this file
// includes.)
//
// A fully static glibc program that enters the name service switch (getpwnam and friends,
// getaddrinfo, iconv_open, dlopen) reads nsswitch.conf and dlopens `libnss_*.so` and a second
// C library with it into a process that has no dynamic loader of its own: on Debian's default
// `passwd: files systemd`, a user the file does not hold ends the process with SIGSEGV.
//
// Scripts/build-release.sh links the static binary with `--wrap=NAME` for every such entry
// point: each reference to NAME in any object (Foundation's, the Swift runtime's, prefs' own)
// then goes to `__wrap_NAME` (NameServiceWraps.h), and glibc's NAME is never linked at all
// (nothing refers to `__real_NAME`). The wraps answer as prefs' own lookup does
// (Accounts.swift): the local files read as the files they are, then, for a user or group they
// do not hold, the system's `/usr/bin/getent` (a dynamically linked program that loads the
// modules safely, in a process of its own); what has no such answer (host names, character set
// conversion, loading a library, a locale other than C) fails with the error its documentation
// gives for "not available". After the link, Scripts/static-libc-check.sh fails the build if
// any entry point glibc warns about, its name service switch or its locale loader is still in
// the binary (what glibc's own objects keep of dlopen and gconv, and why nothing reaches it:
// that script and Docs/security.md).
//
// In the debug (dynamically linked) build nothing is wrapped: these functions are there, and
// nothing calls them but the tests of `prefs_getent`.


#if defined(__linux__)

#include <dlfcn.h>
#include <fcntl.h>
#include <grp.h>
#include <iconv.h>
#include <limits.h>
#include <locale.h>
#include <netdb.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static long long now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

long prefs_getent(const char *database, const char *key, char *buffer, unsigned long capacity,
                  int timeout_ms, int *status) {
  *status = -1;
  if (capacity == 0) {
    errno = EINVAL;
    return -1;
  }
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) return -1;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 1);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  // `--` first: a key that begins with `-` is a key, never an option of getent's.
  char *argv[] = {"getent", (char *)database, "--", (char *)key, NULL};
  // Its own environment, no one else's: no LD_PRELOAD, no locale of the caller's.
  char *envp[] = {"PATH=/usr/bin:/bin", "LC_ALL=C", NULL};
  pid_t pid;
  int spawned = posix_spawn(&pid, "/usr/bin/getent", &actions, NULL, argv, envp);
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  if (spawned != 0) {
    close(pipe_fds[0]);
    errno = spawned;
    return -1;
  }
  unsigned long length = 0;
  int failure = 0;
  long long deadline = now_ms() + timeout_ms;
  for (;;) {
    long long left = deadline - now_ms();
    if (left <= 0) {
      failure = ETIMEDOUT;
      break;
    }
    struct pollfd p = {pipe_fds[0], POLLIN, 0};
    int ready = poll(&p, 1, (int)left);
    if (ready < 0) {
      if (errno == EINTR) continue;
      failure = errno;
      break;
    }
    if (ready == 0) continue;
    if (length == capacity) {
      failure = E2BIG;
      break;
    }
    ssize_t got = read(pipe_fds[0], buffer + length, capacity - length);
    if (got < 0) {
      if (errno == EINTR) continue;
      failure = errno;
      break;
    }
    if (got == 0) break;
    length += (unsigned long)got;
  }
  close(pipe_fds[0]);
  if (failure) kill(pid, SIGKILL);
  int wait_status = 0;
  while (waitpid(pid, &wait_status, 0) < 0) {
    if (errno != EINTR) {
      if (!failure) failure = errno;
      break;
    }
  }
  if (failure) {
    errno = failure;
    return -1;
  }
  *status = WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : 128 + WTERMSIG(wait_status);
  return (long)length;
}

#include "NameServiceWraps.h"

#else

long prefs_getent(const char *database, const char *key, char *buffer, unsigned long capacity,
                  int timeout_ms, int *status) {
  (void)database, (void)key, (void)buffer, (void)capacity, (void)timeout_ms;
  *status = -1;
  errno = ENOSYS;
  return -1;
}

#endif
