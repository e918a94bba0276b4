#import <Foundation/Foundation.h>

// A wrapper answering `id`, its answer converted where it is called.

@interface HDTool : NSObject
@end

@implementation HDTool

- (id)toolObject:(NSString *)key
{
    return CFBridgingRelease(CFPreferencesCopyAppValue((__bridge CFStringRef)key,
                                                       kCFPreferencesCurrentApplication));
}

- (BOOL)verifySSL { return [[self toolObject:@"hd.tool.verifySSL"] boolValue]; }
- (NSInteger)sleepSeconds { return [[self toolObject:@"hd.tool.sleepSeconds"] integerValue]; }
// Traps: a message that says nothing of the value's type; a conversion in a test, not an
// accessor's answer (a registered bool is often read as `integerValue == NSOnState`).
- (NSString *)summary { return [[self toolObject:@"hd.tool.summary"] description]; }
- (BOOL)tabs { if ([[self toolObject:@"hd.tool.tabs"] integerValue] == 1) { return YES; } return NO; }

@end
