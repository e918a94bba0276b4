/*
 * PrefsDriver.m -- command-line driver around the legacy Preference class, used
 * as the `gnustep` reference of prefs' differential tests.
 *
 *   prefs-driver load               one line of JSON from [Preference load]:
 *                                   {"isSoundEnabled": true, "rankingSize": 5}
 *   prefs-driver save YES|NO N      sets both properties, calls -save (which
 *                                   synchronizes); exit 0
 *   prefs-driver scenario ARG...    runs the script on standard input, one step a
 *                                   line: "register KEY PLIST", "set KEY PLIST",
 *                                   "remove KEY", "read KEY", "dict" (the keys that
 *                                   start with "t." of dictionaryRepresentation);
 *                                   each read and dict prints an XML property list
 *                                   ({"v": value}, or {} for nil) and a line "--"
 *   prefs-driver args ARG...        the argument domain GNUstep made of this
 *                                   process's arguments, as an XML property list
 *   prefs-driver dump               for each key of the persistent domain named
 *                                   after the process (sorted), what the getters
 *                                   return, as one line of JSON:
 *     {"KEY": {"bool": true, "integer": "123", "double": "%.17g|nan|inf|-inf",
 *              "float": "%.9g|nan|inf|-inf", "string": "..." | null}, ...}
 *
 * It uses [NSUserDefaults standardUserDefaults]; under GNUstep its domain is the
 * process name (the executable's file name, "prefs-driver"), stored in
 * GNUSTEP_USER_DEFAULTS_DIR/prefs-driver.plist.  See README.md.
 *
 * Exit status: 0, or 2 for a usage error.  `save` exits 0 even when GNUstep
 * could not write the file: the wiki's -save ignores what -synchronize returns.
 * gcc Objective-C: no ARC, no object literals.
 */
#import <Foundation/Foundation.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <objc/runtime.h>
#import "Preference.h"

/* JSON string: ", \ and control characters escaped; every UTF-16 unit at or
 * above 0x7f is written as \uXXXX, so astral characters come out as surrogate
 * pairs (and a lone surrogate still gives valid JSON text). */
static void
appendJSONString(NSMutableString *out, NSString *s)
{
  NSUInteger i, n = [s length];

  [out appendString: @"\""];
  for (i = 0; i < n; i++)
    {
      unichar c = [s characterAtIndex: i];

      if (c == '"')
        [out appendString: @"\\\""];
      else if (c == '\\')
        [out appendString: @"\\\\"];
      else if (c < 0x20 || c >= 0x7f)
        [out appendFormat: @"\\u%04x", (unsigned)c];
      else
        [out appendFormat: @"%c", (char)c];
    }
  [out appendString: @"\""];
}

static NSString *
realText(double d, int digits)
{
  if (isnan(d))
    return @"nan";
  if (isinf(d))
    return d > 0 ? @"inf" : @"-inf";
  return [NSString stringWithFormat: @"%.*g", digits, d];
}

static void
put(NSString *s)
{
  const char *p = [s UTF8String];

  fputs(p, stdout);
  fputc('\n', stdout);
  fflush(stdout);
}

/* The wiki's +load is, unintentionally, the class-load hook of the Objective-C
 * runtime: both Apple's and the GNU runtime call +[Preference load] by
 * themselves while the program is being loaded, before main() (the legacy app
 * did that too, and leaked the instance).  There is no autorelease pool then,
 * and GNUstep logs "autorelease called without pool" for every object
 * NSUserDefaults makes.  This constructor runs before the runtime registers the
 * program's own classes and selectors (so it goes through the C runtime API)
 * and gives that early call a pool; it does not change what is read or
 * written. */
static id startupPool;

__attribute__((constructor(101))) static void
giveLoadHookAPool(void)
{
  Class pool = objc_getClass("NSAutoreleasePool");
  SEL make = sel_registerName("new");
  IMP imp;

  if (pool == Nil)
    return;
  imp = class_getMethodImplementation(object_getClass((id)pool), make);
  if (imp != 0)
    startupPool = imp((id)pool, make);
}

static int
usage(void)
{
  fprintf(stderr,
    "usage: prefs-driver load\n"
    "       prefs-driver save YES|NO INTEGER\n"
    "       prefs-driver dump\n"
    "       prefs-driver args ARG...\n"
    "       prefs-driver scenario ARG... < SCRIPT\n");
  return 2;
}

static int
doLoad(void)
{
  Preference *p = [Preference load];

  put([NSString stringWithFormat: @"{\"isSoundEnabled\": %s, \"rankingSize\": %ld}",
    [p isSoundEnabled] ? "true" : "false", (long)[p rankingSize]]);
  [p release];          /* +load returns an owned (alloc/init) object */
  return 0;
}

static int
doSave(const char *flag, const char *number)
{
  Preference *p;
  BOOL sound;
  long long n;
  char *end;

  if (strcmp(flag, "YES") == 0)
    sound = YES;
  else if (strcmp(flag, "NO") == 0)
    sound = NO;
  else
    {
      fprintf(stderr, "prefs-driver: save: expected YES or NO, got '%s'\n", flag);
      return 2;
    }
  errno = 0;
  n = strtoll(number, &end, 10);
  if (*number == '\0' || *end != '\0' || errno == ERANGE)
    {
      fprintf(stderr, "prefs-driver: save: not a 64-bit integer: '%s'\n", number);
      return 2;
    }
  p = [[Preference alloc] init];
  p.isSoundEnabled = sound;
  p.rankingSize = (NSInteger)n;
  [p save];
  [p release];
  return 0;
}

static int
doDump(void)
{
  NSUserDefaults *defaults = [NSUserDefaults standardUserDefaults];
  NSString *domain = [[NSProcessInfo processInfo] processName];
  NSDictionary *pd = [defaults persistentDomainForName: domain];
  NSArray *keys = [[pd allKeys] sortedArrayUsingSelector: @selector(compare:)];
  NSMutableString *out = [NSMutableString stringWithString: @"{"];
  NSUInteger i;

  for (i = 0; i < [keys count]; i++)
    {
      NSString *key = [keys objectAtIndex: i];
      NSString *str = [defaults stringForKey: key];

      if (i > 0)
        [out appendString: @", "];
      appendJSONString(out, key);
      [out appendFormat: @": {\"bool\": %s, \"integer\": \"%ld\", ",
        [defaults boolForKey: key] ? "true" : "false",
        (long)[defaults integerForKey: key]];
      [out appendFormat: @"\"double\": \"%@\", \"float\": \"%@\", \"string\": ",
        realText([defaults doubleForKey: key], 17),
        realText((double)[defaults floatForKey: key], 9)];
      if (str == nil)
        [out appendString: @"null"];
      else
        appendJSONString(out, str);
      [out appendString: @"}"];
    }
  [out appendString: @"}"];
  put(out);
  return 0;
}

/* The argument domain, as GNUstep's NSUserDefaults parsed it from this process's
 * arguments (all of them: the program name, "args", then the caller's). */
static int
doArgs(void)
{
  NSDictionary *domain = [[NSUserDefaults standardUserDefaults]
    volatileDomainForName: NSArgumentDomain];
  NSString *error = nil;
  NSData *xml = [NSPropertyListSerialization dataFromPropertyList: domain
    format: NSPropertyListXMLFormat_v1_0 errorDescription: &error];

  if (xml == nil)
    {
      fprintf(stderr, "prefs-driver: %s\n", [[error description] UTF8String]);
      return 1;
    }
  fwrite([xml bytes], 1, [xml length], stdout);
  fflush(stdout);
  return 0;
}

static void
printResult(id value)
{
  NSDictionary *box = value == nil ? [NSDictionary dictionary]
    : [NSDictionary dictionaryWithObject: value forKey: @"v"];
  NSData *xml = [NSPropertyListSerialization dataFromPropertyList: box
    format: NSPropertyListXMLFormat_v1_0 errorDescription: 0];

  fwrite([xml bytes], 1, [xml length], stdout);
  fputs("\n--\n", stdout);
  fflush(stdout);
}

/* A search-list scenario: registrations, sets, removals and reads, in order. */
static int
doScenario(void)
{
  NSUserDefaults *d = [NSUserDefaults standardUserDefaults];
  NSData *input = [[NSFileHandle fileHandleWithStandardInput] readDataToEndOfFile];
  NSString *text = [[[NSString alloc] initWithData: input
    encoding: NSUTF8StringEncoding] autorelease];
  NSEnumerator *lines = [[text componentsSeparatedByString: @"\n"] objectEnumerator];
  NSString *line;

  while ((line = [lines nextObject]) != nil)
    {
      NSArray *w = [line componentsSeparatedByString: @" "];
      NSString *op;

      if ([line length] == 0)
        continue;
      op = [w objectAtIndex: 0];
      if ([op isEqual: @"dict"])
        {
          NSDictionary *all = [d dictionaryRepresentation];
          NSMutableDictionary *t = [NSMutableDictionary dictionary];
          NSEnumerator *keys = [all keyEnumerator];
          NSString *k;

          while ((k = [keys nextObject]) != nil)
            if ([k hasPrefix: @"t."])
              [t setObject: [all objectForKey: k] forKey: k];
          printResult(t);
        }
      else if ([op isEqual: @"read"])
        printResult([d objectForKey: [w objectAtIndex: 1]]);
      else if ([op isEqual: @"remove"])
        [d removeObjectForKey: [w objectAtIndex: 1]];
      else
        {
          NSString *key = [w objectAtIndex: 1];
          NSString *rest = [[w subarrayWithRange: NSMakeRange(2, [w count] - 2)]
            componentsJoinedByString: @" "];
          id value = [rest propertyList];

          if ([op isEqual: @"register"])
            [d registerDefaults: [NSDictionary dictionaryWithObject: value forKey: key]];
          else
            [d setObject: value forKey: key];
        }
    }
  return 0;
}

int
main(int argc, char **argv)
{
  NSAutoreleasePool *pool = [[NSAutoreleasePool alloc] init];
  int rc;

  if (argc == 2 && strcmp(argv[1], "load") == 0)
    rc = doLoad();
  else if (argc == 4 && strcmp(argv[1], "save") == 0)
    rc = doSave(argv[2], argv[3]);
  else if (argc == 2 && strcmp(argv[1], "dump") == 0)
    rc = doDump();
  else if (argc >= 2 && strcmp(argv[1], "args") == 0)
    rc = doArgs();
  else if (argc >= 2 && strcmp(argv[1], "scenario") == 0)
    rc = doScenario();
  else
    rc = usage();
  [pool release];
  return rc;
}
