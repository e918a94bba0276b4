// What a thirty-first set of never-seen apps showed (Objective-C, a GNUstep file manager).

#define LOOKUPS_CACHE_MAX 20
#define LOOKUPS_TEXT_SIZE 12

@implementation LookupsViewer

- (void)awake
{
  // A collection of keys an instance variable holds, given in one method and read by index in
  // another: LookupsFont, LookupsLabelFont (string), and each with "Size" (string).
  fontKeys = [[NSArray arrayWithObjects: @"LookupsFont", @"LookupsLabelFont", nil] retain];
}

- (void)changeFont:(id)sender
{
  NSString *fontKey = [fontKeys objectAtIndex: [popup indexOfSelectedItem]];
  NSUserDefaults *defaults = [NSUserDefaults standardUserDefaults];
  [defaults setObject: @"Helvetica" forKey: fontKey];
  [defaults setObject: [NSString stringWithFormat: @"%.1f", 12.0]
               forKey: [fontKey stringByAppendingString: @"Size"]];
}

- (void)load
{
  NSUserDefaults *defaults = [NSUserDefaults standardUserDefaults];
  id entry;

  // A variable declared `id` and given the getter's answer later: LookupsCache (integer, 20:
  // the other branch's value).
  entry = [defaults objectForKey: @"LookupsCache"];
  if (entry) {
    maxCache = [entry intValue];
  } else {
    maxCache = LOOKUPS_CACHE_MAX;
  }
  // LookupsLabelSize (integer, 12).
  entry = [defaults objectForKey: @"LookupsLabelSize"];
  labelSize = entry ? [entry intValue] : LOOKUPS_TEXT_SIZE;
  // Trap: the other branch gives something else than the key's value: LookupsMode (any, no
  // default).
  entry = [defaults objectForKey: @"LookupsMode"];
  if (entry) {
    mode = 1;
  } else {
    mode = 2;
  }
}

- (void)save
{
  NSUserDefaults *defaults = [NSUserDefaults standardUserDefaults];
  [defaults setObject: [NSNumber numberWithInt: maxCache] forKey: @"LookupsCache"];
}

- (void)report
{
  // Trap: a copy of the app's domain sent elsewhere, never written back: what is set or
  // removed in it (LookupsReportLength, LookupsSecret) changes no domain.
  NSMutableDictionary *copy = [[[NSUserDefaults standardUserDefaults]
                                 persistentDomainForName: NSGlobalDomain] mutableCopy];
  [copy setObject: @3 forKey: @"LookupsReportLength"];
  [copy removeObjectForKey: @"LookupsSecret"];
  [reporter send: copy];
}

- (void)remember
{
  // Trap: an instance variable given a copy of the settings here may be given anything in
  // another method: its keys there are none (LookupsNotAKey).
  item = [[NSMutableDictionary alloc] initWithDictionary:
           [[NSUserDefaults standardUserDefaults] dictionaryRepresentation]];
}

- (NSString *)plugin
{
  item = [plugins objectAtIndex: 0];
  return [item objectForKey: @"LookupsNotAKey"];
}

- (NSArray *)mailAccounts
{
  // Another app's domain named by a path a local holds: its keys are that domain's
  // (~/Library/Preferences/org.example.mail: LookupsAccounts, array).
  NSString *path = [@"~/Library/Preferences/org.example.mail" stringByExpandingTildeInPath];
  NSDictionary *mail = [[NSUserDefaults standardUserDefaults] persistentDomainForName: path];
  NSArray *accounts = mail[@"LookupsAccounts"];
  return accounts;
}

@end
