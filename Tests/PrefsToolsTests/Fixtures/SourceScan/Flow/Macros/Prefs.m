// Keys made by the C preprocessor.
#import "Keys.h"

static NSString *const kZoomKey = @"zoomLevel";
static NSString *const kSpeedKey = @"scrollSpeed";

@interface Prefs : NSObject
@end

@implementation Prefs
// showsRuler: bool (a method a macro defines).
DEFINE_BOOL_PREF(showsRuler, @"showsRuler")

- (void)load {
  NSUserDefaults *defaults = [NSUserDefaults standardUserDefaults];
  NSData *zoom = [defaults dataForKey:PREF_KEY(zoom)];          // zoomShortcut: data
  NSInteger level = [defaults integerForKey:KEY(Zoom)];         // zoomLevel: integer
  double speed = [defaults doubleForKey:KEY(Speed)];            // scrollSpeed: double
  BOOL grid = PREF_BOOL(@"snapToGrid");                          // snapToGrid: bool
  NSString *mode = [defaults stringForKey:PREFIXED(mode)];      // app.mode: string (rescanned)
  (void)zoom; (void)level; (void)speed; (void)grid; (void)mode;
#ifdef MAC_BUILD
  [defaults setObject:@"mac" forKey:@"platform.mac"];           // both branches are keys:
#else
  [defaults setObject:@"ios" forKey:@"platform.ios"];           // platform.mac, platform.ios
#endif
#if 0
  [defaults setBool:YES forKey:@"neverCompiled"];                // never compiled: not a key
#endif
}
@end
