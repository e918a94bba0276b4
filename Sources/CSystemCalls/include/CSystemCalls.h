#ifndef PREFS_CSYSTEMCALLS_H
#define PREFS_CSYSTEMCALLS_H


/// The system calls Swift cannot make through libc: glibc has no wrapper for them, or its
/// wrapper does more than the call (`setresuid` and `setgroups` change every thread of the
/// process; these change only the calling thread, as the kernel's calls do), or they are
/// variadic (`syscall`), which Swift does not import.
///
/// User and group IDs are 32-bit (`uid_t`, `gid_t` on every platform Swift runs on); no system
/// header is included here, so that the module exports no type of its own.
///
/// Each returns 0 (or a descriptor) on success and -1 with `errno` set on failure; where the
/// platform has no such call, -1 with `errno` ENOSYS.

/// `openat2(dirfd, path, {flags, mode, resolve})`: Linux 5.6 and later.
int prefs_openat2(int dirfd, const char *path, unsigned long long flags, unsigned long long mode,
                  unsigned long long resolve);

/// `O_PATH` (a descriptor that names a file without opening it for reading or writing: a
/// folder to walk from, a symbolic link itself); 0 where the platform has none.
int prefs_o_path(void);

/// `renameat2(…, RENAME_NOREPLACE)`: renames only when nothing has the new name (EEXIST);
/// where the platform has no such call, -1 with `errno` ENOSYS.
int prefs_renameat_noreplace(int fromdir, const char *from, int todir, const char *to);

/// The calling thread's real, effective and saved user IDs (-1: unchanged).
int prefs_thread_setresuid(unsigned int real, unsigned int effective, unsigned int saved);

/// The calling thread's real, effective and saved group IDs (-1: unchanged).
int prefs_thread_setresgid(unsigned int real, unsigned int effective, unsigned int saved);
/// The calling thread's supplementary groups.
int prefs_thread_setgroups(unsigned long count, const unsigned int *groups);

/// 1 when the calling thread is the process's main thread (its thread ID is the process ID,
/// the one `ps` and `pgrep -u` judge the process by); 0 otherwise, and where the platform
/// cannot tell.
int prefs_is_main_thread(void);

/// Whether the calling thread works as another user now (1) or with the process's own
/// credentials (0), as ``prefs_thread_set_switched`` last said: nothing may be started from a
/// switched thread (a thread, a process), which would inherit the user.
int prefs_thread_switched(void);
void prefs_thread_set_switched(int switched);

/// Runs the system's `/usr/bin/getent DATABASE -- KEY` (an absolute path, never `PATH`;
/// standard input and error `/dev/null`; an environment of its own) and reads what it prints
/// into `buffer`, at most `capacity` bytes, within `timeout_ms` milliseconds: the number of
/// bytes and, in `*status`, getent's exit status (0 found, 2 no such entry); -1 with `errno`
/// when it could not be run or answer (ETIMEDOUT: it was killed; E2BIG: it printed more than
/// `capacity`). Linux only (ENOSYS elsewhere). The answer is the name service switch's, from a
/// dynamically linked program that loads NSS modules safely in a process of its own.
long prefs_getent(const char *database, const char *key, char *buffer, unsigned long capacity,
                  int timeout_ms, int *status);

/// A read-only mapping of an open file whose faults are contained: a page the file no longer
/// backs when it is touched (the file was truncated meanwhile, or the disk or a FUSE server
/// could not read it) reads as zeros and is counted, instead of SIGBUS ending the process.
/// While it is mapped, a SIGBUS handler of this module is installed; every other SIGBUS goes
/// to the action that was there before (the default: the process ends, as without it). One
/// such mapping at a time in a process.
///
/// Maps the first `size` bytes (more than 0) of `fd` read-only: 0 and the address in
/// `*address`, or -1 with `errno` (EBUSY while another guarded mapping is live, EINVAL for a
/// size of 0, or mmap's and sigaction's own).
int prefs_guarded_map(int fd, unsigned long size, const void **address);

/// Unmaps the guarded mapping and puts back the SIGBUS action that was there before it: the
/// number of pages that read as zeros because the file did not back them (0: every byte read
/// through the mapping was the file's), or -1 when no guarded mapping is live.
long prefs_guarded_unmap(void);

/// The number of pages of the live guarded mapping that read as zeros so far.
long prefs_guarded_faults(void);

#endif
