// A GNUstep app's preferences, kept as text (flags as @"YES"/@"NO", numbers as @"%0.1f")
// through the app's own wrappers, which write a given default back when the key is absent.
#import <Foundation/Foundation.h>

#define GivenSaveOnQuit @"GivenSaveOnQuit"

@implementation GivenPrefs

- (BOOL)boolForKey:(NSString *)key defaultValue:(BOOL)defaultValue
{
  NSString *stringValue = [[NSUserDefaults standardUserDefaults] objectForKey:key];

  if (stringValue)
    {
      return [stringValue boolValue];
    }
  else if (defaultValue > 0)
    {
      [self setBool:defaultValue forKey:key notify:NO];
      return defaultValue;
    }
  return defaultValue;
}

- (NSString *)stringForKey:(NSString *)key defaultValue:(NSString *)defaultValue
{
  NSString *stringValue = [[NSUserDefaults standardUserDefaults] objectForKey:key];

  if (stringValue)
    {
      return stringValue;
    }
  else if (defaultValue)
    {
      [self setString:defaultValue forKey:key notify:NO];
      return defaultValue;
    }
  return defaultValue;
}

- (void)setBool:(BOOL)boolValue forKey:(NSString *)aKey notify:(BOOL)notify
{
  NSString *stringValue = boolValue ? @"YES" : @"NO";
  [[NSUserDefaults standardUserDefaults] setObject:stringValue forKey:aKey];
}

- (void)setString:(NSString *)stringValue forKey:(NSString *)aKey notify:(BOOL)notify
{
  [[NSUserDefaults standardUserDefaults] setObject:stringValue forKey:aKey];
}

- (void)readPreferences
{
  BOOL save = [self boolForKey:GivenSaveOnQuit defaultValue:YES];
  NSString *lines = [self stringForKey:@"GivenEditorLines" defaultValue:@"30"];
}

@end

// A number kept as text, read through a variable declared as a string: a number.
static void calcKnobSize(void)
{
  NSString *value;
  float w = 2.0;

  value = [[NSUserDefaults standardUserDefaults] objectForKey:@"GivenKnobWidth"];
  if (value != nil)
    {
      w = floor([value floatValue] / 2.0);
    }
  // Trap: the getter's own type stays (a string read by stringForKey: and converted).
  NSString *label = [[NSUserDefaults standardUserDefaults] stringForKey:@"GivenLabel"];
  w += [label floatValue];
  // Trap: a cast says the class.
  id raw = (NSString *)[[NSUserDefaults standardUserDefaults] objectForKey:@"GivenRaw"];
  w += [raw intValue];
}

@implementation GivenController

// Either of two keys, chosen by a ternary (in parentheses, after a message).
- (BOOL)warningSuppressed
{
  NSString *key = ([self.class perAppControls]) ? @"GivenPerAppWarning" : @"GivenWarning";
  return [[NSUserDefaults standardUserDefaults] boolForKey:key];
}

// A suite added to a variable of the standard user defaults, its name held in a local.
- (BOOL)shouldPlaySounds
{
  NSString *domain = @"org.example.given.sound";
  NSString *key = @"GivenUISounds";
  NSUserDefaults *defaults = [NSUserDefaults standardUserDefaults];
  [defaults addSuiteNamed:domain];
  return [defaults boolForKey:key];
}

// Trap: a test of something else whose branch writes another key is no default of this one.
- (void)migrate
{
  NSString *old = [[NSUserDefaults standardUserDefaults] objectForKey:@"GivenOld"];
  if (old)
    {
      return;
    }
  else if ([self needsMigration])
    {
      [[NSUserDefaults standardUserDefaults] setObject:@"x" forKey:@"GivenNew"];
    }
}

@end

// A key made from what one of two classes' methods returns (each class's own, not any
// method of that name).
@implementation GivenMedia
+ (NSString *)entityName { return @"Media"; }
@end

@implementation GivenAlbum
+ (NSString *)entityName { return @"Album"; }
@end

@implementation GivenOther
+ (NSString *)entityName { return @"Other"; }
@end

@implementation GivenMediaController
- (NSString *)kind
{
  return [self albums] ? [GivenAlbum entityName] : [GivenMedia entityName];
}

- (NSArray *)selection
{
  NSString *key = [[self kind] stringByAppendingString:@"_GivenSelection"];
  return [[NSUserDefaults standardUserDefaults] arrayForKey:key];
}
@end
