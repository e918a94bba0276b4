#import <Foundation/Foundation.h>

// Another app's domain through CFPreferences wrappers that answer `id`; typed by the class
// each accessor returns. The domain's constant is declared inside the implementation.

@interface UNToolSettings : NSObject
@end

@implementation UNToolSettings

static NSString *const kUNToolDomain = @"org.example.tool";

- (id)toolObject:(NSString *)key
{
    id value = CFBridgingRelease(CFPreferencesCopyAppValue((__bridge CFStringRef)(key),
                                                           (__bridge CFStringRef)(kUNToolDomain)));
    return value;
}

- (NSString *)cacheDir
{
    return [self toolObject:@"un.tool.cacheDir"];
}

- (NSArray *)searchDirs
{
    return [self toolObject:@"un.tool.searchDirs"];
}

// Trap: an accessor answering `id` says no type.
- (id)repos
{
    return [self toolObject:@"un.tool.repos"];
}

@end
