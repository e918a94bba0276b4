#import <Foundation/Foundation.h>

// An app that keeps its settings through CFPreferences under its own bundle identifier, which
// only the Xcode project names (`org.example.$(PRODUCT_NAME:rfc1034identifier)` of the target
// "Own App"): the standard domain. Each value is a CFNumber of the kind its wrapper makes.

#define kOwnAppID CFSTR("org.example.Own-App")

@interface OwnSettings : NSObject
@end

@implementation OwnSettings

+ (void)setKey:(NSString *)aKey withInt:(int)aValue
{
    CFNumberRef value = CFNumberCreate(kCFAllocatorDefault, kCFNumberIntType, &aValue);
    CFPreferencesSetAppValue((CFStringRef)aKey, value, kOwnAppID);
    CFRelease(value);
}

+ (void)setKey:(NSString *)aKey withFloat:(float)aValue
{
    CFNumberRef value = CFNumberCreate(kCFAllocatorDefault, kCFNumberFloatType, &aValue);
    CFPreferencesSetAppValue((CFStringRef)aKey, value, kOwnAppID);
    CFRelease(value);
}

+ (void)save
{
    [OwnSettings setKey:@"own.level" withInt:3];
    [OwnSettings setKey:@"own.speed" withFloat:0.5f];
    // The identifier of an older application bundle of the tree (its Info.plist, APPL).
    CFPreferencesSetAppValue(CFSTR("own.legacyFlag"), kCFBooleanTrue, CFSTR("org.example.legacy"));
    // Traps: a framework's identifier, a plug-in's (BNDL), an application whose identifier the
    // project leaves to a setting it does not hold: each stays a suite of its own.
    CFPreferencesSetAppValue(CFSTR("kit.cache"), kCFBooleanTrue, CFSTR("org.example.OwnKit"));
    CFPreferencesSetAppValue(CFSTR("plugin.count"), kCFBooleanTrue, CFSTR("org.example.plugin"));
    CFPreferencesSetAppValue(CFSTR("helper.port"), kCFBooleanTrue, CFSTR("org.example.Helper"));
}

@end
