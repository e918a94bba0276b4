#import <Cocoa/Cocoa.h>

// What a thirty-third set of never-seen apps showed (Objective-C): the defaults registered are
// a dictionary of the app's Info.plist (the one that holds it: an extension's has none).
@implementation InfoDefaultsController

+ (void)initialize {
  NSUserDefaults *defaults = [NSUserDefaults standardUserDefaults];
  NSBundle *bundle = [NSBundle mainBundle];
  NSDictionary *appDefaults = [bundle objectForInfoDictionaryKey:@"InfoApplicationDefaults"];
  [defaults registerDefaults:appDefaults];
}

- (BOOL)confirmDeletion {
  return [[NSUserDefaults standardUserDefaults] boolForKey:@"infoConfirmDeletion"];
}

- (float)gradient {
  return [[NSUserDefaults standardUserDefaults] floatForKey:@"infoGradient"];
}

- (NSString *)palette {
  return [[NSUserDefaults standardUserDefaults] stringForKey:@"infoPalette"];
}

// Arrays read by enumerating them: of strings, and (once stored as dictionaries) of either.
- (NSArray *)links {
  NSMutableArray *links = [NSMutableArray array];
  NSUserDefaults *defaults = [NSUserDefaults standardUserDefaults];
  if ([[defaults objectForKey:@"infoLinks"] isKindOfClass:[NSArray class]]) {
    for (NSString *link in [defaults objectForKey:@"infoLinks"]) {
      [links addObject:link];
    }
  }
  for (NSDictionary *old in [defaults objectForKey:@"infoProfiles"]) {
    [links addObject:old[@"address"]];
  }
  for (NSString *encrypted in [defaults objectForKey:@"infoProfiles"]) {
    [links addObject:encrypted];
  }
  return links;
}

@end

// infoLinks (string-array), infoProfiles (array). infoConfirmDeletion (bool, true), infoGradient (double, 0.5), infoPalette (string,
// "CoffeeBeans").
