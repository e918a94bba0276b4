/* gnustep_dump: parse a property list file with GNUstep's
 * NSPropertyListSerialization and print it as typed JSON on stdout.
 *
 *   gnustep_dump FILE
 *
 * Output is "raw" typed JSON: reals and dates are printed with %.17g and
 * integers in decimal; make_fixtures.py normalises reals/dates to python
 * repr().  The detected format is printed on stderr as "format: N".
 * Exit status 1 if the file cannot be parsed or holds an unknown type.
 *
 *   gnustep_dump --version   prints the GNUstep base version built against
 *
 *   gnustep_dump --strings FILE
 *
 * parses FILE (UTF-8) with -[NSString propertyListFromStringsFileFormat]
 * instead: GNUstep's NSPropertyListSerialization does not accept the
 * brace-less .strings top level that Apple's parser accepts.
 */
#import <Foundation/Foundation.h>
#include <stdio.h>
#include <string.h>

static void emit(NSMutableString *out, id obj);

static void emitString(NSMutableString *out, NSString *s)
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
      else if (c < 0x20 || c == 0x7f || (c >= 0xd800 && c <= 0xdfff)
        || c == 0xfeff || c == 0xfffe || c == 0xffff)
        /* surrogates are escaped too, so lone ones survive; python's
         * json module joins valid pairs back into one character; U+FEFF and
         * the noncharacters too, which Foundation's JSON reader would drop */
        [out appendFormat: @"\\u%04x", (unsigned)c];
      else
        [out appendFormat: @"%C", c];
    }
  [out appendString: @"\""];
}

static NSString *hexOf(NSData *d)
{
  const unsigned char *b = [d bytes];
  NSUInteger i, n = [d length];
  NSMutableString *h = [NSMutableString stringWithCapacity: n * 2];
  for (i = 0; i < n; i++)
    [h appendFormat: @"%02x", (unsigned)b[i]];
  return h;
}

static void emitNumber(NSMutableString *out, NSNumber *num)
{
  const char *t = [num objCType];
  NSString *cls = NSStringFromClass([num class]);

  if ([cls rangeOfString: @"Bool"].location != NSNotFound)
    {
      [out appendFormat: @"{\"bool\": %@}", [num boolValue] ? @"true" : @"false"];
    }
  else if (strcmp(t, @encode(double)) == 0 || strcmp(t, @encode(float)) == 0)
    {
      [out appendFormat: @"{\"real\": \"%.17g\"}", [num doubleValue]];
    }
  else if (strcmp(t, @encode(unsigned long long)) == 0
    || strcmp(t, @encode(unsigned long)) == 0
    || strcmp(t, @encode(unsigned int)) == 0
    || strcmp(t, @encode(unsigned short)) == 0
    || strcmp(t, @encode(unsigned char)) == 0)
    {
      [out appendFormat: @"{\"integer\": \"%llu\"}", [num unsignedLongLongValue]];
    }
  else
    {
      [out appendFormat: @"{\"integer\": \"%lld\"}", [num longLongValue]];
    }
}

static void emit(NSMutableString *out, id obj)
{
  if ([obj isKindOfClass: [NSString class]])
    {
      [out appendString: @"{\"string\": "];
      emitString(out, obj);
      [out appendString: @"}"];
    }
  else if ([obj isKindOfClass: [NSNumber class]])
    {
      emitNumber(out, obj);
    }
  else if ([obj isKindOfClass: [NSDate class]])
    {
      [out appendFormat: @"{\"date\": \"%.17g\"}",
        [obj timeIntervalSinceReferenceDate]];
    }
  else if ([obj isKindOfClass: [NSData class]])
    {
      [out appendFormat: @"{\"hexdata\": \"%@\"}", hexOf(obj)];
    }
  else if ([obj isKindOfClass: [NSArray class]])
    {
      NSEnumerator *e = [obj objectEnumerator];
      id o;
      BOOL first = YES;
      [out appendString: @"{\"array\": ["];
      while ((o = [e nextObject]) != nil)
        {
          if (!first) [out appendString: @", "];
          first = NO;
          emit(out, o);
        }
      [out appendString: @"]}"];
    }
  else if ([obj isKindOfClass: [NSDictionary class]])
    {
      NSArray *keys = [[obj allKeys] sortedArrayUsingSelector: @selector(compare:)];
      NSUInteger i;
      [out appendString: @"{\"dict\": {"];
      for (i = 0; i < [keys count]; i++)
        {
          id k = [keys objectAtIndex: i];
          if (i > 0) [out appendString: @", "];
          if (![k isKindOfClass: [NSString class]])
            {
              fprintf(stderr, "non-string key of class %s\n",
                [NSStringFromClass([k class]) UTF8String]);
              exit(1);
            }
          emitString(out, k);
          [out appendString: @": "];
          emit(out, [obj objectForKey: k]);
        }
      [out appendString: @"}}"];
    }
  else
    {
      fprintf(stderr, "unsupported class %s\n",
        [NSStringFromClass([obj class]) UTF8String]);
      exit(1);
    }
}

int main(int argc, char **argv)
{
  NSAutoreleasePool *pool = [NSAutoreleasePool new];
  NSData *data;
  NSString *err = nil;
  NSPropertyListFormat fmt = 0;
  id plist;
  NSMutableString *out;
  BOOL stringsMode = NO;
  const char *path;

  if (argc == 2 && strcmp(argv[1], "--version") == 0)
    {
#define GS_STR2(x) #x
#define GS_STR(x) GS_STR2(x)
      printf("gnustep-base %s\n", GS_STR(GNUSTEP_BASE_VERSION));
      return 0;
    }
  if (argc == 3 && strcmp(argv[1], "--strings") == 0)
    {
      stringsMode = YES;
      path = argv[2];
    }
  else if (argc == 2)
    {
      path = argv[1];
    }
  else
    {
      fprintf(stderr, "usage: gnustep_dump [--strings] FILE\n");
      return 2;
    }
  data = [NSData dataWithContentsOfFile: [NSString stringWithUTF8String: path]];
  if (data == nil)
    {
      fprintf(stderr, "cannot read %s\n", path);
      return 1;
    }
  out = [NSMutableString string];
  @try
    {
      if (stringsMode)
        {
          NSString *text = [[[NSString alloc] initWithData: data
            encoding: NSUTF8StringEncoding] autorelease];
          plist = [text propertyListFromStringsFileFormat];
          if (plist == nil)
            {
              fprintf(stderr, "strings parse error in %s\n", path);
              return 1;
            }
          fprintf(stderr, "format: strings\n");
        }
      else
        {
          plist = [NSPropertyListSerialization propertyListFromData: data
                                                   mutabilityOption: NSPropertyListImmutable
                                                             format: &fmt
                                                   errorDescription: &err];
          if (plist == nil)
            {
              fprintf(stderr, "parse error in %s: %s\n", path,
                err ? [err UTF8String] : "(no description)");
              return 1;
            }
          fprintf(stderr, "format: %lu\n", (unsigned long)fmt);
        }
      emit(out, plist);
    }
  @catch (NSException *e)
    {
      fprintf(stderr, "exception while reading %s: %s: %s\n", path,
        [[e name] UTF8String], [[e reason] UTF8String]);
      return 1;
    }
  [out appendString: @"\n"];
  fputs([out UTF8String], stdout);
  [pool release];
  return 0;
}
