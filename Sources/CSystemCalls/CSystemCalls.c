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
// (In this file, not one of its own: valgrind 3.19, Debian 12's, cannot read the debug
// information of a static binary with two C units in DWARF 5, and Scripts/make-order-file.sh
// traces the release build with it.)
//
// A fully static glibc program that enters the name service switch (getpwnam and friends,
// getaddrinfo, iconv_open, dlopen) reads nsswitch.conf and dlopens `libnss_*.so` and a second
// C library with it into a process that has no dynamic loader of its own: on Debian's default
// `passwd: files systemd`, a user the file does not hold ends the process with SIGSEGV.
//
// Scripts/build-release.sh links the static binary with `--wrap=NAME` for every such entry
// point: each reference to NAME in any object (Foundation's, the Swift runtime's, prefs' own)
// then goes to `__wrap_NAME` below, and glibc's NAME is never linked at all (nothing refers to
// `__real_NAME`). The wraps answer as prefs' own lookup does (Accounts.swift): the local files
// read as the files they are, then, for a user or group they do not hold, the system's
// `/usr/bin/getent` (a dynamically linked program that loads the modules safely, in a process
// of its own); what has no such answer (host names, character set conversion, loading a
// library, a locale other than C) fails with the error its documentation gives for "not
// available". After the link, Scripts/static-libc-check.sh fails the build if any entry point
// glibc warns about, its name service switch or its locale loader is still in the binary (what
// glibc's own objects keep of dlopen and gconv, and why nothing reaches it: that script and
// Docs/security.md).
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

// ---- The wraps ---------------------------------------------------------------------------

enum { getent_timeout_ms = 10000, getent_capacity = 1 << 16 };

/// getent's answer for one key: its single line, NUL-terminated, in a buffer to free; NULL
/// when getent says there is none (exit 2) or cannot answer (errno set: ENOENT for none).
static char *getent_line(const char *database, const char *key) {
  char *out = malloc(getent_capacity + 1);
  if (!out) return NULL;
  int status;
  long length = prefs_getent(database, key, out, getent_capacity, getent_timeout_ms, &status);
  // Exactly one line, and nothing that is not text.
  if (length <= 0 || status != 0 || out[length - 1] != '\n' ||
      memchr(out, '\n', (size_t)length - 1) || memchr(out, '\0', (size_t)length)) {
    free(out);
    errno = ENOENT;
    return NULL;
  }
  out[length] = '\0';
  return out;
}

/// Whether a name is an entry's (not a NIS `+`/`-` line's).
static int is_entry(const char *name) {
  return name && name[0] && name[0] != '+' && name[0] != '-';
}

/// The passwd entry named `name` (or, with `name` NULL, of `uid`): from `/etc/passwd` as the
/// file it is, then from getent; the `_r` convention (0 and `*result` NULL when none).
static int find_passwd(const char *name, uid_t uid, struct passwd *entry, char *buffer,
                       size_t size, struct passwd **result) {
  *result = NULL;
  FILE *file = fopen("/etc/passwd", "re");
  if (file) {
    struct passwd *found;
    int failed;
    while ((failed = fgetpwent_r(file, entry, buffer, size, &found)) == 0) {
      if (is_entry(found->pw_name) &&
          (name ? strcmp(found->pw_name, name) == 0 : found->pw_uid == uid)) {
        fclose(file);
        *result = found;
        return 0;
      }
    }
    fclose(file);
    if (failed == ERANGE) return ERANGE;
  }
  char key[24];
  if (!name) snprintf(key, sizeof key, "%u", (unsigned)uid);
  char *line = getent_line("passwd", name ? name : key);
  if (!line) return 0;
  FILE *text = fmemopen(line, strlen(line), "r");
  int failed = ENOENT;
  if (text) {
    struct passwd *found;
    failed = fgetpwent_r(text, entry, buffer, size, &found);
    fclose(text);
    if (failed == 0 && is_entry(found->pw_name) &&
        (name ? strcmp(found->pw_name, name) == 0 : found->pw_uid == uid)) {
      *result = found;
    }
  }
  free(line);
  return failed == ERANGE ? ERANGE : 0;
}

/// The group entry named `name` (or of `gid`), as ``find_passwd``.
static int find_group(const char *name, gid_t gid, struct group *entry, char *buffer,
                      size_t size, struct group **result) {
  *result = NULL;
  FILE *file = fopen("/etc/group", "re");
  if (file) {
    struct group *found;
    int failed;
    while ((failed = fgetgrent_r(file, entry, buffer, size, &found)) == 0) {
      if (is_entry(found->gr_name) &&
          (name ? strcmp(found->gr_name, name) == 0 : found->gr_gid == gid)) {
        fclose(file);
        *result = found;
        return 0;
      }
    }
    fclose(file);
    if (failed == ERANGE) return ERANGE;
  }
  char key[24];
  if (!name) snprintf(key, sizeof key, "%u", (unsigned)gid);
  char *line = getent_line("group", name ? name : key);
  if (!line) return 0;
  FILE *text = fmemopen(line, strlen(line), "r");
  int failed = ENOENT;
  if (text) {
    struct group *found;
    failed = fgetgrent_r(text, entry, buffer, size, &found);
    fclose(text);
    if (failed == 0 && is_entry(found->gr_name) &&
        (name ? strcmp(found->gr_name, name) == 0 : found->gr_gid == gid)) {
      *result = found;
    }
  }
  free(line);
  return failed == ERANGE ? ERANGE : 0;
}

int __wrap_getpwnam_r(const char *name, struct passwd *entry, char *buffer, size_t size,
                      struct passwd **result) {
  if (!name) {
    *result = NULL;
    return 0;
  }
  return find_passwd(name, 0, entry, buffer, size, result);
}

int __wrap_getpwuid_r(uid_t uid, struct passwd *entry, char *buffer, size_t size,
                      struct passwd **result) {
  return find_passwd(NULL, uid, entry, buffer, size, result);
}

int __wrap_getgrnam_r(const char *name, struct group *entry, char *buffer, size_t size,
                      struct group **result) {
  if (!name) {
    *result = NULL;
    return 0;
  }
  return find_group(name, 0, entry, buffer, size, result);
}

int __wrap_getgrgid_r(gid_t gid, struct group *entry, char *buffer, size_t size,
                      struct group **result) {
  return find_group(NULL, gid, entry, buffer, size, result);
}

// The non-reentrant ones: one entry a thread (glibc's is one a process), its text allocated
// at the first call (a buffer in thread-local storage itself would be set up, and touched, at
// every start and for every thread).
enum { passwd_size = 1 << 14, group_size = 1 << 16 };
static __thread struct passwd passwd_entry;
static __thread char *passwd_buffer;
static __thread struct group group_entry;
static __thread char *group_buffer;

/// The thread's buffer of `size` bytes in `*buffer`, allocated at the first call; NULL
/// (errno ENOMEM) when it cannot be.
static char *thread_buffer(char **buffer, size_t size) {
  if (!*buffer) *buffer = malloc(size);
  if (!*buffer) errno = ENOMEM;
  return *buffer;
}

struct passwd *__wrap_getpwnam(const char *name) {
  struct passwd *result = NULL;
  if (!thread_buffer(&passwd_buffer, passwd_size)) return NULL;
  int failed = __wrap_getpwnam_r(name, &passwd_entry, passwd_buffer, passwd_size, &result);
  if (failed) errno = failed;
  return result;
}

struct passwd *__wrap_getpwuid(uid_t uid) {
  struct passwd *result = NULL;
  if (!thread_buffer(&passwd_buffer, passwd_size)) return NULL;
  int failed = __wrap_getpwuid_r(uid, &passwd_entry, passwd_buffer, passwd_size, &result);
  if (failed) errno = failed;
  return result;
}

struct group *__wrap_getgrnam(const char *name) {
  struct group *result = NULL;
  if (!thread_buffer(&group_buffer, group_size)) return NULL;
  int failed = __wrap_getgrnam_r(name, &group_entry, group_buffer, group_size, &result);
  if (failed) errno = failed;
  return result;
}

struct group *__wrap_getgrgid(gid_t gid) {
  struct group *result = NULL;
  if (!thread_buffer(&group_buffer, group_size)) return NULL;
  int failed = __wrap_getgrgid_r(gid, &group_entry, group_buffer, group_size, &result);
  if (failed) errno = failed;
  return result;
}

/// Adds `gid` to `groups` (capacity `limit`) unless there; the count so far, past `limit`
/// when it did not fit.
static int add_group(gid_t *groups, int count, int limit, gid_t gid) {
  for (int i = 0; i < count && i < limit; i++)
    if (groups[i] == gid) return count;
  if (count < limit) groups[count] = gid;
  return count + 1;
}

int __wrap_getgrouplist(const char *user, gid_t group, gid_t *groups, int *ngroups) {
  int limit = *ngroups;
  int count = add_group(groups, 0, limit, group);
  // Its own buffers: a caller may still hold what getpwnam or getgrnam returned.
  char *buffer = malloc(getent_capacity);
  if (!buffer) {
    *ngroups = count;
    return count > limit ? -1 : count;
  }
  struct passwd entry, *local = NULL;
  // A user of the local files: its groups are those of /etc/group that list it.
  FILE *file = fopen("/etc/passwd", "re");
  if (file) {
    struct passwd *found;
    while (fgetpwent_r(file, &entry, buffer, getent_capacity, &found) == 0) {
      if (is_entry(found->pw_name) && strcmp(found->pw_name, user) == 0) {
        local = found;
        break;
      }
    }
    fclose(file);
  }
  if (local) {
    FILE *groups_file = fopen("/etc/group", "re");
    if (groups_file) {
      struct group g, *found;
      while (fgetgrent_r(groups_file, &g, buffer, getent_capacity, &found) == 0) {
        if (!is_entry(found->gr_name)) continue;
        for (char **member = found->gr_mem; member && *member; member++) {
          if (strcmp(*member, user) == 0) {
            count = add_group(groups, count, limit, found->gr_gid);
            break;
          }
        }
      }
      fclose(groups_file);
    }
  } else {
    // Anyone else's, as the system has them: `getent initgroups USER` is `USER gid gid …`.
    char *line = getent_line("initgroups", user);
    if (line) {
      char *cursor = line;
      size_t name_length = strcspn(cursor, " \t\n");
      if (name_length == strlen(user) && strncmp(cursor, user, name_length) == 0) {
        cursor += name_length;
        for (;;) {
          cursor += strspn(cursor, " \t\n");
          if (!*cursor) break;
          char *end;
          errno = 0;
          unsigned long gid = strtoul(cursor, &end, 10);
          if (end == cursor || errno || gid > (gid_t)-1) break;
          count = add_group(groups, count, limit, (gid_t)gid);
          cursor = end;
        }
      }
      free(line);
    }
  }
  free(buffer);
  *ngroups = count;
  return count > limit ? -1 : count;
}

int __wrap_initgroups(const char *user, gid_t group) {
  int count = NGROUPS_MAX;
  gid_t *groups = malloc(sizeof(gid_t) * NGROUPS_MAX);
  if (!groups) return -1;
  if (__wrap_getgrouplist(user, group, groups, &count) < 0) count = NGROUPS_MAX;
  int set = setgroups((size_t)count, groups);
  free(groups);
  return set;
}

// No host names: prefs never resolves one (a name server's answer is never a preference).
int __wrap_getaddrinfo(const char *node, const char *service, const struct addrinfo *hints,
                       struct addrinfo **result) {
  (void)node, (void)service, (void)hints;
  *result = NULL;
  return EAI_FAIL;
}

struct hostent *__wrap_gethostbyname(const char *name) {
  (void)name;
  h_errno = NO_RECOVERY;
  return NULL;
}

struct hostent *__wrap_gethostbyname2(const char *name, int family) {
  (void)name, (void)family;
  h_errno = NO_RECOVERY;
  return NULL;
}

struct hostent *__wrap_gethostbyaddr(const void *address, socklen_t length, int family) {
  (void)address, (void)length, (void)family;
  h_errno = NO_RECOVERY;
  return NULL;
}

int __wrap_gethostbyname_r(const char *name, struct hostent *entry, char *buffer, size_t size,
                           struct hostent **result, int *error) {
  (void)name, (void)entry, (void)buffer, (void)size;
  *result = NULL;
  *error = NO_RECOVERY;
  return ENOENT;
}

int __wrap_gethostbyname2_r(const char *name, int family, struct hostent *entry, char *buffer,
                            size_t size, struct hostent **result, int *error) {
  (void)name, (void)family, (void)entry, (void)buffer, (void)size;
  *result = NULL;
  *error = NO_RECOVERY;
  return ENOENT;
}

int __wrap_gethostbyaddr_r(const void *address, socklen_t length, int family,
                           struct hostent *entry, char *buffer, size_t size,
                           struct hostent **result, int *error) {
  (void)address, (void)length, (void)family, (void)entry, (void)buffer, (void)size;
  *result = NULL;
  *error = NO_RECOVERY;
  return ENOENT;
}

// No character set conversion modules (gconv, loaded by dlopen): "the conversion is not
// supported", which every caller of iconv_open handles.
iconv_t __wrap_iconv_open(const char *to, const char *from) {
  (void)to, (void)from;
  errno = EINVAL;
  return (iconv_t)-1;
}

// No locale but C: prefs' bytes never depend on the user's locale (keys sort by their UTF-8
// bytes, numbers print as CoreFoundation prints them), and loading one reads the locale
// archive and, for its character set, a gconv module by dlopen. "C" and "POSIX" are the C
// locale (what glibc returns for them, without reading a file); any other name is "not
// available" (ENOENT), as newlocale documents for a locale that is not installed.
locale_t __wrap_newlocale(int mask, const char *name, locale_t base) {
  (void)mask;
  if (!name || (strcmp(name, "C") != 0 && strcmp(name, "POSIX") != 0)) {
    errno = name ? ENOENT : EINVAL;
    return (locale_t)0;
  }
  // The process never leaves the C locale (setlocale is not in the binary), so the global
  // locale is C: a copy of it. `base` is left as it is (never freed here: freelocale would
  // bring glibc's locale loader into the link; prefs' callers pass none).
  (void)base;
  return duplocale(LC_GLOBAL_LOCALE);
}

// No shared library is ever loaded into the static process.
static __thread int dl_failed;

void *__wrap_dlopen(const char *file, int mode) {
  (void)file, (void)mode;
  dl_failed = 1;
  return NULL;
}

void *__wrap_dlmopen(long namespace, const char *file, int mode) {
  (void)namespace, (void)file, (void)mode;
  dl_failed = 1;
  return NULL;
}

char *__wrap_dlerror(void) {
  if (!dl_failed) return NULL;
  dl_failed = 0;
  return "the static prefs loads no shared library";
}

#else

long prefs_getent(const char *database, const char *key, char *buffer, unsigned long capacity,
                  int timeout_ms, int *status) {
  (void)database, (void)key, (void)buffer, (void)capacity, (void)timeout_ms;
  *status = -1;
  errno = ENOSYS;
  return -1;
}

#endif
