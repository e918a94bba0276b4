/* gnustep_write: read a property list with GNUstep's
 * NSPropertyListSerialization and write it back in another format.
 *
 *   gnustep_write IN OUT openstep|gnustep|xml|binary
 *
 * Exit status 3 if GNUstep refuses to write the value in that format
 * (the caller then skips that file), 1 on other errors.
 */
#import <Foundation/Foundation.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
  NSAutoreleasePool *pool = [NSAutoreleasePool new];
  NSData *data, *outData;
  NSString *err = nil;
  NSPropertyListFormat inFmt = 0, outFmt;
  id plist;

  if (argc != 4)
    {
      fprintf(stderr, "usage: gnustep_write IN OUT openstep|gnustep|xml|binary\n");
      return 2;
    }
  if (strcmp(argv[3], "openstep") == 0) outFmt = NSPropertyListOpenStepFormat;
  else if (strcmp(argv[3], "gnustep") == 0) outFmt = NSPropertyListGNUstepFormat;
  else if (strcmp(argv[3], "xml") == 0) outFmt = NSPropertyListXMLFormat_v1_0;
  else if (strcmp(argv[3], "binary") == 0) outFmt = NSPropertyListBinaryFormat_v1_0;
  else
    {
      fprintf(stderr, "unknown format %s\n", argv[3]);
      return 2;
    }
  data = [NSData dataWithContentsOfFile: [NSString stringWithUTF8String: argv[1]]];
  if (data == nil)
    {
      fprintf(stderr, "cannot read %s\n", argv[1]);
      return 1;
    }
  @try
    {
      plist = [NSPropertyListSerialization propertyListFromData: data
                                               mutabilityOption: NSPropertyListImmutable
                                                         format: &inFmt
                                               errorDescription: &err];
    }
  @catch (NSException *e)
    {
      fprintf(stderr, "exception while reading %s: %s: %s\n", argv[1],
        [[e name] UTF8String], [[e reason] UTF8String]);
      return 1;
    }
  if (plist == nil)
    {
      fprintf(stderr, "parse error in %s: %s\n", argv[1],
        err ? [err UTF8String] : "(no description)");
      return 1;
    }
  err = nil;
  @try
    {
      outData = [NSPropertyListSerialization dataFromPropertyList: plist
                                                           format: outFmt
                                                 errorDescription: &err];
    }
  @catch (NSException *e)
    {
      fprintf(stderr, "exception while writing %s as %s: %s: %s\n", argv[1],
        argv[3], [[e name] UTF8String], [[e reason] UTF8String]);
      return 3;
    }
  if (outData == nil)
    {
      fprintf(stderr, "GNUstep cannot write %s as %s: %s\n", argv[1], argv[3],
        err ? [err UTF8String] : "(no description)");
      return 3;
    }
  if (![outData writeToFile: [NSString stringWithUTF8String: argv[2]] atomically: NO])
    {
      fprintf(stderr, "cannot write %s\n", argv[2]);
      return 1;
    }
  [pool release];
  return 0;
}
