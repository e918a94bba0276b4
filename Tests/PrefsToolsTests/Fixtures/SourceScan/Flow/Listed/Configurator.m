#import <Foundation/Foundation.h>

// A configurator whose keys are the keys of a dictionary a member holds (each key's expected
// class), read in a loop through a method given the key, on the standard user defaults with
// a managed suite added: the keys are looked for in that suite.

static NSString *const kListedModeKey = @"ListedMode";
static NSString *const kListedURLKey = @"ListedURL";
static NSString *const kListedRulesKey = @"ListedRules";

@interface ListedConfigurator : NSObject
@property(readonly, nonatomic) NSDictionary *forcedKeyTypes;
@property(readonly, nonatomic) NSUserDefaults *defaults;
@end

@implementation ListedConfigurator

- (instancetype)init {
  self = [super init];
  if (self) {
    Class number = [NSNumber class];
    Class string = [NSString class];
    _forcedKeyTypes = @{
      kListedModeKey : number,
      kListedURLKey : string,
    };
    _defaults = [NSUserDefaults standardUserDefaults];
    [_defaults addSuiteNamed:@"org.example.listed"];
  }
  return self;
}

- (NSMutableDictionary *)readForcedConfig {
  NSMutableDictionary *config = [NSMutableDictionary dictionary];
  for (NSString *key in self.forcedKeyTypes) {
    config[key] = [self forcedValueForKey:key];
  }
  return config;
}

- (id)forcedValueForKey:(NSString *)key {
  id obj = [self.defaults objectForKey:key];
  return [self.defaults objectIsForcedForKey:key inDomain:@"org.example.listed"] ? obj : nil;
}

// A local given the standard user defaults, then a suite added: its reads are the suite's.
+ (BOOL)crashReportingEnabled {
  NSUserDefaults *reporter = [NSUserDefaults standardUserDefaults];
  [reporter addSuiteNamed:@"org.example.reporter"];
  return [reporter boolForKey:@"ListedSubmit"];
}

// Traps: a suite added to the standard user defaults themselves leaves them the app's; a
// variable given the standard ones again after a branch that added a suite is the app's.
+ (BOOL)migrated:(BOOL)asRoot {
  [[NSUserDefaults standardUserDefaults] addSuiteNamed:NSGlobalDomain];
  NSUserDefaults *defaults;
  if (asRoot) {
    defaults = [NSUserDefaults standardUserDefaults];
    [defaults addSuiteNamed:@"org.example.other"];
  } else {
    defaults = [NSUserDefaults standardUserDefaults];
  }
  return [defaults boolForKey:@"ListedMigrated"] && [[NSUserDefaults standardUserDefaults] boolForKey:@"ListedPlain"];
}

@end
