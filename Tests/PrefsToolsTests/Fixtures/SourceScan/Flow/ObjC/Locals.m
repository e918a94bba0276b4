// Fallbacks held in a local, and the traps around them.
#import <Foundation/Foundation.h>

@interface Profile : NSObject
@property (copy) NSString *nickname;
@property (copy) NSString *theme;
@property (copy) NSString *layout;
@end

@implementation Profile
- (void)load:(BOOL)fresh {
  NSUserDefaults *defaults = [NSUserDefaults standardUserDefaults];
  // A ternary on an unrelated value first: it says nothing of the keys below.
  int start = fresh ? 1 : 2;

  NSString *nick = [defaults stringForKey:@"nick"];
  self.nickname = nick ? nick : @"Player";          // nick: string, default "Player"

  NSString *t = [defaults stringForKey:@"theme"];
  if (t == nil) t = @"Light";                       // theme: string, default "Light"
  self.theme = t;

  NSString *l = [defaults stringForKey:@"layout"];
  self.layout = l ?: @"grid";                        // layout: string, default "grid"

  NSString *s = [defaults stringForKey:@"sort"];
  if (!s) {
    s = @"name";                                     // sort: string, default "name"
  }

  // A number getter answers 0 when the key is absent: a test of 0 is the fallback's.
  NSInteger columns = [defaults integerForKey:@"grid.columns"];
  if (columns == 0) columns = 4;                     // grid.columns: integer, default 4
  double scale = [defaults doubleForKey:@"grid.scale"];
  scale = scale > 0 ? scale : 1.5;                   // grid.scale: double, default 1.5
  (void)columns;

  // Set from the unrelated ternary's result: an integer, never any.
  [defaults setInteger:start forKey:@"later.count"];
  (void)s;
}
@end
