// NSUserDefaults' keyed subscripting on a variable holding them (through a category's
// objectForKeyedSubscript:), read into a string and written.
@implementation NSUserDefaults (TypedSubscript)
- (id)objectForKeyedSubscript:(id)key
{
  return [self objectForKey:key];
}
@end

static void applyOptions(void)
{
  NSUserDefaults *defaults = [NSUserDefaults standardUserDefaults];
  NSString *title = defaults[@"typedTitle"];
  defaults[@"typedRuns"] = @3;
  // Trap: an array's subscript.
  NSArray *names = @[ @"typedNotAKeyEither" ];
  NSString *first = names[0];
}
