/* The GNUstep Base reference of Scripts/differential.sh: reads each path named on standard
 * input (one a line) with -[NSPropertyListSerialization propertyListWithData:options:format:
 * error:], the call GNUstep's NSUserDefaults reads a domain file with, and prints one line a
 * path: `OK <value>` in the canonical form of cf_driver.swift, or `ERR <reason>`. Flushed
 * line by line, so that the harness knows which input a crash was on.
 *
 * Build: gcc $(gnustep-config --objc-flags) gnustep_driver.m -o gnustep-driver \
 *          $(gnustep-config --base-libs)
 */
#import <Foundation/Foundation.h>
#include <stdio.h>
#include <string.h>
#include <math.h>

static NSString *canonical(id obj);

static NSString *str(NSString *s)
{
  NSMutableString *out = [NSMutableString stringWithString: @"s\""];
  NSUInteger i, n = [s length];
  for (i = 0; i < n; i++)
    {
      unichar c = [s characterAtIndex: i];
      if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
        [out appendFormat: @"%c", (char)c];
      else
        [out appendFormat: @"\\u%04x", (unsigned)c];
    }
  [out appendString: @"\""];
  return out;
}

static NSString *real(double d)
{
  if (isnan(d)) return @"rnan";
  if (isinf(d)) return d < 0 ? @"r-inf" : @"rinf";
  return [NSString stringWithFormat: @"r%.17g", d];
}

static NSString *number(NSNumber *num)
{
  const char *t = [num objCType];
  NSString *cls = NSStringFromClass([num class]);
  if ([cls rangeOfString: @"Bool"].location != NSNotFound)
    return [num boolValue] ? @"T" : @"F";
  if (strcmp(t, @encode(double)) == 0 || strcmp(t, @encode(float)) == 0)
    return real([num doubleValue]);
  if (strcmp(t, @encode(unsigned long long)) == 0 || strcmp(t, @encode(unsigned long)) == 0
    || strcmp(t, @encode(unsigned int)) == 0 || strcmp(t, @encode(unsigned short)) == 0
    || strcmp(t, @encode(unsigned char)) == 0)
    return [NSString stringWithFormat: @"i%llu", [num unsignedLongLongValue]];
  return [NSString stringWithFormat: @"i%lld", [num longLongValue]];
}

static NSComparisonResult byBytes(id a, id b, void *context)
{
  NSData *x = [a dataUsingEncoding: NSUTF8StringEncoding];
  NSData *y = [b dataUsingEncoding: NSUTF8StringEncoding];
  NSUInteger n = [x length] < [y length] ? [x length] : [y length];
  int c = memcmp([x bytes], [y bytes], n);
  if (c != 0) return c < 0 ? NSOrderedAscending : NSOrderedDescending;
  if ([x length] == [y length]) return NSOrderedSame;
  return [x length] < [y length] ? NSOrderedAscending : NSOrderedDescending;
}

static NSString *canonical(id obj)
{
  if ([obj isKindOfClass: [NSString class]]) return str(obj);
  if ([obj isKindOfClass: [NSNumber class]]) return number(obj);
  if ([obj isKindOfClass: [NSDate class]])
    return [NSString stringWithFormat: @"d%.17g", [obj timeIntervalSinceReferenceDate]];
  if ([obj isKindOfClass: [NSData class]])
    {
      const unsigned char *b = [obj bytes];
      NSUInteger i, n = [obj length];
      NSMutableString *h = [NSMutableString stringWithString: @"x"];
      for (i = 0; i < n; i++) [h appendFormat: @"%02x", (unsigned)b[i]];
      return h;
    }
  if ([obj isKindOfClass: [NSArray class]])
    {
      NSMutableArray *parts = [NSMutableArray array];
      NSEnumerator *e = [obj objectEnumerator];
      id o;
      while ((o = [e nextObject]) != nil) [parts addObject: canonical(o)];
      return [NSString stringWithFormat: @"(%@)", [parts componentsJoinedByString: @","]];
    }
  if ([obj isKindOfClass: [NSDictionary class]])
    {
      NSMutableDictionary *byForm = [NSMutableDictionary dictionary];
      NSEnumerator *e = [obj keyEnumerator];
      id k;
      while ((k = [e nextObject]) != nil)
        [byForm setObject: canonical([obj objectForKey: k]) forKey: canonical(k)];
      NSArray *keys = [[byForm allKeys] sortedArrayUsingFunction: byBytes context: NULL];
      NSMutableString *out = [NSMutableString stringWithString: @"{"];
      NSUInteger i;
      for (i = 0; i < [keys count]; i++)
        [out appendFormat: @"%@=%@;", [keys objectAtIndex: i],
          [byForm objectForKey: [keys objectAtIndex: i]]];
      [out appendString: @"}"];
      return out;
    }
  [NSException raise: NSGenericException format: @"unknown: a value of class %@",
    NSStringFromClass([obj class])];
  return nil;
}

static NSString *oneLine(NSString *s)
{
  return [[s componentsSeparatedByString: @"\n"] componentsJoinedByString: @" "];
}

int main(int argc, char **argv)
{
  char line[8192];
  setvbuf(stdout, NULL, _IOLBF, 0);
  while (fgets(line, sizeof line, stdin) != NULL)
    {
      NSAutoreleasePool *pool = [NSAutoreleasePool new];
      size_t n = strlen(line);
      if (n > 0 && line[n - 1] == '\n') line[n - 1] = 0;
      NSData *data = [NSData dataWithContentsOfFile: [NSString stringWithUTF8String: line]];
      if (data == nil)
        {
          printf("ERR cannot read the file\n");
          [pool release];
          continue;
        }
      @try
        {
          NSError *error = nil;
          id plist = [NSPropertyListSerialization propertyListWithData: data
            options: NSPropertyListImmutable format: NULL error: &error];
          if (plist == nil)
            printf("ERR %s\n", error ? [oneLine([error description]) UTF8String] : "nil");
          else
            printf("OK %s\n", [canonical(plist) UTF8String]);
        }
      @catch (NSException *e)
        {
          printf("ERR exception %s: %s\n", [[e name] UTF8String],
            [oneLine([e reason]) UTF8String]);
        }
      [pool release];
    }
  return 0;
}
