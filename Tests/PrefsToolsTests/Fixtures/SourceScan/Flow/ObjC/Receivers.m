// Receivers: a parameter of type NSUserDefaults is user defaults; one whose class the code does
// not say may be, and is reported as unknown, never taken and never dropped silently; iCloud's
// key-value store and a dictionary have the same methods and are neither.
#import <Foundation/Foundation.h>

@interface Sync : NSObject
@property (strong) id store;
@end

@implementation Sync
- (void)apply:(NSUserDefaults *)target {
  [target setBool:YES forKey:@"param.synced"];       // param.synced: bool
}

- (void)mirror {
  // Unknown: `store` is an id.
  BOOL on = [self.store boolForKey:@"maybe.flag"];
  NSUbiquitousKeyValueStore *cloud = [NSUbiquitousKeyValueStore defaultStore];
  [cloud setBool:on forKey:@"cloud.flag"];           // iCloud's, not user defaults
  NSMutableDictionary *info = [NSMutableDictionary dictionary];
  [info setObject:@"x" forKey:@"dict.key"];          // a dictionary's key
  (void)info;
}

// The registration domain read as a suite: the app's own key as registered, not a suite's.
- (BOOL)changedCommand {
  NSArray *registered = [[[NSUserDefaults alloc] initWithSuiteName:NSRegistrationDomain]
      stringArrayForKey:@"launch.command"];                 // launch.command: string-array
  return registered.count > 0;
}
@end
