// A copy of Sparkle's source kept in the tree: the updater's own keys, not the app's.
NSString *const SUTypedLastCheckTimeKey = @"SUTypedLastCheckTime";

static void check(void)
{
  [[NSUserDefaults standardUserDefaults] setObject:[NSDate date] forKey:SUTypedLastCheckTimeKey];
}
