#import <Foundation/Foundation.h>

// A C function that makes the app group's suite: its callers' keys are the suite's.
NSUserDefaults *SharedPrefs(void) {
    return [[NSUserDefaults alloc] initWithSuiteName:@"group.example.shared"];
}

@implementation ShareExtension
- (void)start {
    NSUserDefaults *defaults = SharedPrefs();
    [defaults registerDefaults:@{ @"PngLevel" : @(4), @"StripAll" : @(YES) }];
    BOOL lossy = [SharedPrefs() boolForKey:@"LossyEnabled"];
    // Trap: another C function's answer is not user defaults.
    NSDictionary *info = InfoDictionary();
    NSLog(@"%d %@", lossy, [info objectForKey:@"NotAKey"]);
}
@end
