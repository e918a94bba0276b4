#import <Foundation/Foundation.h>

@interface HelperTools : NSObject
// The app group's defaults: every key read or written through it is of the suite.
+(NSUserDefaults*) defaultsDB;
// Not user defaults: a cache with a method of the same name as a defaults getter.
+(NSCache*) sharedCache;
@end
