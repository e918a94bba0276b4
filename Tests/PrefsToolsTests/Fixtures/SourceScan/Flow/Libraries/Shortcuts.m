// MASShortcut's defaults keys, and Sparkle's keys the app names.
#import <Foundation/Foundation.h>

static NSString *const kShortcutToggle = @"shortcut.toggle";
static NSString *const kShortcutSearch = @"shortcut.search";

@implementation AppDelegate
- (void)applicationDidFinishLaunching:(NSNotification *)note {
  [[MASShortcutBinder sharedBinder] bindShortcutWithDefaultsKey:kShortcutToggle
                                                       toAction:^{ }];  // data
  self.searchShortcutView.associatedUserDefaultsKey = kShortcutSearch;  // data
  // Sparkle's own key, named by the app: a key, marked as the library's.
  BOOL automatic = [[NSUserDefaults standardUserDefaults] boolForKey:@"SUEnableAutomaticChecks"];
  (void)automatic;
}
@end
