// The wraps of the name service's entry points (why and how: "The name service" in
// CSystemCalls.c). Included by CSystemCalls.c inside its `#if defined(__linux__)`, after
// `prefs_getent`, and never compiled alone: prefs' C stays one unit (valgrind 3.19 cannot read
// the debug information of a static binary with two C units in DWARF 5, and
// Scripts/make-order-file.sh traces the release build with it), and the tests and Fuzz/run.sh
// compile CSystemCalls.c by itself.

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
