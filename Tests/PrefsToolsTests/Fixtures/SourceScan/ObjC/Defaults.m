#import "Keys.h"

@implementation DefaultsSetup

+ (void)initialize {
    // Registered defaults: the value the running app sees for an absent key.
    [[NSUserDefaults standardUserDefaults] registerDefaults:@{
        kSoundEnabled: @YES,
        kVolumeLevel: @0.8,
        kThemeName: @"dark",
        @"items": @[@"a", @"b"],
        @"zoom": [NSNumber numberWithDouble:1.5],
        @"autoSave": @NO,
        @"registeredOnly": @5,
    }];
    [DEFAULTS registerDefaults:[NSDictionary dictionaryWithObjectsAndKeys:
        [NSNumber numberWithInteger:14], kFontSize,
        @"Anonymous", kUserName,
        nil]];
    [DEFAULTS registerDefaults:[NSDictionary dictionaryWithObject:@YES forKey:kSplit]];
    // A bundle file registered: Defaults.plist, found in the tree by its name.
    NSString *path = [[NSBundle mainBundle] pathForResource:@"Defaults" ofType:@"plist"];
    [DEFAULTS registerDefaults:[NSDictionary dictionaryWithContentsOfFile:path]];
    // A default computed at run time: reported, not written.
    [DEFAULTS registerDefaults:@{@"installDate": [NSDate date]}];
#if DEBUG
    // A default that depends on a build flag: reported, not written.
    [DEFAULTS registerDefaults:@{@"logLevel": @3}];
#endif
}

// The fallback when absent, in each of its forms.
- (void)load {
    NSUserDefaults *defaults = [NSUserDefaults standardUserDefaults];
    if ([defaults objectForKey:@"rankingSize"] != nil) {
        self.rankingSize = [defaults integerForKey:@"rankingSize"];
    } else {
        self.rankingSize = 5;
    }
    if ([defaults objectForKey:@"hintsEnabled"] == nil) {
        self.hintsEnabled = YES;
    } else {
        self.hintsEnabled = [defaults boolForKey:@"hintsEnabled"];
    }
    if (![defaults objectForKey:@"columns"]) {
        [defaults setInteger:3 forKey:@"columns"];     // first launch: written once
    }
    self.greeting = [defaults objectForKey:@"greeting"] ? [defaults stringForKey:@"greeting"] : @"Hello";
    self.nickname = [defaults stringForKey:@"nickname"] ?: @"Player";
    // Registered NO, the Settings bundle says YES: the registration is what the app saw.
    self.autoSave = [defaults boolForKey:@"autoSave"];
    if (@available(iOS 13, *)) {
        // A fallback that depends on the OS version: reported, not written.
        if ([defaults objectForKey:@"darkIcons"] == nil) {
            self.darkIcons = YES;
        }
    }
    NSLog(@"%d", [defaults boolForKey:@"darkIcons"]);
}

@end
