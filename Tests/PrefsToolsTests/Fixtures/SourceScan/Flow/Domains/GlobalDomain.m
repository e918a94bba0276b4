// What a thirtieth set of never-seen apps showed (a GNUstep settings app): a domain kept as a
// dictionary. The code copies the global domain, sets keys in the copy and writes it back
// whole; the keys it sets or reads there are the global domain's, which the standard search
// list reads. Another app's domain, copied the same way, holds that domain's keys.

@implementation DomainsPane

- (void)saveUnits:(int)index
{
  NSUserDefaults *defaults = [NSUserDefaults standardUserDefaults];
  NSMutableDictionary *domain;

  domain = [[defaults persistentDomainForName: NSGlobalDomain] mutableCopy];
  // An integer, in the global domain.
  [domain setObject: [NSNumber numberWithInt: index] forKey: @"DomainsDiskUnits"];
  // Only removed: a key of the domain the code drops (none to carry).
  [domain removeObjectForKey: @"DomainsOldUnits"];
  [defaults setPersistentDomain: domain forName: NSGlobalDomain];
}

- (NSString *)theme
{
  NSDictionary *domain = [[NSUserDefaults standardUserDefaults]
                           persistentDomainForName: NSGlobalDomain];
  // A text.
  return [domain objectForKey: @"DomainsTheme"];
}

- (void)dockOnLeft
{
  // Another app's domain: `DomainsOrientation`, a text, is org.example.dock's.
  NSMutableDictionary *dock = [NSMutableDictionary dictionaryWithDictionary:
    [[NSUserDefaults standardUserDefaults] persistentDomainForName: @"org.example.dock"]];
  [dock setObject: @"left" forKey: @"DomainsOrientation"];
  [[NSUserDefaults standardUserDefaults] setPersistentDomain: dock forName: @"org.example.dock"];
}

- (void)stampInfo
{
  // Trap: a mutable copy of a dictionary that is no domain: `DomainsNotAKey` is no key.
  NSMutableDictionary *info = [[[NSBundle mainBundle] infoDictionary] mutableCopy];
  [info setObject: @"x" forKey: @"DomainsNotAKey"];
}

- (NSString *)trigger
{
  // An empty text, as a missing one, takes the fallback: `DomainsTrigger` is "///" when absent.
  NSString *s = [[NSUserDefaults standardUserDefaults] stringForKey: @"DomainsTrigger"];
  if (s.length == 0) {
    s = @"///";
  }
  return s;
}

- (NSString *)prefix
{
  NSString *p = [[NSUserDefaults standardUserDefaults] stringForKey: @"DomainsPrefix"];
  // Trap: a test of a longer text is no absence: `DomainsPrefix` has no default.
  if (p.length > 3) {
    p = @"long";
  }
  return p;
}

- (void)firstLaunch
{
  // Trap: a flag turned on the first time it is found off records that the work was done:
  // no default (see FirstLaunch.swift).
  if (![[NSUserDefaults standardUserDefaults] boolForKey: @"DomainsLaunched"]) {
    [self showWelcome];
    [[NSUserDefaults standardUserDefaults] setBool: YES forKey: @"DomainsLaunched"];
  }
  // Trap: a toggle writes the key in both branches: no default.
  if (![[NSUserDefaults standardUserDefaults] boolForKey: @"DomainsToggle"]) {
    [[NSUserDefaults standardUserDefaults] setBool: YES forKey: @"DomainsToggle"];
  } else {
    [[NSUserDefaults standardUserDefaults] setBool: NO forKey: @"DomainsToggle"];
  }
}

@end
