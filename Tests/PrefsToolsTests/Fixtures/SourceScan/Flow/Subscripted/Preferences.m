// What a thirty-second set of never-seen apps showed (Objective-C): a preferences class whose
// own `registerDefaults:` merges the bundle's defaults into its domain with
// `setPersistentDomain:forName:` (not NSUserDefaults' method): the app's call of it registers
// the bundle plist's values. SubscriptedHistoryEnabled (bool, true), SubscriptedHistoryLimit
// (integer, 1000).

@implementation SubscriptedPreferences

+ (SubscriptedPreferences *)sharedController
{
  static SubscriptedPreferences *shared;
  return shared;
}

- (void)registerDefaults:(NSDictionary *)inDefaults
{
  NSUserDefaults *helper = [[NSUserDefaults alloc] init];
  NSDictionary *existing = [helper persistentDomainForName:@"org.example.subscripted"];
  NSMutableDictionary *domain = [inDefaults mutableCopy];
  if (existing) [domain addEntriesFromDictionary:existing];
  [helper setPersistentDomain:domain forName:@"org.example.subscripted"];
}

- (BOOL)boolForKey:(NSString *)key
{
  return [[NSUserDefaults standardUserDefaults] boolForKey:key];
}

- (NSInteger)integerForKey:(NSString *)key
{
  return [[NSUserDefaults standardUserDefaults] integerForKey:key];
}

@end

@implementation SubscriptedController

- (NSString *)fontName;
{
  // A `;` before the body, and variables declared in a list: SubscriptedFont (string, the
  // variable it is given to is a text).
  NSString *name, *key;
  key = @"SubscriptedFont";
  name = [[NSUserDefaults standardUserDefaults] objectForKey: key];
  return name;
}

- (void)start
{
  SubscriptedPreferences *preferences = [SubscriptedPreferences sharedController];
  NSURL *fileURL = [[NSBundle mainBundle] URLForResource:@"SubscriptedDefaults" withExtension:@"plist"];
  NSDictionary *defaults = [NSDictionary dictionaryWithContentsOfURL:fileURL];
  if (defaults) {
    [preferences registerDefaults:defaults];
  }
  [preferences boolForKey:@"SubscriptedHistoryEnabled"];
  [preferences integerForKey:@"SubscriptedHistoryLimit"];
}

@end
