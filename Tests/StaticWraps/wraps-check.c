// Calls every entry point Scripts/build-release.sh wraps, in a program linked as prefs is
// (fully static, `--wrap=NAME` for each, Sources/CSystemCalls/CSystemCalls.c beside it), and
// prints what each answered, one `name value` line each: DirectoryUserTests compare the lines
// with the system's own answers (getent, id) in a mount namespace holding a directory user.
//   wraps-check USER UID GROUP GID
#define _GNU_SOURCE
#include <dlfcn.h>
#include <grp.h>
#include <iconv.h>
#include <locale.h>
#include <netdb.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

int main(int argc, char **argv) {
  if (argc != 5) return 64;
  const char *user = argv[1], *group = argv[3];
  uid_t uid = (uid_t)strtoul(argv[2], NULL, 10);
  gid_t gid = (gid_t)strtoul(argv[4], NULL, 10);
  struct passwd *p = getpwnam(user);
  printf("getpwnam %s\n", p ? p->pw_dir : "-");
  printf("getpwnam.uid %u\n", p ? (unsigned)p->pw_uid : 0u);
  p = getpwuid(uid);
  printf("getpwuid %s\n", p ? p->pw_name : "-");
  struct passwd entry, *found = NULL;
  char buffer[4096];
  getpwnam_r("root", &entry, buffer, sizeof buffer, &found);
  printf("getpwnam_r.root %s\n", found ? found->pw_dir : "-");
  getpwuid_r(uid, &entry, buffer, sizeof buffer, &found);
  printf("getpwuid_r %s\n", found ? found->pw_name : "-");
  printf("getpwnam.nosuchuser %s\n", getpwnam("nosuchuser-50") ? "found" : "-");
  struct group *g = getgrnam(group);
  printf("getgrnam %u\n", g ? (unsigned)g->gr_gid : 0u);
  g = getgrgid(gid);
  printf("getgrgid %s\n", g ? g->gr_name : "-");
  struct group gentry, *gfound = NULL;
  getgrnam_r(group, &gentry, buffer, sizeof buffer, &gfound);
  printf("getgrnam_r %u\n", gfound ? (unsigned)gfound->gr_gid : 0u);
  getgrgid_r(gid, &gentry, buffer, sizeof buffer, &gfound);
  printf("getgrgid_r %s\n", gfound ? gfound->gr_name : "-");
  p = getpwnam(user);
  gid_t groups[64];
  int count = 64;
  getgrouplist(user, p ? p->pw_gid : 0, groups, &count);
  printf("getgrouplist");
  for (int i = 0; i < count; i++) printf(" %u", (unsigned)groups[i]);
  printf("\n");
  struct addrinfo *result = NULL;
  int resolved = getaddrinfo("localhost", "80", NULL, &result);
  printf("getaddrinfo %s\n", resolved == 0 ? "resolved" : "failed");
  printf("gethostbyname %s\n", gethostbyname("localhost") ? "resolved" : "failed");
  void *library = dlopen("libc.so.6", RTLD_NOW);
  printf("dlopen %s\n", library ? "loaded" : "failed");
  printf("dlerror %s\n", dlerror() ? "said" : "silent");
  iconv_t conversion = iconv_open("UTF-8", "ISO-8859-1");
  printf("iconv_open %s\n", conversion == (iconv_t)-1 ? "failed" : "opened");
  locale_t c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
  printf("newlocale.C %s\n", c ? "made" : "failed");
  locale_t other = newlocale(LC_ALL_MASK, "en_US.UTF-8", (locale_t)0);
  printf("newlocale.other %s\n", other ? "made" : "failed");
  return 0;
}
