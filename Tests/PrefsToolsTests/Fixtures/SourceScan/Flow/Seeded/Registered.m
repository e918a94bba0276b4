#import "Layout.h"

// Registered defaults built with a category's typed setters of NSMutableDictionary.
@implementation Settings
+ (void)initPreferences
{
    NSMutableDictionary* d = [NSMutableDictionary dictionary];
    [d setInt:DCC_SHOW_DIALOG forKey:@"Dcc.action"];
    [d setBool:YES forKey:@"General.confirm_quit"];
    [d setDouble:12 forKey:@"Theme.log_font_size"];
    [[NSUserDefaults standardUserDefaults] registerDefaults:d];

    // Trap: a dictionary built the same way and never registered holds no keys.
    NSMutableDictionary* state = [NSMutableDictionary dictionary];
    [state setBool:YES forKey:@"windowWasOpen"];
    NSLog(@"%@", state);
}

+ (int)dccAction { return [[NSUserDefaults standardUserDefaults] integerForKey:@"Dcc.action"]; }
+ (BOOL)confirmQuit { return [[NSUserDefaults standardUserDefaults] boolForKey:@"General.confirm_quit"]; }
+ (double)logFontSize { return [[NSUserDefaults standardUserDefaults] doubleForKey:@"Theme.log_font_size"]; }
@end
