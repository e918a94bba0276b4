#import "Keys.h"

// None of these is a key of the plan.
@implementation Traps

- (void)notAKey {
    // A notification's name.
    [[NSNotificationCenter defaultCenter] postNotificationName:kSoundDidChangeNotification object:nil];
    [[NSNotificationCenter defaultCenter] postNotificationName:@"VolumeDidChange" object:self];
    // A KVO key path on another object.
    [self.player addObserver:self forKeyPath:@"playbackRate" options:0 context:NULL];
    [self.player setValue:@1 forKey:@"rate"];
    // A dictionary's keys.
    NSMutableDictionary *info = [NSMutableDictionary dictionary];
    [info setObject:@YES forKey:@"dictionaryFlag"];
    NSString *title = [info objectForKey:@"dictionaryTitle"];
    NSDictionary *options = @{@"optionKey": @1};
    NSLog(@"%@ %@", title, options);
    // A key in a comment: [[NSUserDefaults standardUserDefaults] boolForKey:@"commentedOut"];
    /* [[NSUserDefaults standardUserDefaults] setBool:YES forKey:@"blockCommented"]; */
#if 0
    [[NSUserDefaults standardUserDefaults] setBool:YES forKey:@"disabledCode"];
#endif
    // Strings that merely look like keys.
    NSLog(@"soundEnabled is on");
    self.label.text = @"userName";
    NSString *lookalike = @"lookalikeKey";
    NSLog(@"%@", lookalike);
}

@end
