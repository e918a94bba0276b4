// Keys in collections: a literal array or a method returning one, looped over.
#import <Foundation/Foundation.h>

static NSString *const kPanelLeft = @"panel.left";
static NSString *const kPanelRight = @"panel.right";

// A C function returning the shortcut keys.
static NSArray *ShortcutKeys(void) {
  return @[ @"shortcut.move", @"shortcut.resize" ];
}

@interface Panels : NSObject
@end

@implementation Panels
- (NSArray *)panelNames {
  return @[ kPanelLeft, kPanelRight ];
}

- (void)restore {
  NSUserDefaults *defaults = [NSUserDefaults standardUserDefaults];
  // panel.left, panel.right: bool.
  for (NSString *name in [self panelNames]) {
    BOOL visible = [defaults boolForKey:name];
    (void)visible;
  }
  // shortcut.move, shortcut.resize: data.
  for (NSString *key in ShortcutKeys()) {
    NSData *shortcut = [defaults dataForKey:key];
    (void)shortcut;
  }
  // A local array, indexed: column.0.width, column.1.width: double.
  NSArray *widths = @[ @"column.0.width", @"column.1.width" ];
  for (NSUInteger i = 0; i < widths.count; i++) {
    double w = [defaults doubleForKey:widths[i]];
    (void)w;
  }
  // Enumerated with a block: recent.files, recent.folders: string arrays.
  [@[ @"recent.files", @"recent.folders" ] enumerateObjectsUsingBlock:^(NSString *k, NSUInteger idx, BOOL *stop) {
    NSArray *list = [defaults stringArrayForKey:k];
    (void)list;
  }];
  // Keys only removed: proposed for drop, not in the plan.
  for (NSString *old in @[ @"legacy.one", @"legacy.two" ]) {
    [defaults removeObjectForKey:old];
  }
}
@end
